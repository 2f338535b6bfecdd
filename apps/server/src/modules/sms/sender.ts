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
  /** Only for the development outbox: a real provider never writes the code anywhere but the message. */
  code?: string;
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
      await appendFile(file, `${JSON.stringify({ ts: Date.now(), ...message })}\n`, { mode: 0o600 });
      log.info(
        { channel: message.channel, to: message.to, purpose: message.purpose },
        `development outbox: ${message.text}`,
      );
    },
  };
}
