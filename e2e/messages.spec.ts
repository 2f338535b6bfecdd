// Codes that leave the server: on a server of its own with an SMS provider (a local stand-in for Twilio's Messages
// API) and a real SMTP server, a person signs in with an SMS code, registers with an e-mail code and resets a
// password with an SMS code through the pages; the company administrator sees the providers, sends a test SMS and
// reads it in the delivery log. On the shared server, with no provider, the code form and the company's settings
// say plainly that nothing is sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import smtpServer from 'smtp-server';
import { test, expect } from './fixtures.ts';
import { loginAt, openSignedIn, signInAt } from './helpers.ts';
import { startOwnServer } from './own-server.ts';

const { SMTPServer } = smtpServer;

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;
let twilio: Server;
let smtp: InstanceType<typeof SMTPServer>;
const texts: { to: string; body: string }[] = [];
const mails: { to: string; raw: string }[] = [];

test.beforeAll(async () => {
  twilio = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      texts.push({ to: form.get('To') ?? '', body: form.get('Body') ?? '' });
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sid: `SM${texts.length}`, status: 'queued' }));
    });
  });
  await new Promise<void>((r) => twilio.listen(0, '127.0.0.1', r));
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
  own = await startOwnServer('messages', {
    DEMO_FLEET: '0',
    // the sign-in and the reset below ask the same number for a code within a minute
    SMS_RESEND_SECONDS: '1',
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
    TWILIO_AUTH_TOKEN: 'token-0123456789',
    TWILIO_FROM: '+15005550006',
    TWILIO_URL: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}/?ignoreTLS=true`,
    SMTP_FROM: 'Genset Cloud <no-reply@example.com>',
  });
});

test.afterAll(async () => {
  await own?.close();
  await new Promise<void>((r) => twilio?.close(() => r()));
  await new Promise<void>((r) => smtp?.close(() => r()));
});

/** The six-digit code in the latest SMS or mail to an address that arrived after `count` earlier ones. */
async function codeIn(list: { to: string }[], to: string, read: (m: never) => string, earlier: number) {
  let code = '';
  await expect
    .poll(() => {
      const sent = list.filter((m) => m.to === to);
      if (sent.length <= earlier) return '';
      code = /\b(\d{6})\b/.exec(read(sent.at(-1) as never))?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

test.describe.serial('through configured providers', () => {
  test('signing in with an SMS code that arrives by the provider', async ({ page }) => {
    await page.goto(`${own!.server.url}/login`);
    await page.getByTestId('login-mode').getByText('SMS code').click();
    await page.getByLabel('Mobile number or e-mail').fill('13800000001');
    await expect(page.getByTestId('codes-not-sent')).toHaveCount(0);
    const earlier = texts.filter((m) => m.to === '+8613800000001').length;
    await page.getByTestId('send-code').click();
    const code = await codeIn(texts, '+8613800000001', (m: { body: string }) => m.body, earlier);
    await page.getByLabel('Verification code').fill(code);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/index$/);
  });

  test('registering with a code by e-mail, and resetting the password with a code by SMS', async ({ page }) => {
    const address = `fresh${Date.now()}@example.org`;
    await page.goto(`${own!.server.url}/register`);
    await page.getByLabel('Mobile number or e-mail').fill(address);
    await expect(page.getByTestId('codes-not-sent')).toHaveCount(0);
    await page.getByTestId('send-code').click();
    const code = await codeIn(mails, address, (m: { raw: string }) => m.raw, 0);
    await page.getByLabel('Verification code').fill(code);
    await page.getByLabel('Nickname').fill('Mia Mail');
    await page.getByLabel('Password', { exact: true }).fill('Mia#20266');
    await page.getByLabel('Repeat password').fill('Mia#20266');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/index$/);
    await expect(page.getByTestId('welcome')).toContainText('Mia Mail');

    const phone = page.context();
    await phone.clearCookies();
    const reset = await phone.newPage();
    await reset.goto(`${own!.server.url}/forget`);
    await reset.getByLabel('Mobile number or e-mail').fill('13800000001');
    const earlier = texts.filter((m) => m.to === '+8613800000001').length;
    await reset.getByTestId('send-code').click();
    const resetCode = await codeIn(texts, '+8613800000001', (m: { body: string }) => m.body, earlier);
    await reset.getByLabel('Verification code').fill(resetCode);
    await reset.getByLabel('Password', { exact: true }).fill('Reset#2026');
    await reset.getByLabel('Repeat password').fill('Reset#2026');
    await reset.getByRole('button', { name: 'Reset password' }).click();
    await expect(reset).toHaveURL(/\/login$/);
    expect(
      (await loginAt(reset.request, own!.server.url, { username: '13800000001', password: 'Reset#2026' })).code,
    ).toBe(200);
  });

  test('the company administrator sees the providers, sends a test SMS and finds it in the log', async ({ page }) => {
    await signInAt(page, own!.server.url, { username: 'manager@example.com', password: 'Demo#2026' });
    await page.goto(`${own!.server.url}/system/webhooks`);
    const card = page.getByTestId('messages-card');
    await expect(card.getByTestId('message-channels')).toContainText('SMS go out through Twilio.');
    await expect(card.getByTestId('message-channels')).toContainText('E-mail goes out through the configured SMTP');
    await card.getByLabel('To').fill('+4915112345678');
    await card.getByTestId('test-message-send').click();
    await expect(card.getByTestId('test-message-outcome')).toHaveText('Sent to +491****5678 through Twilio.');
    expect(texts.at(-1)).toEqual({
      to: '+4915112345678',
      body: 'This is a test message from Demo Power Fleet. If you can read it, messages reach you.',
    });
    const row = card.getByTestId('message-log').locator('tbody tr.ant-table-row').first();
    await expect(row).toContainText('+491****5678');
    await expect(row).toContainText('Test');
    await expect(row).toContainText('Twilio');
    await expect(row).toContainText('Sent');
  });
});

test('with no provider, the code form and the company’s settings say that nothing is sent', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-mode').getByText('SMS code').click();
  await page.getByLabel('Mobile number or e-mail').fill('13800000009');
  await expect(page.getByTestId('codes-not-sent')).toHaveText(
    'This server sends no SMS: no SMS provider is configured, so a code would only be written to the server’s log. Ask your administrator, or sign in with your password.',
  );
  await page.getByLabel('Mobile number or e-mail').fill('someone@example.org');
  await expect(page.getByTestId('codes-not-sent')).toContainText('This server sends no e-mail');

  await openSignedIn(page, { username: 'manager@example.com', password: 'Demo#2026' }, '/system/webhooks');
  const card = page.getByTestId('messages-card');
  await expect(card.getByTestId('no-sms-provider')).toContainText('No SMS provider is configured');
  await expect(card.getByTestId('no-email-provider')).toContainText('No mail server is configured');
});
