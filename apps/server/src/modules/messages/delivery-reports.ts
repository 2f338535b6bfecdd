// What happened to an SMS after its provider took it: Twilio posts each later state of a message to the status
// callback given with it (sent, delivered, undelivered, failed). A report is believed only with Twilio's signature
// (X-Twilio-Signature: base64 HMAC-SHA1, keyed with the account's auth token, of the callback's address followed by
// each posted parameter's name and value in name order), and it moves a logged message forward, never back.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { FailureKind } from './types.ts';

/** The path of Twilio's status callback under the API. */
export const TWILIO_STATUS_PATH = '/messages/status/twilio';

/** Twilio's signature of a request to `url` with these form parameters. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Twilio's delivery error codes (30xxx) sorted as the log reads them. */
function failureOf(errorCode: string | undefined): FailureKind {
  switch (errorCode) {
    case '30003': // unreachable destination handset
    case '30005': // unknown destination handset
    case '30006': // landline or unreachable carrier
      return 'invalid-recipient';
    case '30004': // message blocked (by the recipient or carrier)
    case '30007': // filtered as spam
      return 'blocked-content';
    case '30001': // queue overflow
    case '30002': // account suspended
      return 'quota';
    default:
      return 'rejected';
  }
}

export function createDeliveryReports(opts: { db: Db; twilio: { authToken: string; callbackUrl: string } | null }) {
  const { db } = opts;
  return {
    /** Takes one Twilio status report; false when its signature is not Twilio's (nothing changes then). */
    async twilio(signature: string | undefined, params: Record<string, string>): Promise<boolean> {
      if (!opts.twilio || !signature) return false;
      const expected = Buffer.from(twilioSignature(opts.twilio.authToken, opts.twilio.callbackUrl, params));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      const sid = params.MessageSid ?? params.SmsSid;
      const state = params.MessageStatus ?? params.SmsStatus;
      if (!sid || !state) return true;
      const delivered = state === 'delivered';
      const failed = state === 'undelivered' || state === 'failed';
      if (!delivered && !failed) return true;
      await db
        .updateTable('message_log')
        .set({
          status: delivered ? 'delivered' : 'failed',
          error_kind: delivered ? null : failureOf(params.ErrorCode),
          error: delivered ? null : `${params.ErrorCode ?? ''}: ${state}`.slice(0, 500),
          updated_at: Date.now(),
        })
        .where('provider', '=', 'twilio')
        .where('provider_id', '=', sid)
        // forward only: a late "sent" never undoes "delivered", nor a report another already gave
        .where('status', 'in', ['sending', 'sent'])
        .execute();
      return true;
    },
  };
}
export type DeliveryReports = ReturnType<typeof createDeliveryReports>;
