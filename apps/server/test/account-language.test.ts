// The language a person uses the console in is kept with their account (on sign-in, and when the console names
// another one), and the e-mails the server sends them on its own are written in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, freshUser, login, outbox, type TestApp } from './helpers.ts';

let t: TestApp;
let manager: string;
let companyId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => t.close());

async function until<T>(what: () => T, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const languageOf = async (id: number) =>
  (await t.app.database.db.selectFrom('users').select('language').where('id', '=', id).executeTakeFirstOrThrow())
    .language;

async function handOver(name: string, account: string) {
  const added = await call(t.app, 'POST', '/genset/add', { token: manager, body: { name, protocolKey: layoutS.key } });
  expect(added.code, added.msg).toBe(200);
  const sent = await call(t.app, 'POST', '/genset/transferdevice', {
    token: manager,
    body: { token: added.data.token, account, keepSubscription: 'none' },
  });
  expect(sent.code, sent.msg).toBe(200);
}

describe('the account’s language', () => {
  it('is kept on sign-in and on a change of language, and notice e-mails are written in it', async () => {
    const person = await freshUser(t, { companyId, role: 'personal' });
    const signedIn = await call(t.app, 'POST', '/user/login', {
      lang: 'ru-RU',
      body: { username: person.account, password: person.password },
    });
    expect(signedIn.code, signedIn.msg).toBe(200);
    expect(await languageOf(person.id)).toBe('ru-RU');

    const mails = () => outbox(t).filter((m) => m.purpose === 'notice' && m.to === person.account);
    await handOver('Quarry set 4', person.account);
    const first = await until(mails, (l) => l.length >= 1);
    expect(first[0]!.subject ?? first[0]!.text).toContain('Quarry set 4 передаётся вам');

    // the console now speaks Chinese: the next call says so, and the next e-mail is in Chinese
    const info = await call(t.app, 'GET', '/user/info', { token: signedIn.data.utoken, lang: 'zh-CN' });
    expect(info.code).toBe(200);
    expect(await languageOf(person.id)).toBe('zh-CN');
    await handOver('Quarry set 5', person.account);
    const second = await until(mails, (l) => l.length >= 2);
    expect(second[1]!.subject ?? second[1]!.text).toContain('Quarry set 5 正在移交给您');
  });
});
