// Twilio and Alibaba Cloud SMS against local HTTP servers that check each request as the provider documents it
// (method, path, content type, Basic authentication for Twilio, the HMAC-SHA1 signature for Alibaba Cloud,
// recomputed here from the documented algorithm) and answer with the providers' documented bodies: every answer
// is sorted into the failure a person can act on, and an absent, failing or silent provider is `unavailable`.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliyunPercentEncode, aliyunSignature, createAliyunProvider } from '../src/modules/messages/sms/aliyun.ts';
import { createTwilioProvider } from '../src/modules/messages/sms/twilio.ts';
import { DeliveryError, type FailureKind, type SmsRequest } from '../src/modules/messages/types.ts';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

async function serve(handler: Handler): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The address of a port nothing listens on: one that was just taken and given back. */
async function closedPortUrl(): Promise<string> {
  const { server, url } = await serve((_req, _body, res) => res.end());
  await close(server);
  return url;
}

interface Failure {
  kind: FailureKind;
  permanent: boolean;
  providerCode: string | undefined;
  status: number | undefined;
  message: string;
}

async function failureOf(sending: Promise<unknown>): Promise<Failure> {
  const err: unknown = await sending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeliveryError);
  const e = err as DeliveryError;
  return { kind: e.kind, permanent: e.permanent, providerCode: e.providerCode, status: e.status, message: e.message };
}

const sms = (to: string, text: string, extra: Partial<SmsRequest> = {}): SmsRequest => ({
  to,
  text,
  purpose: 'notice',
  language: 'en-US',
  ...extra,
});

// A server that takes the request and never answers, for the deadline.
let silent: { server: Server; url: string };
const held: ServerResponse[] = [];
beforeAll(async () => {
  silent = await serve((_req, _body, res) => held.push(res));
});
afterAll(async () => close(silent.server));

describe('Twilio', () => {
  const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
  const AUTH_TOKEN = 'f00dfeedc0ffee0123456789abcdef01';
  const FROM = '+15005550006';
  const PATH = `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`;
  let twilio: { server: Server; url: string };
  const seen: { headers: IncomingMessage['headers']; form: Record<string, string> }[] = [];

  // Twilio's error bodies as its API answers them (https://www.twilio.com/docs/api/errors/<code>). The numbers
  // +1500555000x are the magic numbers Twilio's test credentials answer these errors for.
  const twilioError = (status: number, code: number, message: string) => ({
    status,
    body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  });
  const byNumber: Record<string, { status: number; body: Record<string, unknown> }> = {
    '+15005550001': twilioError(400, 21211, "The 'To' number +15005550001 is not a valid phone number."),
    '+15005550002': twilioError(
      400,
      21612,
      "The 'To' phone number: +15005550002, is not currently reachable using the 'From' phone number: " +
        '+15005550006 via SMS.',
    ),
    '+15005550003': twilioError(
      400,
      21408,
      "Permission to send an SMS has not been enabled for the region indicated by the 'To' number: +15005550003.",
    ),
    '+15005550004': twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'),
    '+15005550009': twilioError(400, 21614, "'To' number is not a valid mobile number"),
    '+15005550011': twilioError(400, 30007, 'Message filtered'),
    '+15005550012': twilioError(429, 20429, 'Too Many Requests'),
  };

  beforeAll(async () => {
    twilio = await serve((req, body, res) => {
      if (req.url !== PATH) {
        json(res, 404, twilioError(404, 20404, `The requested resource ${req.url} was not found`).body);
        return;
      }
      if (req.method !== 'POST') {
        json(res, 405, twilioError(405, 20004, 'Method not allowed').body);
        return;
      }
      const expected = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        json(res, 401, twilioError(401, 20003, 'Authenticate').body);
        return;
      }
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        json(res, 400, twilioError(400, 21604, "A 'To' phone number is required.").body);
        return;
      }
      const form = Object.fromEntries(new URLSearchParams(body));
      seen.push({ headers: req.headers, form });
      const allowed = ['To', 'Body', 'From', 'MessagingServiceSid', 'StatusCallback'];
      const unknown = Object.keys(form).filter((key) => !allowed.includes(key));
      if (unknown.length > 0) {
        json(res, 400, twilioError(400, 20001, `Unknown parameters: ${unknown.join(', ')}`).body);
        return;
      }
      if (!form.To) {
        json(res, 400, twilioError(400, 21604, "A 'To' phone number is required.").body);
        return;
      }
      if (!form.From === !form.MessagingServiceSid) {
        json(res, 400, twilioError(400, 21603, "A 'From' phone number is required.").body);
        return;
      }
      if (!form.Body) {
        json(res, 400, twilioError(400, 21602, 'Message body is required.').body);
        return;
      }
      if (form.Body.length > 1600) {
        json(res, 400, twilioError(400, 21617, 'The concatenated message body exceeds the 1600 character limit.').body);
        return;
      }
      if (form.To === '+15005550013') {
        res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>');
        return;
      }
      const failure = byNumber[form.To];
      if (failure) {
        json(res, failure.status, failure.body);
        return;
      }
      // The Message resource as Twilio answers a create (201), trimmed to the fields that matter here.
      json(res, 201, {
        account_sid: ACCOUNT_SID,
        api_version: '2010-04-01',
        body: form.Body,
        from: form.From ?? null,
        messaging_service_sid: form.MessagingServiceSid ?? null,
        num_segments: '1',
        sid: 'SM1f0e8ae6ade43cb3c0ce4525424e404f',
        status: form.MessagingServiceSid ? 'accepted' : 'queued',
        to: form.To,
        uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/SM1f0e8ae6ade43cb3c0ce4525424e404f.json`,
      });
    });
  });
  afterAll(async () => close(twilio.server));

  const provider = (extra: Partial<Parameters<typeof createTwilioProvider>[0]> = {}) =>
    createTwilioProvider({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: FROM, baseUrl: twilio.url, ...extra });

  it('posts To in E.164, Body, From and StatusCallback, form-encoded with Basic authentication', async () => {
    const accepted = await provider({ statusCallback: 'https://console.example.com/hooks/twilio' }).send(
      sms('13800000001', 'Genset 12 stopped: low fuel & 3 alarms'),
    );
    expect(accepted).toEqual({ id: 'SM1f0e8ae6ade43cb3c0ce4525424e404f', status: 'queued' });
    const last = seen.at(-1)!;
    expect(last.form).toEqual({
      To: '+8613800000001',
      Body: 'Genset 12 stopped: low fuel & 3 alarms',
      From: FROM,
      StatusCallback: 'https://console.example.com/hooks/twilio',
    });
    expect(last.headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);
    expect(last.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('sends through a Messaging Service instead of a number when one is given', async () => {
    const accepted = await provider({ messagingServiceSid: 'MG9752274e9e519418a7406176694466fa' }).send(
      sms('+44 7700 900123', 'Test message'),
    );
    expect(accepted).toEqual({ id: 'SM1f0e8ae6ade43cb3c0ce4525424e404f', status: 'accepted' });
    expect(seen.at(-1)!.form).toEqual({
      To: '+447700900123',
      Body: 'Test message',
      MessagingServiceSid: 'MG9752274e9e519418a7406176694466fa',
    });
  });

  it('sorts Twilio’s documented errors by their code', async () => {
    const cases: [string, FailureKind, boolean, string, number][] = [
      ['+15005550001', 'invalid-recipient', true, '21211', 400],
      ['+15005550004', 'invalid-recipient', true, '21610', 400],
      ['+15005550009', 'invalid-recipient', true, '21614', 400],
      ['+15005550002', 'rejected', true, '21612', 400],
      ['+15005550003', 'rejected', true, '21408', 400],
      ['+15005550011', 'blocked-content', true, '30007', 400],
      ['+15005550012', 'unavailable', false, '20429', 429],
    ];
    for (const [to, kind, permanent, code, status] of cases) {
      const failure = await failureOf(provider().send(sms(to, 'Test message')));
      expect({ to, ...failure }).toEqual({
        to,
        kind,
        permanent,
        providerCode: code,
        status,
        message: `Twilio: ${byNumber[to]!.body.message as string} (${code})`,
      });
    }
  });

  it('refuses a body over 1,600 characters as blocked content', async () => {
    const failure = await failureOf(provider().send(sms('+15005550006', 'x'.repeat(1601))));
    expect([failure.kind, failure.permanent, failure.providerCode, failure.status]).toEqual([
      'blocked-content',
      true,
      '21617',
      400,
    ]);
  });

  it('a wrong auth token is unauthorized', async () => {
    const failure = await failureOf(provider({ authToken: 'wrong' }).send(sms('+15005550006', 'Test')));
    expect(failure).toEqual({
      kind: 'unauthorized',
      permanent: true,
      providerCode: '20003',
      status: 401,
      message: 'Twilio: Authenticate (20003)',
    });
  });

  it('a number that is neither E.164 nor a mainland mobile is refused before anything is sent', async () => {
    const before = seen.length;
    const failure = await failureOf(provider().send(sms('4155550100', 'Test')));
    expect([failure.kind, failure.permanent, failure.status]).toEqual(['invalid-recipient', true, undefined]);
    expect(seen.length).toBe(before);
  });

  it('a 503, a closed port and a silent server are unavailable and worth another try', async () => {
    const down = await failureOf(provider().send(sms('+15005550013', 'Test')));
    expect(down).toEqual({
      kind: 'unavailable',
      permanent: false,
      providerCode: undefined,
      status: 503,
      message: 'Twilio: HTTP 503',
    });
    const closedUrl = await closedPortUrl();
    const closed = await failureOf(provider({ baseUrl: closedUrl }).send(sms('+15005550006', 'Test')));
    expect([closed.kind, closed.permanent, closed.status]).toEqual(['unavailable', false, undefined]);
    expect(closed.message).toBe(
      `Twilio could not be reached: ECONNREFUSED (connect ECONNREFUSED ${new URL(closedUrl).host})`,
    );
    const slow = await failureOf(provider({ baseUrl: silent.url, timeoutMs: 300 }).send(sms('+15005550006', 'T')));
    expect(slow).toEqual({
      kind: 'unavailable',
      permanent: false,
      providerCode: undefined,
      status: undefined,
      message: 'Twilio did not answer within 300 ms',
    });
  });
});

// The test's own implementation of Alibaba Cloud's signature version 1.0, written from the documentation and not
// from the adapter: percent-encode the UTF-8 bytes of everything outside A–Z a–z 0–9 - _ . ~ as %XY (uppercase
// hex), sort the parameters by name, join name=value with "&", and sign
// Method & %2F & encode(that string) with HMAC-SHA1 keyed by the secret followed by "&".
function documentedEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
function documentedStringToSign(method: string, params: Record<string, string>): string {
  const names = Object.keys(params)
    .filter((name) => name !== 'Signature')
    .sort();
  const canonical = names.map((name) => `${documentedEncode(name)}=${documentedEncode(params[name]!)}`).join('&');
  return `${method}&${documentedEncode('/')}&${documentedEncode(canonical)}`;
}
function documentedSignature(method: string, params: Record<string, string>, secret: string): string {
  return createHmac('sha1', `${secret}&`).update(documentedStringToSign(method, params)).digest('base64');
}

// The Short Message Service's own worked example of a signed SendSms request ("HTTP protocol and signature",
// https://help.aliyun.com/document_detail/56189.html): AccessKey testId / testSecret, signed for GET.
const SMS_EXAMPLE: Record<string, string> = {
  AccessKeyId: 'testId',
  Action: 'SendSms',
  Format: 'XML',
  OutId: '123',
  PhoneNumbers: '15300000001',
  RegionId: 'cn-hangzhou',
  SignName: '阿里云短信测试专用',
  SignatureMethod: 'HMAC-SHA1',
  SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
  SignatureVersion: '1.0',
  TemplateCode: 'SMS_71390007',
  TemplateParam: '{"customer":"test"}',
  Timestamp: '2017-07-12T02:42:19Z',
  Version: '2017-05-25',
};
// The signature mechanism's DescribeRegions example (AccessKey testid / testsecret, as reproduced at
// https://developer.aliyun.com/ask/210168), whose signature CT9X0VtwR86fNWSnsc6v8YGOjuE= every product's "Signature
// mechanism" page shows in its sample URL. That copy prints the joints between parameters in the string to sign
// as "&"; they are percent-encoded (%26) like the rest of the canonical query string, which is what gives the
// documented signature.
const ECS_EXAMPLE: Record<string, string> = {
  TimeStamp: '2016-02-23T12:46:24Z',
  Format: 'XML',
  AccessKeyId: 'testid',
  Action: 'DescribeRegions',
  SignatureMethod: 'HMAC-SHA1',
  SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
  Version: '2014-05-26',
  SignatureVersion: '1.0',
};

describe('Alibaba Cloud signature', () => {
  it('reproduces the SMS documentation’s worked example exactly', () => {
    expect(aliyunSignature('GET', SMS_EXAMPLE, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
    expect(documentedSignature('GET', SMS_EXAMPLE, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('reproduces the signature mechanism’s DescribeRegions example and its string to sign', () => {
    expect(documentedStringToSign('GET', ECS_EXAMPLE)).toBe(
      'GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0' +
        '%26TimeStamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26',
    );
    expect(aliyunSignature('GET', ECS_EXAMPLE, 'testsecret')).toBe('CT9X0VtwR86fNWSnsc6v8YGOjuE=');
  });

  it('encodes a space as %20, "*" as %2A and keeps "~", as the percent-encoding rules say', () => {
    const params = { AccessKeyId: 'testid', TemplateParam: '{"content":"a b*c~d+e"}' };
    expect(aliyunSignature('POST', params, 'testsecret')).toBe(documentedSignature('POST', params, 'testsecret'));
    expect(aliyunPercentEncode("a b*c~d+e/!'()")).toBe('a%20b%2Ac~d%2Be%2F%21%27%28%29');
    expect(documentedEncode("a b*c~d+e/!'()")).toBe('a%20b%2Ac~d%2Be%2F%21%27%28%29');
  });
});

describe('Alibaba Cloud SMS', () => {
  const KEY_ID = 'LTAI5tTestKeyId0001';
  const SECRET = 'TestSecret0000000000000000000001';
  const CODE_TEMPLATE = 'SMS_154950909';
  const NOTICE_TEMPLATE = 'SMS_154950910';
  const REQUEST_ID = 'F655A8D5-B967-440B-8683-DAD6FF8DE990';
  let aliyun: { server: Server; url: string };
  const seen: { headers: IncomingMessage['headers']; params: Record<string, string> }[] = [];

  // SendSms's documented answers (Short Message Service error codes): business errors come with HTTP 200.
  const answers: Record<string, { status: number; Code: string; Message: string }> = {
    '13800000002': { status: 200, Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' },
    '13800000003': { status: 200, Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发小时级流控Permits:5' },
    '13800000004': { status: 200, Code: 'isv.DAY_LIMIT_CONTROL', Message: '触发日发送限额' },
    '13800000005': { status: 200, Code: 'isv.AMOUNT_NOT_ENOUGH', Message: '账户余额不足' },
    '13800000006': { status: 200, Code: 'isv.OUT_OF_SERVICE', Message: '业务停机' },
    '13800000007': { status: 200, Code: 'isv.SMS_TEMPLATE_ILLEGAL', Message: '该账号下找不到对应模板' },
    '13800000008': { status: 200, Code: 'isv.SMS_SIGNATURE_ILLEGAL', Message: '该账号下找不到对应签名' },
    '13800000009': { status: 200, Code: 'isv.BLACK_KEY_CONTROL_LIMIT', Message: '黑名单管控' },
    '13800000010': { status: 200, Code: 'isv.SMS_CONTENT_ILLEGAL', Message: '短信内容包含禁止发送内容' },
    '13800000011': { status: 200, Code: 'isv.ACCOUNT_ABNORMAL', Message: '账户异常' },
    '13800000012': { status: 403, Code: 'isp.RAM_PERMISSION_DENY', Message: 'RAM权限DENY' },
    '13800000013': { status: 200, Code: 'isv.MOBILE_COUNT_OVER_LIMIT', Message: '手机号码数量超过限制' },
    '13800000014': { status: 500, Code: 'isp.SYSTEM_ERROR', Message: 'A system error occurred.' },
  };

  beforeAll(async () => {
    aliyun = await serve((req, body, res) => {
      const error = (status: number, Code: string, Message: string) =>
        json(res, status, { RequestId: REQUEST_ID, HostId: 'dysmsapi.aliyuncs.com', Code, Message });
      if (req.url !== '/' || req.method !== 'POST') {
        error(404, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');
        return;
      }
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        error(
          400,
          'MissingParameter',
          'The input parameter "Action" that is mandatory for processing this request is not supplied.',
        );
        return;
      }
      // Read the body with plain percent-decoding: a "+" the client meant as a space stays a "+", and the
      // signature recomputed below no longer matches.
      const params: Record<string, string> = {};
      for (const pair of body.split('&')) {
        const at = pair.indexOf('=');
        params[decodeURIComponent(pair.slice(0, at))] = decodeURIComponent(pair.slice(at + 1));
      }
      seen.push({ headers: req.headers, params });
      const expectedNames = [
        'AccessKeyId',
        'Action',
        'Format',
        'PhoneNumbers',
        'RegionId',
        'SignName',
        'Signature',
        'SignatureMethod',
        'SignatureNonce',
        'SignatureVersion',
        'TemplateCode',
        'TemplateParam',
        'Timestamp',
        'Version',
      ];
      const names = Object.keys(params).sort();
      if (names.join(',') !== expectedNames.join(',')) {
        error(400, 'MissingParameter', `Parameters ${names.join(',')} are not SendSms's`);
        return;
      }
      const fixed = {
        Action: 'SendSms',
        Format: 'JSON',
        RegionId: 'cn-hangzhou',
        SignatureMethod: 'HMAC-SHA1',
        SignatureVersion: '1.0',
        Version: '2017-05-25',
      };
      for (const [name, value] of Object.entries(fixed)) {
        if (params[name] !== value) {
          error(400, 'InvalidParameter', `The specified parameter "${name}" is not valid.`);
          return;
        }
      }
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(params.Timestamp!)) {
        error(400, 'InvalidTimeStamp.Format', 'Specified time stamp or date value is not well formatted.');
        return;
      }
      if (params.AccessKeyId !== KEY_ID) {
        error(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
        return;
      }
      const stringToSign = documentedStringToSign('POST', params);
      if (params.Signature !== documentedSignature('POST', params, SECRET)) {
        error(
          400,
          'SignatureDoesNotMatch',
          `Specified signature is not matched with our calculation. server string to sign is:${stringToSign}`,
        );
        return;
      }
      const variables = JSON.parse(params.TemplateParam!) as Record<string, string>;
      if (params.TemplateCode === CODE_TEMPLATE && !/^\d{4,6}$/.test(variables.code ?? '')) {
        error(200, 'isv.TEMPLATE_MISSING_PARAMETERS', '模板变量缺少对应参数值');
        return;
      }
      if (params.TemplateCode === NOTICE_TEMPLATE) {
        const length = Array.from(variables.content ?? '').length;
        if (length < 1 || length > 35) {
          error(200, 'isv.PARAM_LENGTH_LIMIT', '参数超出长度限制');
          return;
        }
      }
      const answer = answers[params.PhoneNumbers!];
      if (answer) {
        error(answer.status, answer.Code, answer.Message);
        return;
      }
      if (params.PhoneNumbers === '13800000015') {
        res
          .writeHead(503, { 'content-type': 'text/html' })
          .end('<html><body>503 Service Temporarily Unavailable</body></html>');
        return;
      }
      json(res, 200, { Code: 'OK', Message: 'OK', BizId: '9006197469364984400', RequestId: REQUEST_ID });
    });
  });
  afterAll(async () => close(aliyun.server));

  const provider = (extra: Partial<Parameters<typeof createAliyunProvider>[0]> = {}) =>
    createAliyunProvider({
      accessKeyId: KEY_ID,
      accessKeySecret: SECRET,
      signName: '发电机组云平台',
      codeTemplate: CODE_TEMPLATE,
      noticeTemplate: NOTICE_TEMPLATE,
      endpoint: aliyun.url,
      now: () => new Date('2026-11-29T08:30:05.123Z'),
      nonce: () => '3f1b2c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
      ...extra,
    });

  it('sends a code through the code template, signed as documented, to the 11 mainland digits', async () => {
    const accepted = await provider().send(
      sms('+8613800000001', 'Your code is 482913', { purpose: 'login', code: '482913', language: 'zh-CN' }),
    );
    expect(accepted).toEqual({ id: '9006197469364984400', status: 'OK' });
    const last = seen.at(-1)!;
    const unsigned = {
      AccessKeyId: KEY_ID,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: '13800000001',
      RegionId: 'cn-hangzhou',
      SignName: '发电机组云平台',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3f1b2c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
      SignatureVersion: '1.0',
      TemplateCode: CODE_TEMPLATE,
      TemplateParam: '{"code":"482913"}',
      Timestamp: '2026-11-29T08:30:05Z',
      Version: '2017-05-25',
    };
    expect(last.params).toEqual({ ...unsigned, Signature: documentedSignature('POST', unsigned, SECRET) });
    expect(last.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('sends other text through the notice template, cut to the 35 characters its variable takes', async () => {
    // The 35th character is outside the BMP: a cut by UTF-16 units would leave half of it.
    const text = '1号机组告警：燃油液位低于百分之十五，请尽快加油并检查油路避免停机。🔧 站点：滨江数据中心';
    const accepted = await provider().send(sms('0086 138-0000-0001', text, { language: 'zh-CN' }));
    expect(accepted).toEqual({ id: '9006197469364984400', status: 'OK' });
    const params = seen.at(-1)!.params;
    expect(params.PhoneNumbers).toBe('13800000001');
    expect(params.TemplateCode).toBe(NOTICE_TEMPLATE);
    expect(JSON.parse(params.TemplateParam!)).toEqual({
      content: '1号机组告警：燃油液位低于百分之十五，请尽快加油并检查油路避免停机。🔧',
    });
  });

  it('a number outside mainland China goes as country code and number, without + or 00', async () => {
    await provider().send(sms('+852 6123 4567', 'Genset 3 started', { code: '5521' }));
    expect(seen.at(-1)!.params.PhoneNumbers).toBe('85261234567');
    await provider().send(sms('0044 7700 900123', 'Genset 3 started', { code: '5521' }));
    expect(seen.at(-1)!.params.PhoneNumbers).toBe('447700900123');
  });

  it('without a notice template free text is refused as blocked content, and nothing is sent', async () => {
    const before = seen.length;
    const failure = await failureOf(provider({ noticeTemplate: undefined }).send(sms('13800000001', 'Genset 3')));
    expect(failure).toEqual({
      kind: 'blocked-content',
      permanent: true,
      providerCode: undefined,
      status: undefined,
      message: 'Alibaba Cloud sends only approved templates, and no notice template (with ${content}) is configured',
    });
    expect(seen.length).toBe(before);
  });

  it('a request signed with another secret meets SignatureDoesNotMatch: unauthorized', async () => {
    const failure = await failureOf(provider({ accessKeySecret: 'not-the-secret' }).send(sms('13800000001', 'x')));
    expect([failure.kind, failure.permanent, failure.providerCode, failure.status]).toEqual([
      'unauthorized',
      true,
      'SignatureDoesNotMatch',
      400,
    ]);
    expect(failure.message.startsWith('Alibaba Cloud: Specified signature is not matched with our calculation.')).toBe(
      true,
    );
  });

  it('an unknown AccessKey ID is unauthorized', async () => {
    const failure = await failureOf(provider({ accessKeyId: 'LTAI5tNoSuchKey' }).send(sms('13800000001', 'x')));
    expect(failure).toEqual({
      kind: 'unauthorized',
      permanent: true,
      providerCode: 'InvalidAccessKeyId.NotFound',
      status: 404,
      message: 'Alibaba Cloud: Specified access key is not found. (InvalidAccessKeyId.NotFound)',
    });
  });

  it('sorts SendSms’s documented error codes', async () => {
    const expected: Record<string, [FailureKind, boolean]> = {
      '13800000002': ['invalid-recipient', true],
      '13800000013': ['invalid-recipient', true],
      '13800000003': ['quota', true],
      '13800000004': ['quota', true],
      '13800000005': ['quota', true],
      '13800000006': ['quota', true],
      '13800000007': ['blocked-content', true],
      '13800000008': ['blocked-content', true],
      '13800000009': ['blocked-content', true],
      '13800000010': ['blocked-content', true],
      '13800000011': ['unauthorized', true],
      '13800000012': ['unauthorized', true],
      '13800000014': ['unavailable', false],
    };
    for (const [to, [kind, permanent]] of Object.entries(expected)) {
      const answer = answers[to]!;
      const failure = await failureOf(provider().send(sms(to, 'x', { code: '1234' })));
      expect({ to, ...failure }).toEqual({
        to,
        kind,
        permanent,
        providerCode: answer.Code,
        status: answer.status,
        message: `Alibaba Cloud: ${answer.Message} (${answer.Code})`,
      });
    }
  });

  it('a code the template does not take is blocked content (isv.TEMPLATE_MISSING_PARAMETERS)', async () => {
    const failure = await failureOf(provider().send(sms('13800000001', 'x', { code: '12' })));
    expect([failure.kind, failure.permanent, failure.providerCode, failure.status]).toEqual([
      'blocked-content',
      true,
      'isv.TEMPLATE_MISSING_PARAMETERS',
      200,
    ]);
  });

  it('a 503, a closed port and a silent server are unavailable and worth another try', async () => {
    const down = await failureOf(provider().send(sms('13800000015', 'x', { code: '1234' })));
    expect(down).toEqual({
      kind: 'unavailable',
      permanent: false,
      providerCode: undefined,
      status: 503,
      message: 'Alibaba Cloud: HTTP 503',
    });
    const closedUrl = await closedPortUrl();
    const closed = await failureOf(provider({ endpoint: closedUrl }).send(sms('13800000001', 'x')));
    expect([closed.kind, closed.permanent, closed.status]).toEqual(['unavailable', false, undefined]);
    expect(closed.message).toBe(
      `Alibaba Cloud could not be reached: ECONNREFUSED (connect ECONNREFUSED ${new URL(closedUrl).host})`,
    );
    const slow = await failureOf(provider({ endpoint: silent.url, timeoutMs: 300 }).send(sms('13800000001', 'x')));
    expect(slow).toEqual({
      kind: 'unavailable',
      permanent: false,
      providerCode: undefined,
      status: undefined,
      message: 'Alibaba Cloud did not answer within 300 ms',
    });
  });

  it('a caller that gives up aborts the request with its own reason, not a provider failure', async () => {
    const controller = new AbortController();
    const sending = provider({ endpoint: silent.url }).send(sms('13800000001', 'x'), controller.signal);
    const reason = new Error('the alarm was cleared');
    setTimeout(() => controller.abort(reason), 50);
    await expect(sending).rejects.toBe(reason);
  });
});
