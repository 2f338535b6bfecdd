// Alibaba Cloud Short Message Service (Dysmsapi 2017-05-25, SendSms): an RPC-style call signed with HMAC-SHA1
// (signature version 1.0), sent as a form-encoded POST. Mainland China only takes approved templates, so a one-time
// code goes through a code template and any other text through a notice template with one free-text variable.
import { createHmac, randomUUID } from 'node:crypto';
import { DeliveryError, type FailureKind, type SmsAccepted, type SmsProvider, type SmsRequest } from '../types.ts';
import { DEFAULT_SMS_TIMEOUT_MS, postToProvider, textField } from './http.ts';

export interface AliyunOptions {
  accessKeyId: string;
  accessKeySecret: string;
  /** The approved signature name shown in 【】 before the text. */
  signName: string;
  /** An approved verification-code template (SMS_xxx) whose one variable is ${code}. */
  codeTemplate: string;
  /** An approved notification template (SMS_xxx) whose one variable is ${content}. */
  noticeTemplate?: string;
  /** Default https://dysmsapi.aliyuncs.com. */
  endpoint?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => Date;
  nonce?: () => string;
}

/**
 * The longest value a notification template's free-text variable takes: Alibaba Cloud's variable specification
 * allows 1 to 35 characters for "other" variables of notification templates (every Chinese character, letter,
 * digit and symbol counts as one); a longer value is refused with isv.PARAM_LENGTH_LIMIT.
 */
export const ALIYUN_NOTICE_VARIABLE_MAX = 35;

/**
 * Alibaba Cloud's percent-encoding for signatures: RFC 3986 over UTF-8, where only A–Z, a–z, 0–9, "-", "_", "."
 * and "~" stay as they are and a space is %20 (never "+").
 */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The parameters, sorted by name and percent-encoded, joined as a query string (Signature itself excluded). */
export function aliyunCanonicalQuery(params: Record<string, string>): string {
  return (
    Object.keys(params)
      .filter((key) => key !== 'Signature')
      // Sorted by code unit, as the documentation's byte-wise ordering of ASCII parameter names asks.
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(params[key] ?? '')}`)
      .join('&')
  );
}

/**
 * The request signature (version 1.0): Base64(HMAC-SHA1(AccessKeySecret + "&", StringToSign)), where
 * StringToSign = HTTPMethod + "&" + percentEncode("/") + "&" + percentEncode(canonicalized query string).
 */
export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const stringToSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(aliyunCanonicalQuery(params))}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign, 'utf8').digest('base64');
}

/**
 * The number as SendSms wants it: a mainland mobile number as its 11 digits (a +86 or 0086 prefix removed); any
 * other country as its country code followed by the number, without "+" or "00".
 */
export function toAliyunNumber(to: string): string {
  const compact = to.replace(/[\s\-().]/g, '');
  const mainland = /^(?:\+86|0086)?(1[3-9]\d{9})$/.exec(compact);
  if (mainland?.[1]) return mainland[1];
  const international = /^(?:\+|00)([1-9]\d{6,14})$/.exec(compact);
  if (international?.[1]) return international[1];
  throw new DeliveryError('invalid-recipient', `${to} is neither a mainland mobile number nor an international one`);
}

interface Sorted {
  kind: FailureKind;
  permanent?: boolean;
}

// SendSms's error codes (Short Message Service error code reference) and the platform's common RPC errors.
const ALIYUN_CODES: Record<string, Sorted> = {
  'isv.MOBILE_NUMBER_ILLEGAL': { kind: 'invalid-recipient' },
  'isv.MOBILE_COUNT_OVER_LIMIT': { kind: 'invalid-recipient' },
  // Per-number and per-minute/hour/day flow control, the console's daily cap, an empty balance, a stopped service.
  'isv.BUSINESS_LIMIT_CONTROL': { kind: 'quota' },
  'isv.DAY_LIMIT_CONTROL': { kind: 'quota' },
  'isv.AMOUNT_NOT_ENOUGH': { kind: 'quota' },
  'isv.OUT_OF_SERVICE': { kind: 'quota' },
  // The template, signature or variables are not approved, missing, too long or refused for their words.
  'isv.SMS_TEMPLATE_ILLEGAL': { kind: 'blocked-content' },
  'isv.SMS_SIGNATURE_ILLEGAL': { kind: 'blocked-content' },
  'isv.SMS_SIGN_ILLEGAL': { kind: 'blocked-content' },
  'isv.SMS_SIGNATURE_SCENE_ILLEGAL': { kind: 'blocked-content' },
  'isv.TEMPLATE_MISSING_PARAMETERS': { kind: 'blocked-content' },
  'isv.TEMPLATE_PARAMS_ILLEGAL': { kind: 'blocked-content' },
  'isv.INVALID_JSON_PARAM': { kind: 'blocked-content' },
  'isv.PARAM_LENGTH_LIMIT': { kind: 'blocked-content' },
  'isv.BLACK_KEY_CONTROL_LIMIT': { kind: 'blocked-content' },
  'isv.SMS_CONTENT_ILLEGAL': { kind: 'blocked-content' },
  // The keys are wrong or inactive, the request was signed with another secret, the account or its right is gone.
  'InvalidAccessKeyId.NotFound': { kind: 'unauthorized' },
  'InvalidAccessKeyId.Inactive': { kind: 'unauthorized' },
  SignatureDoesNotMatch: { kind: 'unauthorized' },
  IncompleteSignature: { kind: 'unauthorized' },
  'isv.ACCOUNT_NOT_EXISTS': { kind: 'unauthorized' },
  'isv.ACCOUNT_ABNORMAL': { kind: 'unauthorized' },
  'isv.PRODUCT_UN_SUBSCRIPT': { kind: 'unauthorized' },
  'isv.PRODUCT_UNSUBSCRIBE': { kind: 'unauthorized' },
  'isp.RAM_PERMISSION_DENY': { kind: 'unauthorized' },
  // Alibaba Cloud's own failures and its API-level throttling: the same request may pass a moment later. A nonce
  // seen before only happens on a resend, which gets a new one.
  'isp.SYSTEM_ERROR': { kind: 'unavailable', permanent: false },
  ServiceUnavailable: { kind: 'unavailable', permanent: false },
  InternalError: { kind: 'unavailable', permanent: false },
  Throttling: { kind: 'unavailable', permanent: false },
  'Throttling.User': { kind: 'unavailable', permanent: false },
  'Throttling.Api': { kind: 'unavailable', permanent: false },
  SignatureNonceUsed: { kind: 'unavailable', permanent: false },
};

export function createAliyunProvider(opts: AliyunOptions): SmsProvider {
  const endpoint = (opts.endpoint ?? 'https://dysmsapi.aliyuncs.com').replace(/\/+$/, '');
  const now = opts.now ?? (() => new Date());
  const nonce = opts.nonce ?? randomUUID;

  return {
    name: 'aliyun',
    async send(request: SmsRequest, signal?: AbortSignal): Promise<SmsAccepted> {
      const phoneNumbers = toAliyunNumber(request.to);
      let templateCode: string;
      let templateParam: Record<string, string>;
      if (request.code !== undefined) {
        templateCode = opts.codeTemplate;
        templateParam = { code: request.code };
      } else {
        if (!opts.noticeTemplate) {
          throw new DeliveryError(
            'blocked-content',
            'Alibaba Cloud sends only approved templates, and no notice template (with ${content}) is configured',
          );
        }
        templateCode = opts.noticeTemplate;
        // Cut by characters, not UTF-16 units, so a character outside the BMP is never split in half.
        templateParam = { content: Array.from(request.text).slice(0, ALIYUN_NOTICE_VARIABLE_MAX).join('') };
      }

      const params: Record<string, string> = {
        AccessKeyId: opts.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        RegionId: 'cn-hangzhou',
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: nonce(),
        SignatureVersion: '1.0',
        // ISO 8601 in UTC to the second (yyyy-MM-ddTHH:mm:ssZ), as the common parameters ask.
        Timestamp: now()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
        PhoneNumbers: phoneNumbers,
        SignName: opts.signName,
        TemplateCode: templateCode,
        TemplateParam: JSON.stringify(templateParam),
      };
      const signature = aliyunSignature('POST', params, opts.accessKeySecret);
      const body = `${aliyunCanonicalQuery(params)}&Signature=${aliyunPercentEncode(signature)}`;

      const answer = await postToProvider('Alibaba Cloud', `${endpoint}/`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        timeoutMs: opts.timeoutMs ?? DEFAULT_SMS_TIMEOUT_MS,
        signal,
        fetch: opts.fetch,
      });

      const code = textField(answer.json, 'Code');
      const bizId = textField(answer.json, 'BizId');
      if (answer.status >= 200 && answer.status < 300 && code === 'OK') {
        // BizId is what SendSmsReport and QuerySendDetails find the message by; RequestId stands in if it is absent.
        return { id: bizId ?? textField(answer.json, 'RequestId') ?? '', status: 'OK' };
      }
      throw aliyunFailure(answer.status, code, textField(answer.json, 'Message'));
    },
  };
}

/** Sorts an answer by its Code; an unknown code by the HTTP status; no JSON at all as the provider being away. */
function aliyunFailure(status: number, code: string | undefined, message: string | undefined): DeliveryError {
  const text = `Alibaba Cloud: ${message ?? `HTTP ${status}`}${code ? ` (${code})` : ''}`;
  let sorted: Sorted | undefined = code ? ALIYUN_CODES[code] : undefined;
  if (!sorted) {
    if (status >= 500 || !code) sorted = { kind: 'unavailable', permanent: false };
    else if (status === 401 || status === 403) sorted = { kind: 'unauthorized' };
    else sorted = { kind: 'rejected' };
  }
  return new DeliveryError(sorted.kind, text, {
    ...(sorted.permanent === undefined ? {} : { permanent: sorted.permanent }),
    ...(code ? { providerCode: code } : {}),
    status,
  });
}
