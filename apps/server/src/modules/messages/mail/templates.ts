// The e-mail the server sends, as subject, plain text and HTML, in the recipient's language and under the company's
// name (white-label). The HTML loads nothing from elsewhere: no remote images, fonts or tracking pixels; the only
// picture is the company's logo, carried in the message itself.
import type { Language } from '@genset/protocol';
import { translate } from '../../../i18n/messages.ts';

/** The name mail goes out under when the company has none of its own. */
export const PRODUCT_NAME = 'Genset Cloud';

/** One-time code purposes: what the code lets the person do. */
export const CODE_PURPOSES = ['login', 'register', 'reset', 'bind'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** What a "code" mail can be: a code, or one of the account warnings sent through the same path. */
export type CodeMailPurpose = CodePurpose | 'accountExists' | 'accountLocked';

export const isCodeMailPurpose = (purpose: string): purpose is CodeMailPurpose =>
  (CODE_PURPOSES as readonly string[]).includes(purpose) || purpose === 'accountExists' || purpose === 'accountLocked';

/** A message ready for the transport. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** How the frame of every message shows the company. */
export interface Frame {
  language: Language;
  brand: string;
  /** `cid:` address of the inlined logo, when there is one. */
  logoSrc?: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Only web addresses become links: a `javascript:` or `data:` address in a notice must not be clickable. */
export function safeLink(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** The body of a message, as blocks the text and HTML forms both render. */
type Block =
  { kind: 'p'; text: string } | { kind: 'code'; code: string } | { kind: 'link'; label: string; url: string };

interface Footer {
  unsubscribeUrl?: string;
}

function render(frame: Frame, subject: string, blocks: Block[], footer: Footer = {}): RenderedMail {
  const t = (key: string, params: Record<string, string | number> = {}) =>
    translate(frame.language, key, { brand: frame.brand, ...params });
  const automatic = t('mail.footer.automatic');

  const textBlocks = blocks.map((b) =>
    b.kind === 'p' ? b.text : b.kind === 'code' ? `    ${b.code}` : `${b.label}: ${b.url}`,
  );
  const textFooter = [automatic];
  if (footer.unsubscribeUrl) textFooter.push(t('mail.footer.unsubscribeText', { url: footer.unsubscribeUrl }));
  const text = `${[t('mail.greeting'), ...textBlocks].join('\n\n')}\n\n-- \n${textFooter.join('\n')}\n`;

  const font = 'font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif';
  const htmlBlocks = blocks.map((b) => {
    if (b.kind === 'p') return `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(b.text)}</p>`;
    if (b.kind === 'code') {
      return (
        '<p style="margin:0 0 16px"><span style="display:inline-block;padding:12px 20px;border-radius:6px;' +
        'background:#f1f4f8;font-family:Consolas,Menlo,monospace;font-size:28px;font-weight:bold;letter-spacing:6px">' +
        `${escapeHtml(b.code)}</span></p>`
      );
    }
    return (
      `<p style="margin:0 0 16px"><a href="${escapeHtml(b.url)}" style="display:inline-block;padding:10px 18px;` +
      `border-radius:6px;background:#1f6feb;color:#ffffff;text-decoration:none">${escapeHtml(b.label)}</a></p>`
    );
  });
  const head = frame.logoSrc
    ? `<img src="${escapeHtml(frame.logoSrc)}" alt="${escapeHtml(frame.brand)}" style="max-height:48px;max-width:240px;border:0">`
    : `<strong style="font-size:18px">${escapeHtml(frame.brand)}</strong>`;
  const unsubscribe = footer.unsubscribeUrl
    ? `<br><a href="${escapeHtml(footer.unsubscribeUrl)}" style="color:#57606a">${escapeHtml(t('mail.footer.unsubscribe'))}</a>`
    : '';
  const html =
    `<!DOCTYPE html><html lang="${frame.language}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f6f8fa;color:#1f2328;${font}">` +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f6f8fa"><tr><td align="center" style="padding:24px 12px">' +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #d0d7de;border-radius:8px">' +
    `<tr><td style="padding:20px 24px;border-bottom:1px solid #d0d7de">${head}</td></tr>` +
    `<tr><td style="padding:24px;font-size:15px"><p style="margin:0 0 16px">${escapeHtml(t('mail.greeting'))}</p>${htmlBlocks.join('')}</td></tr>` +
    `<tr><td style="padding:16px 24px;border-top:1px solid #d0d7de;font-size:12px;color:#57606a">${escapeHtml(automatic)}${unsubscribe}</td></tr>` +
    '</table></td></tr></table></body></html>';
  return { subject, text, html };
}

/** A one-time code, or the "account exists" / "account locked" warning that replaces it. */
export function renderCodeMail(
  frame: Frame,
  input: { purpose: CodeMailPurpose; code?: string; minutes?: number },
): RenderedMail {
  const t = (key: string, params: Record<string, string | number> = {}) =>
    translate(frame.language, key, { brand: frame.brand, ...params });
  if (input.purpose === 'accountExists') {
    return render(frame, t('mail.accountExists.subject'), [{ kind: 'p', text: t('mail.accountExists.body') }]);
  }
  if (input.purpose === 'accountLocked') {
    if (input.minutes === undefined) throw new TypeError('an account lock notice needs its minutes');
    // the same words as the SMS of a lock, so that both channels tell the owner the same thing
    return render(frame, t('sms.accountLockedSubject'), [
      { kind: 'p', text: t('sms.accountLocked', { minutes: input.minutes }) },
    ]);
  }
  if (!input.code || input.minutes === undefined)
    throw new TypeError(`a ${input.purpose} code mail needs its code and minutes`);
  return render(frame, t(`mail.code.${input.purpose}.subject`), [
    { kind: 'p', text: t(`mail.code.${input.purpose}.intro`) },
    { kind: 'code', code: input.code },
    { kind: 'p', text: t('mail.code.validity', { minutes: input.minutes }) },
    { kind: 'p', text: t('mail.code.notYou') },
  ]);
}

/** A notification (an alarm, a set offline, …): its own subject and lines, a link to the console, a way out. */
export function renderNoticeMail(
  frame: Frame,
  input: { subject: string; lines: string[]; link?: string; unsubscribeUrl?: string },
): RenderedMail {
  const blocks: Block[] = input.lines.map((text) => ({ kind: 'p', text }));
  if (input.link) blocks.push({ kind: 'link', label: translate(frame.language, 'mail.notice.open'), url: input.link });
  return render(frame, input.subject, blocks, input.unsubscribeUrl ? { unsubscribeUrl: input.unsubscribeUrl } : {});
}

/** The message an administrator sends from the company's settings to see that mail arrives. */
export function renderTestMail(frame: Frame): RenderedMail {
  const t = (key: string) => translate(frame.language, key, { brand: frame.brand });
  return render(frame, t('mail.test.subject'), [{ kind: 'p', text: t('mail.test.body') }]);
}
