// The test message an administrator sends from the company's settings to see a channel work end to end: an SMS
// to a number, an e-mail to an address, a push to their own devices, in their language and with their company's
// name. It goes through the same limits, providers and log as every other message.
import type { Language, MessageChannelName, MessageTestResponse } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import type { MessageLogRepository } from './repository.ts';
import type { MessageService } from './service.ts';

export interface MessageTestsOptions {
  db: Db;
  messages: MessageService;
  log: MessageLogRepository;
  /** Sends a test push to each of the person's devices; answers how many there were (each is logged). */
  pushTest?: (userId: number, companyId: number, title: string, body: string) => Promise<number>;
}

export function createMessageTests(opts: MessageTestsOptions) {
  const { db, messages, log } = opts;
  return {
    async send(req: {
      channel: MessageChannelName;
      to: string;
      language: Language;
      companyId: number;
      userId: number;
    }): Promise<MessageTestResponse> {
      const company = await db
        .selectFrom('company')
        .select(['name', 'title'])
        .where('id', '=', req.companyId)
        .executeTakeFirst();
      const name = company?.title || company?.name || '';
      const subject = translate(req.language, 'messages.test.subject', { company: name });
      const text = translate(req.language, 'messages.test.text', { company: name });
      if (req.channel === 'push') {
        const devices = opts.pushTest ? await opts.pushTest(req.userId, req.companyId, subject, text) : 0;
        return { item: null, devices };
      }
      const { id } = await messages.deliver({
        channel: req.channel,
        to: req.to,
        purpose: 'test',
        subject,
        text,
        language: req.language,
        companyId: req.companyId,
        userId: req.userId,
      });
      return { item: await log.one(id), devices: 0 };
    },
  };
}
export type MessageTests = ReturnType<typeof createMessageTests>;
