// What goes wrong inside stays inside: a database error, a thrown error, an oversized or malformed body each
// answer a proper envelope code with a plain message in the caller's language, never a stack, SQL text or a
// file path; the details are in the log under the request id the message quotes.
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { createTestApp, type TestApp } from './helpers.ts';

const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      logger: { level: 'info', stream: logStream },
      extend: (app) => {
        app.post('/yewu/test/explode', { config: { unsigned: true, access: { public: true } } }, async () => {
          throw new TypeError(`Cannot read properties of undefined (reading 'x') at ${import.meta.filename}:42:7`);
        });
      },
    },
  );
});
afterAll(async () => t.close());

function signed(lang = 'en-US'): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  return { 'x-time': time, 'x-sign': computeSign(undefined, time, DEFAULT_SIGN_SECRET), 'accept-language': lang };
}

/** Nothing of the server's inside in an answer: no stack frame, SQL, table, path or parser wording. */
function expectNothingInside(raw: string) {
  expect(raw).not.toMatch(/stack|\bat \S+ \(|:\d+:\d+/i);
  expect(raw).not.toMatch(/select|insert|company_host|relation|no such table|syntax/i);
  expect(raw).not.toMatch(/\/(work|home|tmp|usr|opt|var)\/|node_modules|\.[cm]?[jt]s\b/);
  expect(raw).not.toMatch(/Unexpected|JSON|TypeError|Cannot read/);
}

describe('answers to what went wrong', () => {
  it('a database error answers 500 with the request id, and the log has the SQL error under that id', async () => {
    await sql`drop table company_host`.execute(t.app.database.db);
    const res = await t.app.inject({
      method: 'GET',
      url: '/yewu/company/getName?hostname=portal.example.com',
      headers: signed('zh-CN'),
    });
    expectNothingInside(res.body);
    const body = res.json() as { code: number; msg: string; data: unknown };
    expect(res.statusCode).toBe(200);
    expect(body.code).toBe(500);
    expect(body.data).toBeNull();
    const id = /（参考编号 (\S+)）/.exec(body.msg)?.[1];
    expect(body.msg).toBe(`服务器出现错误，请稍后重试（参考编号 ${id}）。`);
    const logged = logLines.find((l) => l.msg === 'unexpected error' && l.reqId === id) as
      { err: { message: string; stack: string } } | undefined;
    expect(logged?.err.message).toMatch(/company_host/);
    expect(logged?.err.stack).toBeTruthy();
  });

  it('a thrown error answers 500 with a plain message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/yewu/test/explode', payload: {} });
    expectNothingInside(res.body);
    const body = res.json() as { code: number; msg: string };
    expect(body.code).toBe(500);
    expect(body.msg).toMatch(/^Something went wrong on the server\. Please try again later \(reference \S+\)\.$/);
  });

  it('an oversized body answers 400 saying how large a request may be', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/user/login',
      headers: { ...signed('es-ES'), 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'a@example.com', password: 'x'.repeat(1024 * 1024) }),
    });
    expectNothingInside(res.body);
    expect(res.json()).toEqual({
      code: 400,
      msg: 'La solicitud es demasiado grande (como máximo 1024 KB).',
      data: null,
    });
  });

  it('malformed JSON answers 400 without the parser’s words', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/user/login',
      headers: { ...signed(), 'content-type': 'application/json' },
      payload: '{"username": "a@example.com", "password": ',
    });
    expectNothingInside(res.body);
    expect(res.json()).toEqual({ code: 400, msg: 'The request could not be read.', data: null });
  });

  it('a body of a type the API does not read answers 400 too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/user/login',
      headers: { ...signed(), 'content-type': 'application/xml' },
      payload: '<login><username>a@example.com</username></login>',
    });
    expectNothingInside(res.body);
    expect(res.json()).toMatchObject({ code: 400, msg: 'The request could not be read.' });
  });
});
