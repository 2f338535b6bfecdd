// Rate limits: a call over its limit answers 429 with the wait in the caller's language and in Retry-After,
// other calls and other addresses go on; with Redis, the instances of a deployment count together.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import type { FastifyInstance } from 'fastify';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const wrong = (n: number) => ({ username: `nobody${n}@example.com`, password: 'Wrong#2026' });

/** A signed call from a given address; the answer's envelope and headers. */
async function from(app: FastifyInstance, address: string, url: string, body: object | null, lang = 'en-US') {
  const time = String(Math.floor(Date.now() / 1000));
  const res = await app.inject({
    method: body ? 'POST' : 'GET',
    url: `/yewu${url}`,
    remoteAddress: address,
    headers: { 'x-time': time, 'x-sign': computeSign(undefined, time, DEFAULT_SIGN_SECRET), 'accept-language': lang },
    ...(body ? { payload: body } : {}),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() as { code: number; msg: string; data: any } };
}

describe('rate limits in one instance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_SIGN_IN: '3/1m' });
  });
  afterAll(async () => t.close());

  it('refuses the sign-in past the limit with 429, the wait in English and Russian, and Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await from(t.app, '10.1.0.1', '/user/login', wrong(1));
      expect(res.body.code).toBe(400);
      expect(res.headers['retry-after']).toBeUndefined();
    }
    const limited = await from(t.app, '10.1.0.1', '/user/login', wrong(1));
    expect(limited.status).toBe(200);
    expect(limited.body.code).toBe(429);
    const seconds = limited.body.data.retryAfter as number;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(limited.body.msg).toBe(`Too many requests. Please wait ${seconds} s and try again.`);
    expect(limited.headers['retry-after']).toBe(String(seconds));

    const russian = await from(t.app, '10.1.0.1', '/user/login', wrong(1), 'ru-RU');
    expect(russian.body.code).toBe(429);
    expect(russian.body.msg).toMatch(/^Слишком много запросов\. Подождите \d+ с и повторите попытку\.$/);
    expect(russian.headers['retry-after']).toBe(String(russian.body.data.retryAfter));
    // even the right password waits: the limit counts calls, not failures
    const right = await from(t.app, '10.1.0.1', '/user/login', {
      username: 'operator@example.com',
      password: 'Demo#2026',
    });
    expect(right.body.code).toBe(429);
  });

  it('leaves other calls of the same address and the same call of another address alone', async () => {
    for (let i = 0; i < 4; i++) await from(t.app, '10.1.0.2', '/user/login', wrong(2));
    expect((await from(t.app, '10.1.0.2', '/user/login', wrong(2))).body.code).toBe(429);

    const otherCall = await from(t.app, '10.1.0.2', '/company/getName?hostname=localhost', null);
    expect(otherCall.body.code).toBe(200);
    const otherAddress = await from(t.app, '10.1.0.3', '/user/login', {
      username: 'operator@example.com',
      password: 'Demo#2026',
    });
    expect(otherAddress.body.code).toBe(200);
    expect(otherAddress.body.data.utoken).toBeTruthy();
  });
});

// Redis is part of the several-instance setup, whose tests run with the PostgreSQL suite.
describe.runIf(PG_URL)('rate limits shared through Redis', () => {
  const namespace = `t_rate_${randomBytes(4).toString('hex')}`;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_NAMESPACE: namespace, RATE_LIMIT_SIGN_IN: '4/1m' };
    a = await createTestApp(env);
    b = await createTestApp(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${namespace}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts the calls of one address on both instances together', async () => {
    const answers: number[] = [];
    for (const app of [a, b, a, b, a, b])
      answers.push((await from(app.app, '10.2.0.1', '/user/login', wrong(3))).body.code);
    // four calls in all are allowed, whichever instance took them; each instance alone saw only three
    expect(answers).toEqual([400, 400, 400, 400, 429, 429]);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${namespace}:rate:*`);
    redis.disconnect();
    expect(keys).toHaveLength(1);
  });
});
