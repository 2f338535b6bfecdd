// Delivery of verification codes. With no SMS or mail account configured, messages go to the server log
// and to a development outbox file (one JSON object per line) that tests and developers read.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export interface OutgoingMessage {
  channel: 'sms' | 'email';
  to: string;
  purpose: string;
  /** E-mail only: the subject line. */
  subject?: string;
  text: string;
  /** A one-time code's digits: written in the message only (and in the outbox when no provider is configured). */
  code?: string;
  /** The recipient's language (en-US, zh-CN, …): the message's templates and a provider's template choice. */
  language?: string;
  /** Whose message it is, for the company's delivery log and its white-label name and logo. */
  companyId?: number | null;
  userId?: number | null;
  /** A notice's page in the console (a set's alarms), linked from e-mail and push. */
  link?: string;
}

export interface MessageSender {
  send(message: OutgoingMessage): Promise<void>;
}

export function createOutboxSender(dir: string, log: FastifyBaseLogger): MessageSender {
  const file = join(dir, 'messages.jsonl');
  let ready: Promise<unknown> | undefined;
  return {
    async send(message) {
      ready ??= mkdir(dir, { recursive: true });
      await ready;
      // what a message says and to whom (its language and whose it is are the delivery log's)
      const { channel, to, purpose, subject, text, code } = message;
      const line = {
        ts: Date.now(),
        channel,
        to,
        purpose,
        ...(subject ? { subject } : {}),
        text,
        ...(code ? { code } : {}),
      };
      await appendFile(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      log.info(
        { channel: message.channel, to: message.to, purpose: message.purpose },
        `development outbox: ${message.text}`,
      );
    },
  };
}
