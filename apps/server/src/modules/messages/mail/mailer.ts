// E-mail through an SMTP relay: one-time codes, notices and the company's test message, each as plain text and HTML
// under the company's name, DKIM-signed when a key is configured. What the relay refuses comes back as a
// DeliveryError sorted into what a person can act on.
import { randomUUID } from 'node:crypto';
import nodemailer, {
  type Attachment,
  type NodemailerError,
  type SendMailOptions,
  type SMTPTransportOptions,
} from 'nodemailer';
import { LOGO_BYTES_MAX, pickLanguage, type Language } from '@genset/protocol';
import { DeliveryError } from '../types.ts';
import {
  PRODUCT_NAME,
  renderCodeMail,
  renderNoticeMail,
  renderTestMail,
  safeLink,
  type CodeMailPurpose,
  type Frame,
  type RenderedMail,
} from './templates.ts';

export interface MailLogo {
  contentType: string;
  data: Buffer;
}

/** Who the mail comes from, as the recipient sees it: a company (white-label) or the product. */
export interface MailBrand {
  name: string;
  /** Bytes, or a `data:` URL as a company's logo may be stored; a logo given otherwise is left out. */
  logo?: MailLogo | string | null;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:587`, `smtps://…:465`. */
  smtpUrl: string;
  /** The envelope and header sender, `Name <address>` or a bare address; the display name becomes the brand's. */
  from: string;
  /** The console's public address: relative notice links are resolved against it, and it is the code's origin. */
  publicUrl?: string;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /** Transport options over those of the URL (tests: `ignoreTLS`, timeouts). */
  transport?: SMTPTransportOptions;
}

interface Recipient {
  to: string;
  /** A language tag; anything the console does not speak falls back as the console's own choice does. */
  language: Language | string;
  brand: MailBrand;
}

export interface CodeMailInput extends Recipient {
  purpose: CodeMailPurpose;
  /** Required for a code purpose (login, register, reset, bind). */
  code?: string;
  /** How long the code is valid, or the account stays locked. */
  minutes?: number;
}

export interface NoticeMailInput extends Recipient {
  subject: string;
  lines: string[];
  /** An http(s) address, or a path on the console's public address. */
  link?: string;
  /** One-click unsubscribe address (POST, RFC 8058); also shown in the footer. */
  unsubscribeUrl?: string;
}

export type TestMailInput = Recipient;

export interface SentMail {
  messageId: string;
}

export interface Mailer {
  sendCode(input: CodeMailInput, signal?: AbortSignal): Promise<SentMail>;
  sendNotice(input: NoticeMailInput, signal?: AbortSignal): Promise<SentMail>;
  sendTest(input: TestMailInput, signal?: AbortSignal): Promise<SentMail>;
  /** Closes the transport's connections. */
  close(): void;
}

// Pictures every common mail client shows inline. SVG is not among them (Gmail and Outlook drop it), so a company
// whose logo is an SVG gets its name in the header instead of an empty box.
const INLINE_LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif']);

function logoBytes(logo: MailBrand['logo']): MailLogo | null {
  if (!logo) return null;
  const found = typeof logo === 'string' ? fromDataUrl(logo) : logo;
  if (!found) return null;
  const contentType = found.contentType.toLowerCase();
  if (!INLINE_LOGO_TYPES.has(contentType) || found.data.length === 0 || found.data.length > LOGO_BYTES_MAX) {
    return null;
  }
  return { contentType, data: found.data };
}

function fromDataUrl(url: string): MailLogo | null {
  const match = /^data:([\w.+-]+\/[\w.+-]+)((?:;[\w-]+=[^;,]*)*)(;base64)?,(.*)$/is.exec(url);
  if (!match) return null;
  const [, contentType = '', , base64, payload = ''] = match;
  try {
    return {
      contentType,
      data: base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'latin1'),
    };
  } catch {
    // a malformed percent-escape: no logo rather than no mail
    return null;
  }
}

/** The company's name as a display name: no control or direction-changing characters, a sane length. */
function brandName(brand: MailBrand): string {
  const name = brand.name
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return name || PRODUCT_NAME;
}

/** The origin a one-time code is bound to (the OTP-Token header), when the public address can be one. */
function codeOrigin(publicUrl: string | undefined): string | undefined {
  if (!publicUrl) return undefined;
  try {
    const url = new URL(publicUrl);
    const loopback = /^(localhost|.+\.localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname);
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopback) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const CONNECTION_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPROXY',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // the caller gave up waiting (its own deadline): the relay may be slow, another try may go through
  'EABORT',
]);

function isNodemailerError(err: unknown): err is NodemailerError {
  return err instanceof Error;
}

/**
 * Sorts what nodemailer reports into the failures of ../types.ts. The SMTP reply code says most; the enhanced status
 * code (RFC 3463, "5.1.1") and the reply's words refine it, because relays answer 550 for a missing mailbox, an
 * exhausted sending quota and spam alike.
 */
export function deliveryErrorFromSmtp(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  if (!isNodemailerError(err)) return new DeliveryError('rejected', String(err));
  const reply = err.response ?? '';
  const code = err.responseCode;
  const enhanced = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(reply);
  const providerCode = code
    ? [String(code), enhanced?.[0]].filter(Boolean).join(' ')
    : (err.originalCode ?? err.code ?? undefined);
  const fail = (kind: ConstructorParameters<typeof DeliveryError>[0]) =>
    new DeliveryError(kind, reply || err.message, providerCode ? { providerCode } : {});

  if (!code) {
    // no reply from the relay: it could not be reached, or the connection broke
    if (CONNECTION_CODES.has(err.code ?? '') || CONNECTION_CODES.has(err.originalCode ?? ''))
      return fail('unavailable');
    if (err.code === 'EAUTH' || err.code === 'ENOAUTH') return fail('unauthorized');
    // nodemailer refused the address itself before asking the relay
    if (err.code === 'EENVELOPE') return fail('invalid-recipient');
    return fail('rejected');
  }
  // 4xx (and 503, a wrong command sequence): the same message may go through later
  if (err.permanent === false || (code >= 400 && code < 500)) return fail('unavailable');
  if (err.code === 'EAUTH' || code === 530 || code === 534 || code === 535) return fail('unauthorized');
  const [, , subject, detail] = enhanced ?? [];
  if (subject === '1') return fail('invalid-recipient');
  const contentPhase = err.command === 'DATA' || err.code === 'EMESSAGE';
  if (code === 552 && (subject === '3' || /size|too (big|large)/i.test(reply))) return fail('blocked-content');
  if (code === 552 || (subject === '2' && detail === '2') || /quota|mailbox (is )?full|storage/i.test(reply)) {
    return fail('quota');
  }
  // 5.7.x at RCPT is mostly "relaying denied": this account may not send there
  if (subject === '7' && !contentPhase && /relay/i.test(reply)) return fail('unauthorized');
  if (
    code === 554 ||
    subject === '7' ||
    subject === '6' ||
    (contentPhase && /spam|virus|content|policy/i.test(reply))
  ) {
    return fail('blocked-content');
  }
  if (
    code === 550 ||
    code === 551 ||
    code === 553 ||
    /no such user|user unknown|unknown user|does not exist/i.test(reply)
  ) {
    return fail('invalid-recipient');
  }
  return fail('rejected');
}

export function createMailer(opts: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({
    url: opts.smtpUrl,
    // a relay that does not answer must not hold a sign-in code for nodemailer's default minutes
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // nothing in a message may make the server read a file or fetch an address
    disableFileAccess: true,
    disableUrlAccess: true,
    ...opts.transport,
    ...(opts.dkim ? { dkim: { ...opts.dkim } } : {}),
  });
  const fromAddress = /<([^<>]+)>\s*$/.exec(opts.from)?.[1]?.trim() ?? opts.from.trim();
  const origin = codeOrigin(opts.publicUrl);

  async function send(
    recipient: Recipient,
    compose: (frame: Frame) => RenderedMail,
    extra: Partial<SendMailOptions>,
    signal: AbortSignal | undefined,
  ): Promise<SentMail> {
    const name = brandName(recipient.brand);
    const logo = logoBytes(recipient.brand.logo);
    const cid = logo ? `logo.${randomUUID()}@mail` : undefined;
    const frame: Frame = {
      language: pickLanguage(recipient.language),
      brand: name,
      ...(cid ? { logoSrc: `cid:${cid}` } : {}),
    };
    const mail = compose(frame);
    const { headers, ...options } = extra;
    const attachments: Attachment[] = logo
      ? [{ cid, content: logo.data, contentType: logo.contentType, filename: `logo.${logo.contentType.split('/')[1]}` }]
      : [];
    try {
      const info = await transport.sendMail({
        from: { name, address: fromAddress },
        to: recipient.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments,
        // RFC 3834: no out-of-office answers to a machine
        headers: { 'Auto-Submitted': 'auto-generated', ...headers },
        ...(signal ? { signal } : {}),
        ...options,
      });
      return { messageId: info.messageId };
    } catch (err) {
      throw deliveryErrorFromSmtp(err);
    }
  }

  return {
    sendCode(input, signal) {
      const { purpose, code } = input;
      const otp = origin && code && /^[\x20-\x7e]+$/.test(code) ? { otp: { code, origin } } : {};
      return send(
        input,
        (frame) =>
          renderCodeMail(frame, {
            purpose,
            ...(code !== undefined ? { code } : {}),
            ...(input.minutes !== undefined ? { minutes: input.minutes } : {}),
          }),
        otp,
        signal,
      );
    },

    sendNotice(input, signal) {
      const relative = input.link?.startsWith('/') && opts.publicUrl;
      const link = safeLink(relative ? new URL(input.link ?? '', opts.publicUrl).href : input.link);
      const unsubscribeUrl = safeLink(input.unsubscribeUrl);
      const extra: Partial<SendMailOptions> = unsubscribeUrl
        ? {
            list: { unsubscribe: unsubscribeUrl },
            // RFC 8058: the mail client POSTs to the address instead of opening it (the DKIM signature covers both)
            headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
          }
        : {};
      return send(
        input,
        (frame) =>
          renderNoticeMail(frame, {
            subject: input.subject,
            lines: input.lines,
            ...(link ? { link } : {}),
            ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
          }),
        extra,
        signal,
      );
    },

    sendTest(input, signal) {
      return send(input, renderTestMail, {}, signal);
    },

    close() {
      transport.close();
    },
  };
}
