// Twilio's Programmable Messaging API (Messages resource, API version 2010-04-01): one form-encoded POST per SMS,
// HTTP Basic authentication with the account's SID and auth token, and Twilio's numbered errors sorted into the
// failures a person can act on.
import { DeliveryError, type FailureKind, type SmsAccepted, type SmsProvider, type SmsRequest } from '../types.ts';
import { DEFAULT_SMS_TIMEOUT_MS, postToProvider, textField } from './http.ts';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or alphanumeric sender; needed unless a Messaging Service is given. */
  from?: string;
  /** A Messaging Service picks the sender from its pool; used instead of `from` when both are set. */
  messagingServiceSid?: string;
  /** Default https://api.twilio.com. */
  baseUrl?: string;
  /** Where Twilio reports the message's later states (sent, delivered, failed). */
  statusCallback?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface Sorted {
  kind: FailureKind;
  permanent?: boolean;
}

// Twilio's error dictionary (https://www.twilio.com/docs/api/errors), for the codes the Messages resource answers.
const TWILIO_CODES: Record<string, Sorted> = {
  // The 'To' number is not a valid phone number.
  '21211': { kind: 'invalid-recipient' },
  // Invalid phone number.
  '21401': { kind: 'invalid-recipient' },
  // The recipient replied STOP to this sender: the number is gone for us until they opt in again.
  '21610': { kind: 'invalid-recipient' },
  // The 'To' number is not a valid mobile number (a landline cannot take an SMS).
  '21614': { kind: 'invalid-recipient' },
  // The account has no permission to send to the region of the 'To' number.
  '21408': { kind: 'rejected' },
  // Twilio cannot route this message from this sender to this number.
  '21612': { kind: 'rejected' },
  // The sending number has more than its queue holds (ten hours of messages at its rate).
  '21611': { kind: 'quota' },
  // The message body is missing or longer than the 1,600 characters Twilio sends.
  '21602': { kind: 'blocked-content' },
  '21617': { kind: 'blocked-content' },
  // The carrier filtered the message as spam or unwanted content.
  '30007': { kind: 'blocked-content' },
  // The account SID or auth token is wrong; the account is suspended or closed.
  '20003': { kind: 'unauthorized' },
  '20005': { kind: 'unauthorized' },
  // Twilio's own rate and concurrency limits: a moment later the same message goes through.
  '20429': { kind: 'unavailable', permanent: false },
  // Twilio's internal error and service unavailable.
  '20500': { kind: 'unavailable', permanent: false },
  '20503': { kind: 'unavailable', permanent: false },
};

/** Twilio wants E.164; a mainland Chinese mobile number written without its country code gets +86. */
export function toE164(to: string): string {
  const compact = to.replace(/[\s\-().]/g, '');
  if (/^\+[1-9]\d{6,14}$/.test(compact)) return compact;
  if (/^00[1-9]\d{6,14}$/.test(compact)) return `+${compact.slice(2)}`;
  if (/^1[3-9]\d{9}$/.test(compact)) return `+86${compact}`;
  throw new DeliveryError('invalid-recipient', `${to} is neither an E.164 number nor a mainland mobile number`);
}

export function createTwilioProvider(opts: TwilioOptions): SmsProvider {
  if (!opts.from && !opts.messagingServiceSid) {
    throw new Error('Twilio needs a sending number (from) or a Messaging Service SID');
  }
  const baseUrl = (opts.baseUrl ?? 'https://api.twilio.com').replace(/\/+$/, '');
  const url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;

  return {
    name: 'twilio',
    async send(request: SmsRequest, signal?: AbortSignal): Promise<SmsAccepted> {
      const form = new URLSearchParams({ To: toE164(request.to), Body: request.text });
      if (opts.messagingServiceSid) form.set('MessagingServiceSid', opts.messagingServiceSid);
      else if (opts.from) form.set('From', opts.from);
      if (opts.statusCallback) form.set('StatusCallback', opts.statusCallback);

      const answer = await postToProvider('Twilio', url, {
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        timeoutMs: opts.timeoutMs ?? DEFAULT_SMS_TIMEOUT_MS,
        signal,
        fetch: opts.fetch,
      });

      const sid = textField(answer.json, 'sid');
      if (answer.status >= 200 && answer.status < 300 && sid) {
        return { id: sid, status: textField(answer.json, 'status') ?? 'queued' };
      }
      throw twilioFailure(answer.status, answer.json);
    },
  };
}

/** Sorts Twilio's error answer by its code, then, for codes it does not know, by the HTTP status. */
function twilioFailure(status: number, json: Record<string, unknown> | undefined): DeliveryError {
  const code = textField(json, 'code');
  const message = textField(json, 'message') ?? `HTTP ${status}`;
  const text = `Twilio: ${message}${code ? ` (${code})` : ''}`;
  const known = code ? TWILIO_CODES[code] : undefined;
  const sorted: Sorted = known ?? byStatus(status, json);
  return new DeliveryError(sorted.kind, text, {
    ...(sorted.permanent === undefined ? {} : { permanent: sorted.permanent }),
    ...(code ? { providerCode: code } : {}),
    status,
  });
}

function byStatus(status: number, json: Record<string, unknown> | undefined): Sorted {
  if (status === 401 || status === 403) return { kind: 'unauthorized' };
  if (status === 429) return { kind: 'unavailable', permanent: false };
  if (status >= 500) return { kind: 'unavailable', permanent: false };
  // A 2xx without a message SID, or an answer that is not Twilio's JSON, came from something in between.
  if (!json || (status >= 200 && status < 300)) return { kind: 'unavailable', permanent: false };
  return { kind: 'rejected' };
}
