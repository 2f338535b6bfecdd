// Two instances of the server on one database, joined by Redis: a person disabled through one instance is
// refused at once by the other (which had their session in memory) and their realtime connection to the other
// is closed; a temporary password set through one is asked for by the other.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { ResultCode } from '@genset/protocol';
import { buildApp } from '../src/app.ts';
import { call, createTestApp, freshUser, login, PG_URL, signInManager, type TestApp } from './helpers.ts';
import { connectWs } from './support/ws-client.ts';

/** A call every member makes (their own sets): whether a session is still good. */
const MYLIST = { page: 1, size: 20 };
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let t: TestApp;
let other: FastifyInstance;
let otherUrl: string;
let manager: string;
let companyId: number;

beforeAll(async () => {
  // sessions are kept in memory for a minute: only the bus can make the other instance forget one in time
  t = await createTestApp({ REDIS_URL, REDIS_NAMESPACE: `t_admin_${Date.now()}`, SESSION_CACHE_MS: '60000' });
  const schema = PG_URL
    ? (await sql<{ s: string }>`select current_schema() as s`.execute(t.app.database.db)).rows[0]!.s
    : undefined;
  other = await buildApp({ config: t.config, ...(schema ? { dbSchema: schema } : {}) });
  await other.listen({ port: 0, host: '127.0.0.1' });
  const address = other.server.address();
  otherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  ({ token: manager, companyId } = await signInManager(t));
});

afterAll(async () => {
  await other?.close();
  await t?.close();
});

it('ends a disabled person’s session and realtime connection on the other instance at once', async () => {
  const person = await freshUser(t, { companyId, role: 'operator' });
  const token = await login(other, person.account, person.password);
  // the other instance has the session in memory now
  expect((await call(other, 'POST', '/genset/mylist', { token, body: MYLIST })).code).toBe(200);
  const ws = await connectWs(otherUrl, token);
  ws.heartbeat('');
  await new Promise((r) => setTimeout(r, 200));

  const off = await call(t.app, 'POST', '/user/userStatus', {
    token: manager,
    body: { userId: person.id, status: 'disabled' },
  });
  expect(off.code, off.msg).toBe(200);
  await expect
    .poll(async () => (await call(other, 'POST', '/genset/mylist', { token, body: MYLIST })).code, { timeout: 1500 })
    .not.toBe(200);
  const closed = await Promise.race([ws.closed, new Promise((r) => setTimeout(() => r('open'), 3000))]);
  expect(closed).toMatchObject({ code: 4001 });
});

it('asks the other instance’s sessions for the new password after a reset', async () => {
  const person = await freshUser(t, { companyId, role: 'operator' });
  const token = await login(other, person.account, person.password);
  expect((await call(other, 'POST', '/genset/mylist', { token, body: MYLIST })).code).toBe(200);
  const reset = await call(t.app, 'POST', '/user/resetpassword', {
    token: manager,
    body: { userId: person.id, password: 'Reset#2026q' },
  });
  expect(reset.code, reset.msg).toBe(200);
  await expect
    .poll(async () => (await call(other, 'POST', '/genset/mylist', { token, body: MYLIST })).code, { timeout: 1500 })
    .toBe(ResultCode.notSignedIn);
  const again = await login(other, person.account, 'Reset#2026q');
  expect((await call(other, 'POST', '/genset/mylist', { token: again, body: MYLIST })).code).toBe(
    ResultCode.passwordChangeRequired,
  );
});
