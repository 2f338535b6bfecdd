// Signing in and out: passwords, one-time codes, sessions and their errors, locks after failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, freshUser, lastCode, login, outbox, type TestApp } from './helpers.ts';
import { hashToken } from '../src/modules/auth/tokens.ts';
import { translate } from '../src/i18n/messages.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('/user/login', () => {
  it('signs in with a demo account and returns token, index template and company', async () => {
    const res = await call(t.app, 'POST', '/user/login', {
      body: { username: 'manager@example.com', password: 'Demo#2026' },
    });
    expect(res.code).toBe(200);
    expect(res.data.utoken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.data.indextemplate).toBe('default');
    expect(res.data.companyid).toBeGreaterThan(1);
  });

  it('accepts a mobile number as account', async () => {
    expect(await login(t.app, '13800000001', 'Demo#2026')).toHaveLength(43);
  });

  it.each([
    [
      'en-US',
      { username: 'not-an-account', password: 'x' },
      'username',
      'Account: must be a valid e-mail address or mobile number',
    ],
    ['zh-CN', { username: 'not-an-account', password: 'x' }, 'username', '账号：必须是有效的邮箱地址或手机号'],
    ['en-US', { username: 'manager@example.com', password: '' }, 'password', 'Password: cannot be empty'],
    ['zh-CN', { username: 'manager@example.com', password: '' }, 'password', '密码：不能为空'],
    ['en-US', { password: 'x' }, 'username', 'Account: cannot be empty'],
    ['zh-CN', { username: '', password: 'x' }, 'username', '账号：不能为空'],
  ])('in %s refuses %j naming %s', async (lang, body, field, message) => {
    const res = await call(t.app, 'POST', '/user/login', { lang, body });
    expect(res.code).toBe(400);
    expect(res.data.fields[field]).toBe(message);
    expect(res.msg).toBe(Object.values(res.data.fields)[0]);
  });

  it('gives the same answer for a wrong password and an unknown account', async () => {
    const u = await freshUser(t);
    const wrong = await call(t.app, 'POST', '/user/login', { body: { username: u.account, password: 'Wrong#2026' } });
    const unknown = await call(t.app, 'POST', '/user/login', {
      body: { username: 'ghost@example.com', password: 'Wrong#2026' },
    });
    expect(wrong).toEqual(unknown);
    expect(wrong).toMatchObject({ code: 400, msg: 'Wrong account or password.' });
  });

  it('locks an account at one address after six failures in a row, refuses the right password there, logs lock and end', async () => {
    const u = await freshUser(t);
    for (let i = 1; i <= 5; i++) {
      const res = await call(t.app, 'POST', '/user/login', { body: { username: u.account, password: `Wrong#${i}xx` } });
      expect(res.code).toBe(400);
    }
    const sixth = await call(t.app, 'POST', '/user/login', { body: { username: u.account, password: 'Wrong#6xx' } });
    expect(sixth.code).toBe(429);
    expect(sixth.data.retryAfter).toBeGreaterThan(0);
    expect(sixth.data.retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(sixth.msg).toMatch(/Try again in 15 min/);

    const right = await call(t.app, 'POST', '/user/login', {
      lang: 'zh-CN',
      body: { username: u.account, password: u.password },
    });
    expect(right.code).toBe(429);
    expect(right.msg).toContain('分钟后再试');

    const db = t.app.database.db;
    const locked = await db
      .selectFrom('operation_log')
      .selectAll()
      .where('user_id', '=', u.id)
      .where('matter', 'in', ['log.locked', 'log.lockedAddress'])
      .execute();
    expect(locked.map((r) => [r.matter, r.ip])).toEqual([['log.lockedAddress', '127.0.0.1']]);
    expect(JSON.parse(locked[0]!.feedback).until).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The lock runs out: the right password works again and the end of the lock is logged.
    await db
      .updateTable('auth_throttle')
      .set({ locked_until: Date.now() - 1000 })
      .where('throttle_key', '=', `acct-ip:${u.account}|127.0.0.1`)
      .execute();
    expect(await login(t.app, u.account, u.password)).toHaveLength(43);
    const ended = await db
      .selectFrom('operation_log')
      .select('matter')
      .where('user_id', '=', u.id)
      .where('matter', '=', 'log.lockEnded')
      .execute();
    expect(ended).toHaveLength(1);
  });

  it('a successful sign-in clears earlier failures', async () => {
    const u = await freshUser(t);
    for (let i = 0; i < 4; i++)
      await call(t.app, 'POST', '/user/login', { body: { username: u.account, password: 'Wrong#2026' } });
    await login(t.app, u.account, u.password);
    for (let i = 0; i < 5; i++) {
      expect(
        (await call(t.app, 'POST', '/user/login', { body: { username: u.account, password: 'Wrong#2026' } })).code,
      ).toBe(400);
    }
  });
});

describe('address limit', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ AUTH_IP_MAX_FAILURES: '3' });
  });
  afterAll(async () => strict.close());

  it('locks an address that guesses across many accounts', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        (await call(strict.app, 'POST', '/user/login', { body: { username: `g${i}@example.com`, password: 'x' } }))
          .code,
      ).toBe(400);
    }
    const res = await call(strict.app, 'POST', '/user/login', { body: { username: 'g9@example.com', password: 'x' } });
    expect(res.code).toBe(429);
    expect(res.msg).toMatch(/network address/);
    expect(
      (
        await call(strict.app, 'POST', '/user/login', {
          body: { username: 'viewer@example.com', password: 'Demo#2026' },
        })
      ).code,
    ).toBe(429);
  });
});

describe('locks by account and address', () => {
  // behind a trusted proxy the address is the X-Forwarded-For one, so each test speaks from the address it names
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ TRUST_PROXY: '1', AUTH_ACCOUNT_MAX_FAILURES: '8' });
  });
  afterAll(async () => proxied.close());
  const signIn = (address: string, username: string, password: string, lang = 'en-US') =>
    call(proxied.app, 'POST', '/user/login', {
      lang,
      headers: { 'x-forwarded-for': address },
      body: { username, password },
    });
  const logged = (userId: number) =>
    proxied.app.database.db
      .selectFrom('operation_log')
      .select(['matter', 'ip'])
      .where('user_id', '=', userId)
      .where('matter', 'in', ['log.locked', 'log.lockedAddress'])
      .orderBy('id')
      .execute();

  it('failures from one address lock that address only: the owner signs in from another', async () => {
    const u = await freshUser(proxied);
    for (let i = 0; i < 5; i++) expect((await signIn('203.0.113.7', u.account, 'Wrong#2026')).code).toBe(400);
    expect((await signIn('203.0.113.7', u.account, 'Wrong#2026')).code).toBe(429);
    expect((await signIn('203.0.113.7', u.account, u.password)).code).toBe(429);

    const owner = await signIn('198.51.100.2', u.account, u.password);
    expect(owner.code).toBe(200);
    expect(owner.data.utoken).toHaveLength(43);
    // the owner's success does not lift the lock of the attacker's address
    expect((await signIn('203.0.113.7', u.account, u.password)).code).toBe(429);
    expect(await logged(u.id)).toEqual([{ matter: 'log.lockedAddress', ip: '203.0.113.7' }]);
  });

  it('failures from many addresses lock the account for new addresses, not for those it signed in from', async () => {
    const u = await freshUser(proxied);
    expect((await signIn('198.51.100.20', u.account, u.password)).code).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn('203.0.113.21', u.account, 'Wrong#2026')).code).toBe(400);
    for (let i = 0; i < 3; i++) expect((await signIn('203.0.113.22', u.account, 'Wrong#2026')).code).toBe(400);
    // the ninth failure, from a third address, passes the account-wide limit of 8
    const ninth = await signIn('203.0.113.23', u.account, 'Wrong#2026', 'ru-RU');
    expect(ninth.code).toBe(429);
    expect(ninth.msg).toBe('Слишком много неудачных попыток. Повторите через 15 мин.');

    const fresh = await signIn('192.0.2.99', u.account, u.password, 'tr-TR');
    expect(fresh.code).toBe(429);
    expect(fresh.msg).toBe('Çok fazla başarısız deneme. 15 dakika sonra yeniden deneyin.');
    // the address the owner signed in from before is let through, and a further failure there logs no new lock
    expect((await signIn('198.51.100.20', u.account, 'Wrong#2026')).code).toBe(400);
    expect((await signIn('198.51.100.20', u.account, u.password)).code).toBe(200);
    expect(await logged(u.id)).toEqual([{ matter: 'log.locked', ip: '203.0.113.23' }]);
  });

  it('tells the owner once, in the account’s language, when the account-wide lock falls', async () => {
    const u = await freshUser(proxied);
    // the language the person uses the console in goes before the one their notice settings name
    await proxied.app.database.db
      .updateTable('users')
      .set({ language: 'es-ES', message_settings: JSON.stringify({ language: 'tr-TR' }) })
      .where('id', '=', u.id)
      .execute();
    const notices = () => outbox(proxied).filter((m) => m.to === u.account && m.purpose === 'accountLocked');
    for (let i = 0; i < 8; i++) await signIn(`203.0.113.${40 + (i % 4)}`, u.account, 'Wrong#2026');
    expect(notices()).toEqual([]);
    expect((await signIn('203.0.113.45', u.account, 'Wrong#2026', 'zh-CN')).code).toBe(429);
    // further failures while it holds send nothing more
    expect((await signIn('203.0.113.46', u.account, 'Wrong#2026')).code).toBe(429);
    const text = translate('es-ES', 'sms.accountLocked', { minutes: 15 });
    expect(text).toContain('15 minutos');
    expect(notices()).toEqual([
      {
        ts: expect.any(Number),
        channel: u.account.includes('@') ? 'email' : 'sms',
        to: u.account,
        purpose: 'accountLocked',
        subject: translate('es-ES', 'sms.accountLockedSubject'),
        text,
      },
    ]);
    // the notice names no address and carries no code
    expect(JSON.stringify(notices())).not.toMatch(/203\.0\.113/);
  });

  it('a new password lifts the locks of every address', async () => {
    const u = await freshUser(proxied);
    for (let i = 0; i < 6; i++) await signIn('203.0.113.31', u.account, 'Wrong#2026');
    expect((await signIn('203.0.113.31', u.account, u.password)).code).toBe(429);
    const manager = await login(proxied.app, 'manager@example.com', 'Demo#2026');
    const reset = await call(proxied.app, 'POST', '/user/resetpassword', {
      token: manager,
      body: { userId: u.id, password: 'Fresh#2026x' },
    });
    expect(reset.code, reset.msg).toBe(200);
    expect((await signIn('203.0.113.31', u.account, 'Fresh#2026x')).code).toBe(200);
  });
});

describe('one-time codes', () => {
  it('signs in with a code from the outbox, once', async () => {
    const u = await freshUser(t);
    const sent = await call(t.app, 'POST', '/sendMessage', { body: { username: u.account, purpose: 'login' } });
    expect(sent).toMatchObject({ code: 200, data: { retryAfter: 60 } });
    const code = lastCode(t, u.account);
    expect(code).toMatch(/^\d{6}$/);
    const ok = await call(t.app, 'POST', '/user/codelogin', { body: { username: u.account, code } });
    expect(ok.code).toBe(200);
    expect(ok.data.utoken).toHaveLength(43);
    const again = await call(t.app, 'POST', '/user/codelogin', { body: { username: u.account, code } });
    expect(again).toMatchObject({ code: 400, msg: 'The verification code is wrong or has expired.' });
  });

  it('sends at most one code per minute per number, saying when to retry', async () => {
    const u = await freshUser(t);
    await call(t.app, 'POST', '/sendMessage', { body: { username: u.account } });
    const res = await call(t.app, 'POST', '/sendMessage', { lang: 'zh-CN', body: { username: u.account } });
    expect(res.code).toBe(429);
    expect(res.data.retryAfter).toBeGreaterThan(50);
    expect(res.msg).toContain('秒后再获取');
  });

  it('answers the same for an unknown account and sends nothing', async () => {
    const before = outbox(t).length;
    const res = await call(t.app, 'POST', '/sendMessage', { body: { username: '13900000099', purpose: 'login' } });
    expect(res).toMatchObject({ code: 200, data: { retryAfter: 60 } });
    expect(outbox(t).length).toBe(before);
  });

  it('refuses a wrong or expired code and bad input', async () => {
    const u = await freshUser(t);
    await call(t.app, 'POST', '/sendMessage', { body: { username: u.account } });
    const code = lastCode(t, u.account);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await call(t.app, 'POST', '/user/codelogin', { body: { username: u.account, code: wrong } })).code).toBe(
      400,
    );
    await t.app.database.db
      .updateTable('sms_code')
      .set({ expires_at: Date.now() - 1 })
      .where('target', '=', u.account)
      .execute();
    expect((await call(t.app, 'POST', '/user/codelogin', { body: { username: u.account, code } })).code).toBe(400);
    const bad = await call(t.app, 'POST', '/user/codelogin', {
      lang: 'zh-CN',
      body: { username: u.account, code: '12ab' },
    });
    expect(bad.data.fields.code).toBe('验证码：必须是 6 位数字验证码');
    const badPurpose = await call(t.app, 'POST', '/sendMessage', { body: { username: u.account, purpose: 'spam' } });
    expect(badPurpose.data.fields.purpose).toBe('Purpose: is not valid');
  });
});

describe('sessions', () => {
  it('answers 101 without a token, 50008 for a malformed one, 101 for an unknown one', async () => {
    expect((await call(t.app, 'GET', '/user/info')).code).toBe(101);
    expect((await call(t.app, 'GET', '/user/info', { token: 'not a token' })).code).toBe(50008);
    expect((await call(t.app, 'GET', '/user/info', { token: 'A'.repeat(43) })).code).toBe(101);
  });

  it('answers 50014 once a session has expired, in the caller’s language', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    await t.app.database.db
      .updateTable('session')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', hashToken(token))
      .execute();
    expect(await call(t.app, 'GET', '/user/info', { token })).toMatchObject({
      code: 50014,
      msg: 'Your session has expired. Please sign in again.',
    });
    expect((await call(t.app, 'GET', '/user/info', { token, lang: 'zh-CN' })).msg).toBe('登录已过期，请重新登录。');
  });

  it('slides the expiry forward while the session is used', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const db = t.app.database.db;
    const soon = Date.now() + 60_000;
    await db
      .updateTable('session')
      .set({ expires_at: soon, last_seen_at: Date.now() - 120_000 })
      .where('token_hash', '=', hashToken(token))
      .execute();
    expect((await call(t.app, 'GET', '/user/info', { token })).code).toBe(200);
    const row = await db
      .selectFrom('session')
      .select('expires_at')
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBeGreaterThan(Date.now() + 6 * 24 * 3_600_000);
  });

  it('logout revokes the session', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    expect((await call(t.app, 'POST', '/logout', { token })).code).toBe(200);
    expect((await call(t.app, 'GET', '/user/info', { token })).code).toBe(101);
    expect((await call(t.app, 'POST', '/logout', { token })).code).toBe(101);
  });

  it('a session ended by another instance is refused within a second (SESSION_CACHE_MS)', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    expect((await call(t.app, 'GET', '/user/info', { token })).code).toBe(200);
    await t.app.database.db
      .updateTable('session')
      .set({ revoked_at: Date.now(), revoke_reason: 'logout' })
      .where('token_hash', '=', hashToken(token))
      .execute();
    const started = Date.now();
    await expect
      .poll(async () => (await call(t.app, 'GET', '/user/info', { token })).code, { timeout: 3000, interval: 50 })
      .toBe(101);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('with single-session on, an earlier session gets 50012 after a new sign-in', async () => {
    const single = await createTestApp({ SINGLE_SESSION: '1' });
    try {
      const first = await login(single.app, 'viewer@example.com', 'Demo#2026');
      expect((await call(single.app, 'GET', '/user/info', { token: first })).code).toBe(200);
      await login(single.app, 'viewer@example.com', 'Demo#2026');
      expect((await call(single.app, 'GET', '/user/info', { token: first })).code).toBe(50012);
    } finally {
      await single.close();
    }
  });
});
