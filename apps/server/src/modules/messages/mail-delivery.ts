// E-mail as the dispatcher sends it: a one-time code, a lock warning, a notice or a test message becomes the mail
// of its kind (modules/messages/mail), in the recipient's language, under the company's name and logo
// (white-label; the product's name for people not in a company yet), and a notice carries a one-click unsubscribe.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { API_BASE, pickLanguage } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { OutgoingMessage } from '../sms/sender.ts';
import type { Mailer, MailBrand } from './mail/mailer.ts';
import { isCodeMailPurpose } from './mail/templates.ts';
import { unsubscribeToken } from './mail/unsubscribe.ts';
import type { MailDelivery } from './service.ts';

/** The address of the one-click unsubscribe (POST, RFC 8058) and of its page (GET). */
export const UNSUBSCRIBE_PATH = `${API_BASE}/messages/unsubscribe`;

export interface MailDeliveryOptions {
  db: Db;
  mailer: Mailer;
  signSecret: string;
  publicUrl: string;
  uploadsDir: string;
  /** How long a one-time code and a sign-in lock last, in minutes (the texts name them). */
  codeMinutes: number;
  lockMinutes: number;
}

export function createMailDelivery(opts: MailDeliveryOptions): MailDelivery {
  const { db, mailer } = opts;

  async function brandOf(companyId: number | null | undefined): Promise<MailBrand> {
    if (!companyId) return { name: '' };
    const company = await db
      .selectFrom('company')
      .select(['name', 'title', 'logo'])
      .where('id', '=', companyId)
      .executeTakeFirst();
    if (!company) return { name: '' };
    const name = company.title || company.name;
    // a logo kept by the company's upload (png or jpg: SVG does not show in most mail readers)
    const m = /^\/uploads\/logos\/([0-9a-f]{32}\.(png|jpg))$/.exec(company.logo ?? '');
    if (!m) return { name };
    try {
      const data = await readFile(join(opts.uploadsDir, 'logos', basename(m[1]!)));
      return { name, logo: { contentType: m[2] === 'png' ? 'image/png' : 'image/jpeg', data } };
    } catch {
      return { name };
    }
  }

  return {
    async send(message: OutgoingMessage) {
      const language = pickLanguage(message.language);
      const brand = await brandOf(message.companyId);
      const base = { to: message.to, language, brand };
      if (message.purpose === 'test') return mailer.sendTest(base);
      // registering an address that has an account already: no code, the mail says so
      const purpose = message.purpose === 'register' && !message.code ? 'accountExists' : message.purpose;
      if (isCodeMailPurpose(purpose)) {
        return mailer.sendCode({
          ...base,
          purpose,
          ...(message.code ? { code: message.code } : {}),
          minutes: purpose === 'accountLocked' ? opts.lockMinutes : opts.codeMinutes,
        });
      }
      return mailer.sendNotice({
        ...base,
        subject: message.subject ?? message.text.split('\n')[0] ?? '',
        lines: message.text.split('\n'),
        ...(message.link ? { link: message.link } : {}),
        ...(message.userId
          ? {
              unsubscribeUrl: `${opts.publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(
                unsubscribeToken(opts.signSecret, message.userId),
              )}`,
            }
          : {}),
      });
    },
  };
}
