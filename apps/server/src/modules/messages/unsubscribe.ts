// One-click unsubscribe from notice e-mail: the token in the mail's List-Unsubscribe address names the person (an
// HMAC of their id), and using it turns their notice e-mail off — the message centre and the other channels
// stay as they were, and the person can turn e-mail on again in their message settings.
import type { Language, MessageSettings } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import { DEFAULT_MESSAGE_SETTINGS } from '../auth/defaults.ts';
import { escapeHtml } from './mail/templates.ts';
import { verifyUnsubscribeToken } from './mail/unsubscribe.ts';

export function createUnsubscribe(opts: { db: Db; signSecret: string }) {
  const { db } = opts;
  return {
    /** Turns the person's notice e-mail off; false when the token is not one of ours. */
    async apply(token: string): Promise<boolean> {
      const userId = verifyUnsubscribeToken(opts.signSecret, token);
      if (userId === null) return false;
      const user = await db
        .selectFrom('users')
        .select(['id', 'message_settings'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) return false;
      const settings: MessageSettings = {
        ...DEFAULT_MESSAGE_SETTINGS,
        ...(JSON.parse(user.message_settings) as Partial<MessageSettings>),
        alarmEmail: false,
      };
      await db
        .updateTable('users')
        .set({ message_settings: JSON.stringify(settings) })
        .where('id', '=', user.id)
        .execute();
      return true;
    },

    /** The page: a question with a button (GET), or what happened (after the POST). */
    async page(token: string, lang: Language, done: boolean): Promise<string> {
      const valid = verifyUnsubscribeToken(opts.signSecret, token) !== null;
      const t = (key: string) => escapeHtml(translate(lang, key));
      const body = !valid
        ? `<p>${t('messages.unsubscribe.invalid')}</p>`
        : done
          ? `<p>${t('messages.unsubscribe.done')}</p>`
          : `<p>${t('messages.unsubscribe.ask')}</p><form method="post"><button type="submit">${t(
              'messages.unsubscribe.confirm',
            )}</button></form>`;
      return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t(
        'messages.unsubscribe.title',
      )}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f1f1f}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1677ff;background:#1677ff;color:#fff;cursor:pointer}</style></head><body><h1>${t(
        'messages.unsubscribe.title',
      )}</h1>${body}</body></html>`;
    },
  };
}
export type Unsubscribe = ReturnType<typeof createUnsubscribe>;
