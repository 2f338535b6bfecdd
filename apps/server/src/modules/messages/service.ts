// Every message the server sends to a person goes through here: one-time codes, notices, lock warnings and an
// administrator's test messages, by SMS or e-mail. Here each message
// - is held to the per-number limits (so that a loop or an attacker cannot run up a bill or flood a phone),
// - goes to the configured provider, is tried again with back-off when the provider is briefly unavailable and
//   not when it refuses the message for good, and goes to the second provider when the first is down,
// - leaves one row in the delivery log with the provider's answer, whatever happened.
// With no provider configured a message goes to the development outbox (DATA_DIR/outbox and the server log), the
// embedded default, and the log says so.
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { MessageSender, OutgoingMessage } from '../sms/sender.ts';
import {
  asDeliveryError,
  DeliveryError,
  maskRecipient,
  type FailureKind,
  type MessageChannel,
  type SmsProvider,
} from './types.ts';

/** The pauses before the second and third try at one provider: short, since a person is waiting for a code. */
const BACKOFF_MS = [300, 1200];
/** A provider that was unavailable is passed over (its second is asked first) for this long. */
const DOWN_MS = 60_000;

/** What sends e-mail (modules/messages/mail), as the dispatcher uses it. */
export interface MailDelivery {
  /** Sends one message; answers the SMTP server's message id; throws DeliveryError. */
  send(message: OutgoingMessage & { companyId?: number | null }): Promise<{ messageId: string }>;
}

export interface MessageServiceOptions {
  db: Db;
  config: Pick<Config, 'signSecret' | 'sms'>;
  log: FastifyBaseLogger;
  /** The SMS providers in the order they are asked (the first, then the one taken when it is down). */
  sms: SmsProvider[];
  /** E-mail through SMTP; without it e-mail goes to the outbox. */
  mail?: MailDelivery;
  /** The development outbox: where messages go with no provider. */
  outbox: MessageSender;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** How a channel is served on this installation. */
export interface ChannelStatus {
  sms: { provider: string; fallback: string | null; configured: boolean };
  email: { provider: 'smtp' | 'outbox'; configured: boolean };
}

export function createMessageService(opts: MessageServiceOptions) {
  const { db, log } = opts;
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const downUntil = new Map<string, number>();

  /** A keyed hash of the recipient: counts the messages one number received without keeping the number. */
  function recipientKey(channel: string, to: string): string {
    const normal = channel === 'email' ? to.trim().toLowerCase() : to.replace(/[^\d]/g, '').replace(/^(00)?86/, '');
    return createHmac('sha256', opts.config.signSecret).update(`${channel}:${normal}`).digest('hex').slice(0, 40);
  }

  async function open(
    message: Pick<OutgoingMessage, 'to' | 'purpose' | 'companyId' | 'userId'> & { channel: MessageChannel },
    provider: string,
    key: string,
  ): Promise<number> {
    const t = now();
    const row = await db
      .insertInto('message_log')
      .values({
        company_id: message.companyId ?? null,
        user_id: message.userId ?? null,
        channel: message.channel,
        purpose: message.purpose.slice(0, 24),
        recipient: maskRecipient(message.to).slice(0, 80),
        recipient_key: key,
        provider,
        provider_id: null,
        status: 'sending',
        attempts: 0,
        error_kind: null,
        error: null,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function close(
    id: number,
    patch: {
      status: 'sent' | 'failed' | 'throttled';
      provider: string;
      attempts: number;
      providerId?: string | null;
      error?: DeliveryError | null;
    },
  ) {
    await db
      .updateTable('message_log')
      .set({
        status: patch.status,
        provider: patch.provider,
        attempts: patch.attempts,
        provider_id: patch.providerId?.slice(0, 100) ?? null,
        error_kind: patch.error?.kind ?? null,
        error: patch.error
          ? `${patch.error.providerCode ? `${patch.error.providerCode}: ` : ''}${patch.error.message}`.slice(0, 500)
          : null,
        updated_at: now(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Refuses a message past the per-number limits: so many an hour, so many of one kind a minute. */
  async function throttle(message: OutgoingMessage, key: string, id: number): Promise<DeliveryError | null> {
    if (message.channel !== 'sms') return null;
    const t = now();
    const counted = ['sending', 'sent', 'delivered'];
    const [hour, minute] = await Promise.all([
      db
        .selectFrom('message_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('recipient_key', '=', key)
        .where('id', '!=', id)
        .where('created_at', '>', t - 3_600_000)
        .where('status', 'in', counted)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('message_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('recipient_key', '=', key)
        .where('id', '!=', id)
        .where('purpose', '=', message.purpose.slice(0, 24))
        .where('created_at', '>', t - 60_000)
        .where('status', 'in', counted)
        .executeTakeFirstOrThrow(),
    ]);
    const { perNumberHour, perTemplateMinute } = opts.config.sms;
    if (Number(hour.n) >= perNumberHour)
      return new DeliveryError('quota', `more than ${perNumberHour} messages to this number within an hour`, {
        permanent: false,
        providerCode: 'per-number limit',
      });
    if (Number(minute.n) >= perTemplateMinute)
      return new DeliveryError('quota', `more than ${perTemplateMinute} such messages to this number within a minute`, {
        permanent: false,
        providerCode: 'per-template limit',
      });
    return null;
  }

  /** The providers in the order to ask them: one that was down lately goes last. */
  function order(): SmsProvider[] {
    const t = now();
    const up = opts.sms.filter((p) => (downUntil.get(p.name) ?? 0) <= t);
    const down = opts.sms.filter((p) => (downUntil.get(p.name) ?? 0) > t);
    return [...up, ...down];
  }

  async function sendSms(message: OutgoingMessage, id: number): Promise<void> {
    let attempts = 0;
    let last: DeliveryError | undefined;
    let lastProvider = opts.sms[0]!.name;
    for (const provider of order()) {
      lastProvider = provider.name;
      for (let i = 0; i <= BACKOFF_MS.length; i++) {
        attempts++;
        try {
          const accepted = await provider.send({
            to: message.to,
            text: message.text,
            purpose: message.purpose,
            ...(message.code ? { code: message.code } : {}),
            language: message.language ?? 'en-US',
          });
          downUntil.delete(provider.name);
          await close(id, { status: 'sent', provider: provider.name, attempts, providerId: accepted.id });
          return;
        } catch (err) {
          last = asDeliveryError(err);
          log.warn(
            { provider: provider.name, kind: last.kind, code: last.providerCode, attempt: attempts },
            'SMS not taken by its provider',
          );
          // a number no provider can reach ends here; any other refusal (keys, quota, a template this provider
          // lacks) is this provider's, and the second may still take the message
          if (last.kind === 'invalid-recipient') {
            await close(id, { status: 'failed', provider: provider.name, attempts, error: last });
            throw last;
          }
          if (last.permanent) break;
          const pause = BACKOFF_MS[i];
          if (pause === undefined) break;
          await sleep(pause);
        }
      }
      downUntil.set(provider.name, now() + DOWN_MS);
    }
    const error = last ?? new DeliveryError('unavailable', 'no SMS provider answered');
    await close(id, { status: 'failed', provider: lastProvider, attempts, error });
    throw error;
  }

  async function sendEmail(message: OutgoingMessage, id: number, mail: MailDelivery): Promise<void> {
    let attempts = 0;
    for (let i = 0; ; i++) {
      attempts++;
      try {
        const sent = await mail.send(message);
        await close(id, { status: 'sent', provider: 'smtp', attempts, providerId: sent.messageId });
        return;
      } catch (err) {
        const e = asDeliveryError(err);
        const pause = BACKOFF_MS[i];
        if (e.permanent || pause === undefined) {
          await close(id, { status: 'failed', provider: 'smtp', attempts, error: e });
          throw e;
        }
        await sleep(pause);
      }
    }
  }

  /** Sends one message and answers its row in the delivery log, with the failure when it did not go out. */
  async function deliver(message: OutgoingMessage): Promise<{ id: number; error: DeliveryError | null }> {
    const key = recipientKey(message.channel, message.to);
    const viaOutbox = message.channel === 'sms' ? opts.sms.length === 0 : !opts.mail;
    const provider = viaOutbox ? 'outbox' : message.channel === 'sms' ? opts.sms[0]!.name : 'smtp';
    const id = await open(message, provider, key);
    const refused = viaOutbox ? null : await throttle(message, key, id);
    if (refused) {
      await close(id, { status: 'throttled', provider, attempts: 0, error: refused });
      return { id, error: refused };
    }
    try {
      if (viaOutbox) {
        await opts.outbox.send(message);
        await close(id, { status: 'sent', provider, attempts: 1 });
      } else if (message.channel === 'sms') await sendSms(message, id);
      else await sendEmail(message, id, opts.mail!);
      return { id, error: null };
    } catch (err) {
      const error = asDeliveryError(err);
      if (viaOutbox) await close(id, { status: 'failed', provider, attempts: 1, error });
      return { id, error };
    }
  }

  /**
   * Logs a message that another module sends itself (a push to one device): its row is opened, the sending run,
   * and the row closed with the answer. Rethrows what the sending threw.
   */
  async function track<T>(
    message: Pick<OutgoingMessage, 'to' | 'purpose' | 'companyId' | 'userId'> & { channel: MessageChannel },
    provider: string,
    sending: () => Promise<T>,
  ): Promise<T> {
    const id = await open(
      { ...message, text: '' } as OutgoingMessage,
      provider,
      recipientKey(message.channel, message.to),
    );
    try {
      const answer = await sending();
      await close(id, { status: 'sent', provider, attempts: 1 });
      return answer;
    } catch (err) {
      const e = err as Error & { permanent?: boolean; responseStatus?: number };
      const error =
        err instanceof DeliveryError
          ? err
          : new DeliveryError(e.permanent ? 'invalid-recipient' : 'unavailable', e.message, {
              ...(e.responseStatus ? { providerCode: String(e.responseStatus), status: e.responseStatus } : {}),
            });
      await close(id, { status: 'failed', provider, attempts: 1, error });
      throw err;
    }
  }

  const service = {
    deliver,
    track,

    /** Sends one message (MessageSender); throws DeliveryError when it did not go out. */
    async send(message: OutgoingMessage): Promise<void> {
      const { error } = await deliver(message);
      if (error) throw error;
    },

    status(): ChannelStatus {
      return {
        sms: {
          provider: opts.sms[0]?.name ?? 'outbox',
          fallback: opts.sms[1]?.name ?? null,
          configured: opts.sms.length > 0,
        },
        email: { provider: opts.mail ? 'smtp' : 'outbox', configured: !!opts.mail },
      };
    },
  };
  return service;
}
export type MessageService = ReturnType<typeof createMessageService>;

/** The message key a person reads for a failure of this kind. */
export function failureKey(kind: FailureKind): string {
  return `messages.failure.${kind}`;
}
