// E-mail through a real SMTP server: a one-time code reads right in each of the six languages, in both the text and
// the HTML part; a notice carries one-click unsubscribe headers and the company's name; the company's logo travels
// inside the message; a company name with markup stays text; the DKIM signature verifies against the published key
// (and breaks when the message is changed); what the server refuses is sorted into what a person can act on.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import smtpServer from 'smtp-server';
import type { SMTPServerError } from 'smtp-server';
import { dkimVerify } from 'mailauth';
import { createMailer, type MailerOptions } from '../src/modules/messages/mail/mailer.ts';
import { unsubscribeToken, verifyUnsubscribeToken } from '../src/modules/messages/mail/unsubscribe.ts';
import { DeliveryError } from '../src/modules/messages/types.ts';

const { SMTPServer } = smtpServer;

interface Received {
  from: string;
  to: string[];
  raw: Buffer;
}

const refusal = (responseCode: number, message: string): SMTPServerError =>
  Object.assign(new Error(message), { responseCode });

/**
 * A mail server on a free port: takes anyone without a login, `relay`/`secret` with one, refuses other logins; refuses
 * some recipients as a real relay would; refuses a message whose text holds FORBIDDEN.
 */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'relay' && auth.password === 'secret') callback(null, { user: auth.username });
      else callback(refusal(535, '5.7.8 Authentication credentials invalid'));
    },
    onRcptTo(address, _session, callback) {
      const local = address.address.split('@')[0];
      if (local === 'nobody') callback(refusal(550, '5.1.1 No such user here'));
      else if (local === 'full') callback(refusal(552, '5.2.2 Mailbox full, over quota'));
      else if (local === 'later') callback(refusal(451, '4.7.1 Greylisted, try again later'));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (raw.includes('FORBIDDEN')) return callback(refusal(554, '5.7.1 Message content rejected'));
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---- a small MIME reader: enough for what nodemailer writes ----

interface Part {
  headers: Map<string, string[]>;
  body: Buffer;
}

function decodeWords(value: string): string {
  // adjacent encoded words are one text; their bytes are joined before decoding, as a character may span two
  return value.replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)(\s+=\?[^?]+\?[QqBb]\?[^?]*\?=)*/g, (run) => {
    const bytes = [...run.matchAll(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g)].map(([, enc, text = '']) =>
      enc!.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ),
    );
    return Buffer.concat(bytes).toString('utf8');
  });
}

function readHeaders(block: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), decodeWords(line.slice(colon + 1).trim())]);
  }
  return headers;
}

function decodeBody(headers: Map<string, string[]>, body: string): Buffer {
  const encoding = (headers.get('content-transfer-encoding')?.[0] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    return Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    );
  }
  return Buffer.from(body, 'latin1');
}

/** Every leaf part of the message, with the top headers first. */
function leaves(raw: string): Part[] {
  const split = raw.indexOf('\r\n\r\n');
  const headers = readHeaders(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const type = headers.get('content-type')?.[0] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [{ headers, body: decodeBody(headers, body) }];
  const inner = body.split(`--${boundary}`).slice(1, -1);
  return inner.flatMap((p) => leaves(p.replace(/^\r\n/, '')));
}

function parse(raw: Buffer) {
  const text = raw.toString('latin1');
  const top = readHeaders(text.slice(0, text.indexOf('\r\n\r\n')));
  const parts = leaves(text);
  const ofType = (t: string) => parts.find((p) => p.headers.get('content-type')?.[0]?.startsWith(t));
  return {
    header: (name: string) => top.get(name.toLowerCase())?.[0],
    text: ofType('text/plain')?.body.toString('utf8') ?? '',
    html: ofType('text/html')?.body.toString('utf8') ?? '',
    parts,
  };
}

// ---- the tests ----

let smtp: Awaited<ReturnType<typeof startSmtp>>;
const local: Partial<MailerOptions> = { transport: { ignoreTLS: true, secure: false } };
const mailerAt = (opts: Partial<MailerOptions> = {}) =>
  createMailer({
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    from: 'Genset Cloud <no-reply@gensets.example>',
    ...local,
    ...opts,
  });
const brand = { name: 'Nordwind Power' };

/** The message the server received for this Message-ID. */
function receivedMail(messageId: string) {
  const got = smtp.received.find((m) => m.raw.toString('latin1').includes(messageId));
  expect(got, `the server received ${messageId}`).toBeDefined();
  return got!;
}

beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
});

describe('one-time codes', () => {
  const subjects = {
    'en-US': 'Your Nordwind Power sign-in code',
    'zh-CN': '您的 Nordwind Power 登录验证码',
    'zh-TW': '您的 Nordwind Power 登入驗證碼',
    'ru-RU': 'Код для входа в Nordwind Power',
    'es-ES': 'Su código de acceso a Nordwind Power',
    'tr-TR': 'Nordwind Power giriş kodunuz',
  } as const;
  const validity = {
    'en-US': 'valid for 10 minutes',
    'zh-CN': '10 分钟内有效',
    'zh-TW': '10 分鐘內有效',
    'ru-RU': 'действует 10 мин.',
    'es-ES': 'válido durante 10 minutos',
    'tr-TR': '10 dakika geçerlidir',
  } as const;

  it.each(Object.keys(subjects) as (keyof typeof subjects)[])(
    '%s: subject, code in text and HTML, company as sender',
    async (language) => {
      const mailer = mailerAt();
      const code = String(100000 + Math.floor(Math.random() * 899999));
      const { messageId } = await mailer.sendCode({
        to: 'owner@customer.example',
        language,
        purpose: 'login',
        code,
        minutes: 10,
        brand,
      });
      mailer.close();
      const got = receivedMail(messageId);
      expect(got.to).toEqual(['owner@customer.example']);
      expect(got.from).toBe('no-reply@gensets.example');
      const mail = parse(got.raw);
      expect(mail.header('subject')).toBe(subjects[language]);
      expect(mail.header('from')).toMatch(/^"?Nordwind Power"? <no-reply@gensets\.example>$/);
      expect(mail.text).toContain(code);
      expect(mail.text).toContain(validity[language]);
      expect(mail.html).toContain(code);
      expect(mail.html).toContain(`<html lang="${language}">`);
      // nothing to load from elsewhere: no remote picture, no tracking pixel
      expect(mail.html).not.toMatch(/<img[^>]+src="https?:/i);
      expect(mail.header('auto-submitted')).toBe('auto-generated');
    },
  );

  it.each([
    ['register', 'Your Nordwind Power registration code'],
    ['reset', 'Your Nordwind Power password reset code'],
    ['bind', 'Confirm your e-mail address for Nordwind Power'],
    ['accountExists', 'Someone tried to register with your e-mail address'],
    ['accountLocked', 'Your account is locked for new addresses'],
  ] as const)('%s has its own subject', async (purpose, subject) => {
    const mailer = mailerAt();
    const { messageId } = await mailer.sendCode({
      to: 'owner@customer.example',
      language: 'en-US',
      purpose,
      ...(purpose === 'accountExists' ? {} : { minutes: 15 }),
      ...(purpose === 'accountExists' || purpose === 'accountLocked' ? {} : { code: '424242' }),
      brand,
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.header('subject')).toBe(subject);
    if (purpose === 'accountLocked') expect(mail.text).toContain('locked for 15 minutes');
    if (purpose === 'accountExists') expect(mail.text).not.toMatch(/\d{6}/);
  });

  it('binds the code to the console’s origin (OTP-Token) when the console is on https', async () => {
    const mailer = mailerAt({ publicUrl: 'https://console.gensets.example/app' });
    const { messageId } = await mailer.sendCode({
      to: 'owner@customer.example',
      language: 'de-DE',
      purpose: 'reset',
      code: '135790',
      minutes: 10,
      brand,
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.header('otp-token')).toBe('"135790"; origin="https://console.gensets.example"');
    // a language the console does not speak falls back to English
    expect(mail.header('subject')).toBe('Your Nordwind Power password reset code');
  });
});

describe('notices and the company', () => {
  it('carry one-click unsubscribe headers, the company as sender and a link to the console', async () => {
    const mailer = mailerAt({ publicUrl: 'https://console.gensets.example' });
    const unsubscribeUrl = `https://console.gensets.example/api/unsubscribe/${unsubscribeToken('s3cret', 42)}`;
    const { messageId } = await mailer.sendNotice({
      to: 'operator@customer.example',
      language: 'es-ES',
      subject: 'Alarma: parada por baja presión de aceite',
      lines: ['Grupo GE-12 (Planta Norte)', 'Parada por baja presión de aceite a las 14:02'],
      link: '/gensets/12',
      unsubscribeUrl,
      brand: { name: 'Energía Ibérica' },
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.header('list-unsubscribe')).toBe(`<${unsubscribeUrl}>`);
    expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.header('from')).toContain('Energía Ibérica');
    expect(mail.header('subject')).toBe('Alarma: parada por baja presión de aceite');
    expect(mail.text).toContain('Parada por baja presión de aceite a las 14:02');
    expect(mail.text).toContain('Abrir en la consola: https://console.gensets.example/gensets/12');
    expect(mail.text).toContain(`Para dejar de recibir estos avisos, abra ${unsubscribeUrl}`);
    expect(mail.html).toContain('href="https://console.gensets.example/gensets/12"');
    expect(mail.html).toContain('Dejar de recibir estos avisos');
  });

  it('leave out the unsubscribe headers without an address, and never link a script', async () => {
    const mailer = mailerAt();
    const { messageId } = await mailer.sendNotice({
      to: 'operator@customer.example',
      language: 'en-US',
      subject: 'Set offline',
      lines: ['GE-7 has been offline for 30 minutes'],
      link: 'javascript:alert(1)',
      brand,
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.header('list-unsubscribe')).toBeUndefined();
    expect(mail.header('list-unsubscribe-post')).toBeUndefined();
    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).not.toContain('javascript:');
  });

  // 1×1 PNG
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  );

  it.each([
    ['bytes', { contentType: 'image/png', data: png }],
    ['a data: URL', `data:image/png;base64,${png.toString('base64')}`],
  ] as const)('inline the company’s logo given as %s (cid), in the test message', async (_, logo) => {
    const mailer = mailerAt();
    const { messageId } = await mailer.sendTest({
      to: 'admin@customer.example',
      language: 'zh-CN',
      brand: { name: '北方动力', logo },
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.header('subject')).toBe('来自 北方动力 的测试邮件');
    const cid = /<img src="cid:([^"]+)"/.exec(mail.html)?.[1];
    expect(cid).toBeDefined();
    const image = mail.parts.find((p) => p.headers.get('content-id')?.[0] === `<${cid}>`);
    expect(image?.headers.get('content-type')?.[0]).toMatch(/^image\/png/);
    expect(image?.body.equals(png)).toBe(true);
  });

  it('show the company’s name where its logo is an SVG (mail clients drop SVG)', async () => {
    const mailer = mailerAt();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
    const { messageId } = await mailer.sendTest({
      to: 'admin@customer.example',
      language: 'en-US',
      brand: { name: 'Nordwind Power', logo: { contentType: 'image/svg+xml', data: Buffer.from(svg) } },
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('<strong style="font-size:18px">Nordwind Power</strong>');
    expect(mail.parts.some((p) => p.headers.has('content-id'))).toBe(false);
  });

  it('escape a company name with markup in the HTML, and keep it as is in the text and the sender', async () => {
    const mailer = mailerAt();
    const { messageId } = await mailer.sendNotice({
      to: 'operator@customer.example',
      language: 'en-US',
      subject: 'Alarm on <GE-1>',
      lines: ['Oil pressure <script>alert(1)</script> & more'],
      brand: { name: 'A&B <Gensets>' },
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.html).not.toContain('<Gensets>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('A&#38;B &#60;Gensets&#62;');
    expect(mail.html).toContain('Oil pressure &#60;script&#62;alert(1)&#60;/script&#62; &#38; more');
    expect(mail.html).toContain('<title>Alarm on &#60;GE-1&#62;</title>');
    expect(mail.text).toContain('This message was sent automatically by A&B <Gensets>.');
    expect(mail.header('from')).toContain('A&B <Gensets>');
    expect(mail.header('from')).toMatch(/<no-reply@gensets\.example>$/);
  });

  it('go out under the product’s name when the company has none', async () => {
    const mailer = mailerAt();
    const { messageId } = await mailer.sendTest({
      to: 'admin@customer.example',
      language: 'tr-TR',
      brand: { name: ' ' },
    });
    mailer.close();
    const mail = parse(receivedMail(messageId).raw);
    expect(mail.header('subject')).toBe('Genset Cloud test iletisi');
    expect(mail.header('from')).toMatch(/^"?Genset Cloud"? <no-reply@gensets\.example>$/);
  });
});

describe('DKIM', () => {
  it('signs with the configured key: mailauth verifies the signature, and it breaks when the message is changed', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const domainName = 'gensets.example';
    const keySelector = 'mail2026';
    const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const resolver = async (name: string, type: string) => {
      if (type === 'TXT' && name === `${keySelector}._domainkey.${domainName}`) return [[record]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
    };
    const mailer = mailerAt({
      dkim: { domainName, keySelector, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    });
    const { messageId } = await mailer.sendNotice({
      to: 'operator@customer.example',
      language: 'ru-RU',
      subject: 'Авария: останов ГУ-3',
      lines: ['Останов по высокой температуре охлаждающей жидкости'],
      unsubscribeUrl: 'https://console.gensets.example/api/unsubscribe/x',
      brand,
    });
    mailer.close();
    const raw = receivedMail(messageId).raw;

    const verified = await dkimVerify(raw, { resolver });
    expect(verified.results).toHaveLength(1);
    const [signature] = verified.results;
    expect(signature?.status.result).toBe('pass');
    expect(signature?.signingDomain).toBe(domainName);
    expect(signature?.selector).toBe(keySelector);
    // RFC 8058: one-click unsubscribe counts only when the signature covers both headers
    const signed = (signature?.signingHeaders?.keys ?? '').toLowerCase().split(/\s*:\s*/);
    expect(signed).toEqual(expect.arrayContaining(['from', 'subject', 'list-unsubscribe', 'list-unsubscribe-post']));

    const tampered = Buffer.from(raw.toString('latin1').replace(/^Subject: .*$/m, 'Subject: changed'), 'latin1');
    const broken = await dkimVerify(tampered, { resolver });
    expect(broken.results[0]?.status.result).not.toBe('pass');
  });

  it('leaves mail unsigned without a key', async () => {
    const mailer = mailerAt();
    const { messageId } = await mailer.sendTest({ to: 'admin@customer.example', language: 'en-US', brand });
    mailer.close();
    expect(parse(receivedMail(messageId).raw).header('dkim-signature')).toBeUndefined();
  });
});

describe('refusals', () => {
  async function refusalOf(send: () => Promise<unknown>): Promise<DeliveryError> {
    const err = await send().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DeliveryError);
    return err as DeliveryError;
  }
  const notice = (to: string, lines = ['GE-1 stopped']) => ({
    to,
    language: 'en-US',
    subject: 'Alarm',
    lines,
    brand,
  });

  it.each([
    ['nobody@customer.example', 'invalid-recipient', true, '550 5.1.1'],
    ['full@customer.example', 'quota', true, '552 5.2.2'],
    ['later@customer.example', 'unavailable', false, '451 4.7.1'],
  ] as const)('a recipient refused as %s is %s', async (to, kind, permanent, providerCode) => {
    const mailer = mailerAt();
    const err = await refusalOf(() => mailer.sendNotice(notice(to)));
    mailer.close();
    expect({ kind: err.kind, permanent: err.permanent, providerCode: err.providerCode }).toEqual({
      kind,
      permanent,
      providerCode,
    });
  });

  it('refused content is blocked-content', async () => {
    const mailer = mailerAt();
    const err = await refusalOf(() => mailer.sendNotice(notice('operator@customer.example', ['FORBIDDEN words'])));
    mailer.close();
    expect({ kind: err.kind, permanent: err.permanent, providerCode: err.providerCode }).toEqual({
      kind: 'blocked-content',
      permanent: true,
      providerCode: '554 5.7.1',
    });
  });

  it('a wrong login is unauthorized; the right one sends', async () => {
    const wrong = mailerAt({ smtpUrl: `smtp://relay:wrong@127.0.0.1:${smtp.port}` });
    const err = await refusalOf(() => wrong.sendTest({ to: 'admin@customer.example', language: 'en-US', brand }));
    wrong.close();
    expect({ kind: err.kind, permanent: err.permanent, providerCode: err.providerCode }).toEqual({
      kind: 'unauthorized',
      permanent: true,
      providerCode: '535 5.7.8',
    });

    const right = mailerAt({ smtpUrl: `smtp://relay:secret@127.0.0.1:${smtp.port}` });
    const { messageId } = await right.sendTest({ to: 'admin@customer.example', language: 'en-US', brand });
    right.close();
    receivedMail(messageId);
  });

  it('a server that is not there is unavailable, worth trying again', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const mailer = mailerAt({ smtpUrl: `smtp://127.0.0.1:${port}` });
    const err = await refusalOf(() => mailer.sendTest({ to: 'admin@customer.example', language: 'en-US', brand }));
    mailer.close();
    expect(err.kind).toBe('unavailable');
    expect(err.permanent).toBe(false);
    expect(err.providerCode).toBe('ECONNREFUSED');
  });
});

describe('unsubscribe tokens', () => {
  it('name the person, and only for the secret they were made with', () => {
    const token = unsubscribeToken('s3cret', 42);
    expect(token).toMatch(/^42\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken('s3cret', token)).toBe(42);
    expect(verifyUnsubscribeToken('other', token)).toBeNull();
    // another person's id with this person's proof
    expect(verifyUnsubscribeToken('s3cret', token.replace(/^42\./, '43.'))).toBeNull();
    expect(verifyUnsubscribeToken('s3cret', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(verifyUnsubscribeToken('s3cret', '42')).toBeNull();
    expect(verifyUnsubscribeToken('s3cret', '')).toBeNull();
  });
});
