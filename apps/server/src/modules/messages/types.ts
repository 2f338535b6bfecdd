// What every way of reaching a person shares: the failures a provider reports, sorted into the few a person can act
// on, and the record each message leaves in the company's delivery log.

/** The channels a message goes out on. */
export type MessageChannel = 'sms' | 'email' | 'push';

/**
 * Why a provider did not take a message:
 * - `invalid-recipient`: the number, address or device is wrong or gone (a push subscription that expired);
 * - `quota`: the account's balance, daily limit or a per-number limit of the provider is used up;
 * - `blocked-content`: the text, template or signature name is refused (not approved, filtered);
 * - `unauthorized`: the account's keys are wrong or lack the right;
 * - `unavailable`: the provider is down, slow or answered with a server error (worth trying again or elsewhere);
 * - `rejected`: anything else the provider refused.
 */
export type FailureKind =
  'invalid-recipient' | 'quota' | 'blocked-content' | 'unauthorized' | 'unavailable' | 'rejected';

/** A provider's refusal, sorted; `permanent` ones are not tried again (nor at another provider). */
export class DeliveryError extends Error {
  readonly kind: FailureKind;
  readonly permanent: boolean;
  /** The provider's own code ("21211", "isv.MOBILE_NUMBER_ILLEGAL"), for the log. */
  readonly providerCode: string | undefined;
  /** The HTTP status the provider answered, if any. */
  readonly status: number | undefined;

  constructor(
    kind: FailureKind,
    message: string,
    opts: { permanent?: boolean; providerCode?: string; status?: number } = {},
  ) {
    super(message);
    this.name = 'DeliveryError';
    this.kind = kind;
    this.permanent = opts.permanent ?? kind !== 'unavailable';
    this.providerCode = opts.providerCode;
    this.status = opts.status;
  }
}

/** What a sending threw, as a DeliveryError: anything unsorted counts as the provider being unavailable. */
export function asDeliveryError(err: unknown): DeliveryError {
  return err instanceof DeliveryError
    ? err
    : new DeliveryError('unavailable', err instanceof Error ? err.message : String(err));
}

/** One SMS as a provider is asked to send it. */
export interface SmsRequest {
  /** E.164 (+8613800000001) or a mainland number without its country code (13800000001). */
  to: string;
  /** The whole text, for providers that send free text (Twilio). */
  text: string;
  /** What the message is for: a one-time code's purpose (login, register, reset, …), `notice`, `lock`, `test`. */
  purpose: string;
  /** A one-time code's digits, for providers that send codes through a template (Alibaba Cloud). */
  code?: string;
  /** The recipient's language (en-US, zh-CN, …). */
  language: string;
}

/** What a provider answers when it took a message. */
export interface SmsAccepted {
  /** The provider's id of the message (Twilio's SID, Alibaba Cloud's BizId). */
  id: string;
  /** The provider's status word on acceptance ("queued", "accepted", "OK"). */
  status: string;
}

/** One SMS provider's HTTP API. Throws DeliveryError when the message was not taken. */
export interface SmsProvider {
  /** `twilio`, `aliyun`: shown in the delivery log. */
  readonly name: string;
  send(request: SmsRequest, signal?: AbortSignal): Promise<SmsAccepted>;
}

/** A recipient as the delivery log shows it: enough to recognise, not enough to use. */
export function maskRecipient(to: string): string {
  const at = to.indexOf('@');
  if (at > 0) {
    const name = to.slice(0, at);
    return `${name.slice(0, Math.min(2, name.length - 1))}***${to.slice(at)}`;
  }
  if (/^\+?\d{6,}$/.test(to)) return `${to.slice(0, Math.min(4, Math.max(0, to.length - 8)))}****${to.slice(-4)}`;
  // a device (push endpoint) or anything else: its last characters
  return `…${to.slice(-6)}`;
}
