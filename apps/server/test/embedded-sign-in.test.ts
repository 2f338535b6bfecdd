// An embedded console (iframe=1) is opened with a one-time code, exchanged by POST for a session of its own: the
// code works once and for a minute. The request log never holds a token, a code or a video lease from an address.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { logger: { level: 'info', stream } });
});
afterAll(async () => t.close());

const REFUSED = {
  code: 400,
  msg: 'This link has expired or was already used. Open the page again from where it is embedded.',
  data: null,
};

describe('embedding codes', () => {
  it('a code opens one session, once', async () => {
    const host = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const issued = await call(t.app, 'POST', '/user/embedCode', { token: host });
    expect(issued.code).toBe(200);
    expect(issued.data.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.data.expiresIn).toBe(60);
    const first = await call(t.app, 'POST', '/user/embedLogin', { body: { code: issued.data.code } });
    expect(first.code).toBe(200);
    expect(first.data.utoken).not.toBe(host);
    const me = await call(t.app, 'GET', '/user/info', { token: first.data.utoken });
    expect(me.data.info.account).toBe('viewer@example.com');
    // used: refused, and no second session opened
    const sessions = async () =>
      (await t.app.database.db.selectFrom('session').select('id').execute()).map((r) => r.id).length;
    const before = await sessions();
    expect(await call(t.app, 'POST', '/user/embedLogin', { body: { code: issued.data.code } })).toEqual(REFUSED);
    expect(await sessions()).toBe(before);
  });

  it('an expired or unknown code opens nothing; in every language', async () => {
    const host = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const issued = await call(t.app, 'POST', '/user/embedCode', { token: host });
    await t.app.database.db
      .updateTable('sms_code')
      .set({ expires_at: Date.now() - 1 })
      .where('purpose', 'like', 'embed:%')
      .execute();
    expect(await call(t.app, 'POST', '/user/embedLogin', { body: { code: issued.data.code } })).toEqual(REFUSED);
    const unknown = 'A'.repeat(43);
    expect(await call(t.app, 'POST', '/user/embedLogin', { body: { code: unknown } })).toEqual(REFUSED);
    const zh = await call(t.app, 'POST', '/user/embedLogin', { lang: 'zh-CN', body: { code: unknown } });
    expect(zh.msg).toBe('此链接已过期或已被使用。请从嵌入它的页面重新打开。');
    // a signed-in call is needed for a code
    expect((await call(t.app, 'POST', '/user/embedCode')).code).toBe(101);
  });
});

describe('the request log', () => {
  it('holds no token, code or lease from an address', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const code = (await call(t.app, 'POST', '/user/embedCode', { token })).data.code as string;
    const lease = 'L'.repeat(32);
    const time = String(Math.floor(Date.now() / 1000));
    const headers = { 'x-time': time, 'x-token': token, 'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET) };
    const from = lines.length;
    await t.app.inject({
      method: 'GET',
      url: `/yewu/user/info?iframe=1&yuntoken=${token}&code=${code}&keyword=pumps`,
      headers,
    });
    await t.app.inject({ method: 'GET', url: `/index?iframe=1&code=${code}&utoken=${token}` });
    await t.app.inject({ method: 'GET', url: `/yewu/video/live/${lease}/index.m3u8` });
    await t.app.inject({ method: 'POST', url: `/yewu/video/live/${lease}/leave` });
    const written = lines.slice(from);
    const urls = written
      .map((l) => JSON.parse(l) as { req?: { url: string } })
      .flatMap((l) => (l.req ? [l.req.url] : []));
    expect(urls).toEqual([
      '/yewu/user/info?iframe=1&yuntoken=[redacted]&code=[redacted]&keyword=pumps',
      '/index?iframe=1&code=[redacted]&utoken=[redacted]',
      '/yewu/video/live/[redacted]/index.m3u8',
      '/yewu/video/live/[redacted]/leave',
    ]);
    for (const secret of [token, code, lease]) expect(written.filter((l) => l.includes(secret))).toEqual([]);
  });
});

describe('API answers', () => {
  it('are never cached: success, refusal and unknown call alike', async () => {
    for (const url of ['/yewu/company/getName?hostname=x', '/yewu/user/info', '/yewu/no/such/call']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const page = await t.app.inject({ method: 'GET', url: '/yewu/docs/json' });
    expect(page.headers['cache-control']).not.toBe('no-store');
  });
});
