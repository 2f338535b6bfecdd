// Messages through configured providers: a sign-in code that leaves the server by Twilio (and by Alibaba Cloud when
// Twilio is down), a number the provider refuses told in the asker's language with the code withdrawn, the
// per-number limits, the delivery log a company administrator reads, the test message, e-mail codes and notices
// through a real SMTP server with one-click unsubscribe, and no code in the server log once a provider is set.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { simpleParser } from 'mailparser';
import smtpServer from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createCompany, createTestApp, freshUser, login, signInManager, type TestApp } from './helpers.ts';

const { SMTPServer } = smtpServer;

interface Seen {
  path: string;
  form: URLSearchParams;
}

/** A provider's HTTP API on a free port: what it was asked, and what it answers next (default: success). */
async function fakeProvider(success: (form: URLSearchParams) => { status: number; body: object }) {
  const seen: Seen[] = [];
  let answer: ((form: URLSearchParams) => { status: number; body: object }) | null = null;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      seen.push({ path: req.url ?? '', form });
      const a = (answer ?? success)(form);
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answer(a: typeof answer) {
      answer = a;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const twilioOk = (form: URLSearchParams) => ({
  status: 201,
  body: { sid: `SM${String(form.get('To')).slice(-6)}`, status: 'queued', to: form.get('To') },
});
const aliyunOk = () => ({
  status: 200,
  body: { Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: 'r1' },
});

const PERSONAL = '13800000001';
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _e, done) {
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let twilio: Awaited<ReturnType<typeof fakeProvider>>;
let aliyun: Awaited<ReturnType<typeof fakeProvider>>;
let smtp: InstanceType<typeof SMTPServer>;
const mails: { to: string; raw: string }[] = [];
let t: TestApp;

beforeAll(async () => {
  twilio = await fakeProvider(twilioOk);
  aliyun = await fakeProvider(aliyunOk);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp(
    {
      SMS_PROVIDER: 'twilio',
      SMS_FALLBACK_PROVIDER: 'aliyun',
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: 'token-0123456789',
      TWILIO_FROM: '+15005550006',
      TWILIO_URL: twilio.url,
      ALIYUN_SMS_ACCESS_KEY_ID: 'testId',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'testSecret',
      ALIYUN_SMS_SIGN_NAME: '阿里云短信测试',
      ALIYUN_SMS_CODE_TEMPLATE: 'SMS_154950909',
      ALIYUN_SMS_URL: aliyun.url,
      SMS_PER_TEMPLATE_MINUTE: '3',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}/?ignoreTLS=true`,
      SMTP_FROM: 'Genset Cloud <no-reply@example.com>',
      PUBLIC_URL: 'https://console.example.com',
      SMS_RESEND_SECONDS: '1',
    },
    { logger: { level: 'info', stream: logStream } },
  );
});
afterAll(async () => {
  await t.close();
  await twilio.close();
  await aliyun.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});
beforeEach(() => {
  twilio.answer(null);
  aliyun.answer(null);
});

/** The code in the last SMS Twilio was asked to send to a number. */
function codeSentTo(to: string): string {
  const form = twilio.seen.filter((s) => s.form.get('To') === to).at(-1)?.form;
  const code = /\b(\d{6})\b/.exec(form?.get('Body') ?? '')?.[1];
  if (!code) throw new Error(`no code went to ${to}`);
  return code;
}

async function logRows() {
  return t.app.database.db.selectFrom('message_log').selectAll().orderBy('id', 'desc').execute();
}

describe('SMS through a configured provider', () => {
  it('the sign-in code goes out by Twilio, signs in, is logged masked, and is nowhere in the server log', async () => {
    const sent = await call(t.app, 'POST', '/sendMessage', { body: { username: PERSONAL, purpose: 'login' } });
    expect(sent).toMatchObject({ code: 200, data: { retryAfter: 1 } });
    const request = twilio.seen.at(-1)!;
    expect(request.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
    expect(request.form.get('To')).toBe('+8613800000001');
    expect(request.form.get('From')).toBe('+15005550006');
    const code = codeSentTo('+8613800000001');
    const signedIn = await call(t.app, 'POST', '/user/codelogin', { body: { username: PERSONAL, code } });
    expect(signedIn.code).toBe(200);
    expect(typeof signedIn.data.utoken).toBe('string');
    const row = (await logRows())[0]!;
    expect(row).toMatchObject({
      channel: 'sms',
      purpose: 'login',
      recipient: '138****0001',
      provider: 'twilio',
      provider_id: 'SM000001',
      status: 'sent',
      attempts: 1,
      error_kind: null,
    });
    expect(logLines.some((l) => l.includes(code))).toBe(false);
    expect(logLines.some((l) => l.includes('13800000001'))).toBe(false);
  });

  it('Twilio down: tried three times, then the code goes by Alibaba Cloud with its template', async () => {
    twilio.answer(() => ({ status: 503, body: { code: 20500, message: 'Service unavailable' } }));
    const before = twilio.seen.length;
    await new Promise((r) => setTimeout(r, 1100)); // the resend interval of this server (1 s)
    const sent = await call(t.app, 'POST', '/sendMessage', { body: { username: PERSONAL, purpose: 'login' } });
    expect(sent.code).toBe(200);
    expect(twilio.seen.length - before).toBe(3);
    const request = aliyun.seen.at(-1)!.form;
    expect(request.get('Action')).toBe('SendSms');
    expect(request.get('PhoneNumbers')).toBe('13800000001');
    expect(request.get('TemplateCode')).toBe('SMS_154950909');
    const code = (JSON.parse(request.get('TemplateParam') ?? '{}') as { code?: string }).code ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(await call(t.app, 'POST', '/user/codelogin', { body: { username: PERSONAL, code } })).toMatchObject({
      code: 200,
    });
    expect((await logRows())[0]).toMatchObject({
      provider: 'aliyun',
      provider_id: '900619746936498440^0',
      status: 'sent',
      attempts: 4,
    });
  });

  it('a number the provider refuses: a clear error in the asker’s language, nothing sent elsewhere, code withdrawn', async () => {
    // Twilio was down a moment ago: the second provider is asked first for a minute; make it refuse the number
    aliyun.answer(() => ({
      status: 200,
      body: { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号', RequestId: 'r2' },
    }));
    twilio.answer(() => ({
      status: 400,
      body: { code: 21211, message: "The 'To' number is not valid.", status: 400 },
    }));
    await new Promise((r) => setTimeout(r, 1100));
    const refused = await call(t.app, 'POST', '/sendMessage', {
      lang: 'zh-CN',
      body: { username: PERSONAL, purpose: 'login' },
    });
    expect(refused).toEqual({
      code: 400,
      msg: '账号：该号码或地址无法接收消息，请检查后重试。',
      data: { fields: { username: '账号：该号码或地址无法接收消息，请检查后重试。' } },
    });
    const row = (await logRows())[0]!;
    expect(row).toMatchObject({ status: 'failed', error_kind: 'invalid-recipient', attempts: 1 });
    // the withdrawn code does not hold the next request back
    aliyun.answer(null);
    twilio.answer(null);
    expect((await call(t.app, 'POST', '/sendMessage', { body: { username: PERSONAL, purpose: 'login' } })).code).toBe(
      200,
    );
  });
});

describe('what a company administrator sees', () => {
  it('the delivery log, channel status, a test SMS and the per-minute limit', async () => {
    const { token, companyId } = await signInManager(t);
    expect(await call(t.app, 'GET', '/messages/status', { token })).toMatchObject({
      code: 200,
      data: {
        sms: { provider: 'twilio', fallback: 'aliyun', configured: true },
        email: { provider: 'smtp', configured: true },
        push: { configured: true },
      },
    });
    expect((await call(t.app, 'GET', '/messages/channels')).data).toEqual({ sms: true, email: true });

    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(
        await call(t.app, 'POST', '/messages/test', { token, body: { channel: 'sms', to: '+4915112345678' } }),
      );
    }
    expect(results.slice(0, 3).map((r) => r.data.item.status)).toEqual(['sent', 'sent', 'sent']);
    expect(results[3]!.data.item).toMatchObject({
      channel: 'sms',
      purpose: 'test',
      recipient: '+491****5678',
      status: 'throttled',
      failure: 'quota',
      attempts: 0,
    });
    expect(twilio.seen.at(-1)!.form.get('Body')).toBe(
      'This is a test message from Demo Power Fleet. If you can read it, messages reach you.',
    );

    const page = await call(t.app, 'POST', '/messages/log', { token, body: { page: 1, size: 10, channel: 'sms' } });
    expect(page.code).toBe(200);
    const companyRows = await t.app.database.db
      .selectFrom('message_log')
      .select('id')
      .where('company_id', '=', companyId)
      .where('channel', '=', 'sms')
      .execute();
    expect(page.data.total).toBe(companyRows.length);
    expect(page.data.list[0]).toEqual({
      id: results[3]!.data.item.id,
      createdAt: expect.any(Number),
      channel: 'sms',
      purpose: 'test',
      recipient: '+491****5678',
      provider: 'twilio',
      status: 'throttled',
      attempts: 0,
      failure: 'quota',
      error: 'per-template limit: more than 3 such messages to this number within a minute',
    });
    // another company's administrator sees none of them; the platform administrator sees them and the codes of
    // people in no company
    const otherCompany = await createCompany(t, 'Other Power');
    const otherAdmin = await freshUser(t, { companyId: otherCompany, role: 'companyAdmin' });
    const other = await call(t.app, 'POST', '/messages/log', {
      token: await login(t.app, otherAdmin.account, otherAdmin.password),
      body: { page: 1, size: 10 },
    });
    expect(other.data).toEqual({ list: [], total: 0, page: 1, size: 10 });
    const platform = await call(t.app, 'POST', '/messages/log', {
      token: await login(t.app, 'admin@example.com', 'Admin#2026'),
      body: { page: 1, size: 10 },
    });
    expect(platform.data.total).toBe((await logRows()).length);

    const bad = await call(t.app, 'POST', '/messages/test', { token, body: { channel: 'sms', to: 'not a number' } });
    expect(bad.code).toBe(400);
    const operator = await login(t.app, 'operator@example.com', 'Demo#2026');
    expect((await call(t.app, 'POST', '/messages/log', { token: operator, body: {} })).code).toBe(403);
  });
});

describe('delivery reports', () => {
  it('Twilio’s signed status callback marks a message delivered or failed; an unsigned one changes nothing', async () => {
    const callback = 'https://console.example.com/yewu/messages/status/twilio';
    const asked = twilio.seen.find((s) => s.form.get('To') === '+8613800000001')!.form;
    expect(asked.get('StatusCallback')).toBe(callback);
    const row = await t.app.database.db
      .selectFrom('message_log')
      .selectAll()
      .where('provider', '=', 'twilio')
      .where('status', '=', 'sent')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const report = (params: Record<string, string>, signature?: string) => {
      // Twilio's documented scheme, computed here on its own: the URL, then each name and value in name order
      const data = Object.keys(params)
        .sort()
        .reduce((acc, k) => acc + k + params[k], callback);
      const signed = createHmac('sha1', 'token-0123456789').update(data).digest('base64');
      return t.app.inject({
        method: 'POST',
        url: '/yewu/messages/status/twilio',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': signature ?? signed,
        },
        payload: new URLSearchParams(params).toString(),
      });
    };
    const delivered = {
      MessageSid: row.provider_id!,
      MessageStatus: 'delivered',
      AccountSid: 'AC0123',
      To: '+8613800000001',
    };
    expect((await report(delivered, 'Zm9yZ2Vk')).statusCode).toBe(403);
    const unchanged = await t.app.database.db
      .selectFrom('message_log')
      .select('status')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(unchanged.status).toBe('sent');
    expect((await report(delivered)).statusCode).toBe(204);
    const after = await t.app.database.db
      .selectFrom('message_log')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: 'delivered', error_kind: null });
    // a late "failed" for a delivered message does not undo it; a failure of a message still "sent" is kept
    expect((await report({ ...delivered, MessageStatus: 'failed', ErrorCode: '30003' })).statusCode).toBe(204);
    expect(
      (
        await t.app.database.db
          .selectFrom('message_log')
          .select('status')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('delivered');
    const other = await t.app.database.db
      .selectFrom('message_log')
      .selectAll()
      .where('provider', '=', 'twilio')
      .where('status', '=', 'sent')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(
      (await report({ MessageSid: other.provider_id!, MessageStatus: 'undelivered', ErrorCode: '30007' })).statusCode,
    ).toBe(204);
    expect(
      await t.app.database.db
        .selectFrom('message_log')
        .select(['status', 'error_kind', 'error'])
        .where('id', '=', other.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      status: 'failed',
      error_kind: 'blocked-content',
      error: '30007: undelivered',
    });
  });
});

describe('e-mail through SMTP', () => {
  it('a registration code by e-mail in Russian, and a notice with a one-click unsubscribe that turns notice mail off', async () => {
    const address = `new${Date.now()}@example.org`;
    const sent = await call(t.app, 'POST', '/sendMessage', {
      lang: 'ru-RU',
      body: { username: address, purpose: 'register' },
    });
    expect(sent.code).toBe(200);
    const mail = await simpleParser(mails.filter((m) => m.to === address).at(-1)!.raw);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(code);
    expect(mail.subject).toMatch(/[А-Яа-я]/);
    expect(logLines.some((l) => l.includes(code))).toBe(false);

    const { token } = await signInManager(t);
    const test = await call(t.app, 'POST', '/messages/test', {
      token,
      lang: 'es-ES',
      body: { channel: 'email', to: 'ops@example.org' },
    });
    expect(test.data.item).toMatchObject({
      channel: 'email',
      provider: 'smtp',
      status: 'sent',
      recipient: 'op***@example.org',
    });
    const testMail = await simpleParser(mails.filter((m) => m.to === 'ops@example.org').at(-1)!.raw);
    expect(testMail.from?.text).toBe('"Demo Power Fleet" <no-reply@example.com>');

    // a notice through the engine, to the manager's address
    const manager = await signInManager(t);
    await t.app.database.db
      .insertInto('notification_delivery')
      .values({
        event_id: 999_001,
        company_id: manager.companyId,
        user_id: manager.id,
        webhook_id: null,
        channel: 'email',
        target: 'manager@example.com',
        group_key: 'email:manager@example.com:event:999001',
        payload: JSON.stringify({
          kind: 'set.offline',
          facts: { set: 'Genset 7', token: 'tok7', minutes: 30 },
          language: 'en-US',
          timeZone: 'UTC',
        }),
        status: 'pending',
        attempts: 0,
        not_before: 0,
        locked_until: null,
        last_error: null,
        response_status: null,
        created_at: Date.now(),
        sent_at: null,
      })
      .execute();
    await t.app.notifications.engine.kick();
    await expect.poll(() => mails.some((m) => m.to === 'manager@example.com'), { timeout: 10_000 }).toBe(true);
    const raw = mails.filter((m) => m.to === 'manager@example.com').at(-1)!.raw;
    const notice = await simpleParser(raw);
    expect(notice.subject).toContain('Genset 7');
    const unsubscribe = /^List-Unsubscribe:\s*<([^>]+)>/im.exec(raw.replace(/\r?\n[ \t]+/g, ''))?.[1] ?? '';
    expect(unsubscribe.startsWith('https://console.example.com/yewu/messages/unsubscribe?token=')).toBe(true);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);

    const url = new URL(unsubscribe);
    const asked = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('<form method="post">');
    const settingsBefore = await call(t.app, 'GET', '/user/info', { token: manager.token });
    expect(settingsBefore.data.info.messages.alarmEmail).toBe(true);
    const done = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    // (a session is read again within a second: SESSION_CACHE_MS)
    await expect
      .poll(async () => (await call(t.app, 'GET', '/user/info', { token: manager.token })).data.info.messages, {
        timeout: 5000,
      })
      .toEqual({ ...settingsBefore.data.info.messages, alarmEmail: false });
    const forged = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}?token=${encodeURIComponent(`${manager.id}.AAAA`)}`,
    });
    expect(forged.statusCode).toBe(400);
  });
});

describe('no provider configured', () => {
  it('says so to the sign-in form, and writes codes to the outbox', async () => {
    const plain = await createTestApp();
    try {
      expect((await call(plain.app, 'GET', '/messages/channels')).data).toEqual({ sms: false, email: false });
      expect((await call(plain.app, 'POST', '/sendMessage', { body: { username: PERSONAL } })).code).toBe(200);
      const row = await plain.app.database.db.selectFrom('message_log').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ provider: 'outbox', status: 'sent', recipient: '138****0001' });
    } finally {
      await plain.close();
    }
  });
});
