// What an operator watches: Prometheus metrics behind a token (HTTP, ingestion, modules, WebSockets, database,
// process), the Grafana dashboard's queries all answered by them, liveness and readiness probes, and the
// request id in the answer and in every log line of the request.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, login, PG_URL, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule } from './support/fake-module.ts';
import { connectWs } from './support/ws-client.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const DASHBOARD = fileURLToPath(new URL('../../../deploy/grafana/console-dashboard.json', import.meta.url));
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const logLines: Record<string, any>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let baseUrl = '';
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN }, { logger: { level: 'info', stream: logStream } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => t.close());

async function scrape(authorization = `Bearer ${TOKEN}`) {
  return fetch(`${baseUrl}/metrics`, { headers: { authorization } });
}

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`));
    if (has) return Number(m[3]);
  }
  return undefined;
}

/** Metric names in a PromQL expression: identifiers that are not functions, keywords, labels or durations. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\boffset\s+-?\w+/g, '')
    .replace(/(?<![\w:])\d[\w.+-]*/g, '');
  const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or']);
  const names = [...bare.matchAll(/(?<![\w:])([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)]
    .filter((m) => !m[2] && !keywords.has(m[1]!) && !/^(unless|inf|nan)$/i.test(m[1]!))
    .map((m) => m[1]!);
  return [...new Set(names)];
}

describe('metrics', () => {
  let text = '';

  beforeAll(async () => {
    // an ingested snapshot from a module, a realtime client, and some calls (one refused)
    const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
    const info = await call(t.app, 'GET', '/user/info', { token: manager });
    const modemKey = `METRICS${Date.now()}`;
    const modem = await t.app.devices.fleet.createModem({ companyId: info.data.info.companyId, modemKey });
    await t.app.devices.fleet.createGenset({
      companyId: info.data.info.companyId,
      ownerUserId: null,
      name: 'Metrics set',
      modemId: modem.id,
      protocolKey: layoutS.key,
    });
    t.app.devices.ingest.invalidate();
    const module = await connectFakeModule(`mqtt://127.0.0.1:${t.app.devices.transport.port}`, modemKey, modem.secret);
    const ws = await connectWs(baseUrl, manager);
    try {
      await module.publish('data', {
        seq: 1,
        ts: Date.now(),
        port: 'port1',
        address: 1,
        blocks: encodeBlocks(layoutS, { engine_rpm: 1500, gen_kw: 100 }),
      });
      await module.waitFor('ack', (a: { upTo: number }) => a.upTo >= 1);
      await fetch(`${baseUrl}/yewu/user/login`, { method: 'POST' }); // unsigned: refused
      await call(t.app, 'POST', '/user/login', { body: { username: 'manager@example.com', password: '' } });
      const res = await scrape();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      text = await res.text();
    } finally {
      ws.close();
      await module.close();
    }
  });

  it('counts the snapshot stored and acked, the module, the realtime client and the database', () => {
    expect(sample(text, 'genset_ingest_snapshots_stored_total')).toBe(1);
    expect(sample(text, 'genset_ingest_queue_depth')).toBe(0);
    expect(sample(text, 'genset_ingest_ack_lag_seconds_count')).toBe(1);
    expect(sample(text, 'genset_ingest_messages_received_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'genset_modules_connected')).toBe(1);
    expect(sample(text, 'genset_ws_clients')).toBe(1);
    expect(sample(text, 'genset_db_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'genset_db_connections', { state: 'waiting' })).toBe(0);
  });

  it('times HTTP calls by route pattern, method and status, and counts error envelopes by code', () => {
    expect(
      sample(text, 'genset_http_request_duration_seconds_count', {
        route: '/yewu/user/info',
        method: 'GET',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'genset_api_errors_total', { route: '/yewu/user/login', code: '400' })).toBe(1);
    expect(sample(text, 'genset_api_errors_total', { route: '/yewu/user/login', code: '50008' })).toBe(1);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('answers every metric the Grafana dashboard queries', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: { type: string; title: string; targets?: { expr: string }[] }[];
    };
    const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((q) => ({ panel: p.title, expr: q.expr })));
    expect(queries.length).toBeGreaterThan(10);
    const names = new Set(queries.flatMap((q) => metricNames(q.expr)));
    expect(names.size).toBeGreaterThan(10);
    const missing = [...names].filter((name) => !new RegExp(`^${name}(\\{| )`, 'm').test(text));
    expect(missing).toEqual([]);
  });

  it('finds the metric names of a query and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(genset_http_request_duration_seconds_bucket{instance=~"$instance",status=~"5.."}[$__rate_interval])))',
      ),
    ).toEqual(['genset_http_request_duration_seconds_bucket']);
    expect(metricNames('max(a_total) / on(instance) group_left b_bytes offset 5m')).toEqual(['a_total', 'b_bytes']);
  });

  it('asks for the token', async () => {
    const none = await fetch(`${baseUrl}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).not.toContain('genset_');
    const wrong = await scrape('Bearer not-the-token-at-all-0123456');
    expect(wrong.status).toBe(401);
  });
});

describe('metrics without a token', () => {
  it('are off', async () => {
    const other = await createTestApp();
    try {
      const res = await other.app.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer anything-at-all-0123' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('genset_');
    } finally {
      await other.close();
    }
  });
});

describe('probes', () => {
  it('/healthz answers while the process runs, /readyz names the parts it checked', async () => {
    const health = await t.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', broker: 'ok' } });
  });

  it('/readyz answers 503 naming the broker when it is down', async () => {
    const other = await createTestApp();
    try {
      await other.app.devices.transport.close();
      const ready = await other.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', broker: 'down' } });
    } finally {
      await other.close();
    }
  });

  it.runIf(PG_URL)('/readyz checks Redis when it is configured and answers 503 when it is gone', async () => {
    const other = await createTestApp({ REDIS_URL, REDIS_NAMESPACE: `t_ready_${Date.now()}` });
    try {
      expect((await other.app.inject({ url: '/readyz' })).json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', broker: 'ok', redis: 'ok' },
      });
      other.app.redis!.disconnect();
      const ready = await other.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', broker: 'ok', redis: 'down' } });
    } finally {
      await other.close();
    }
  });
});

describe('the log', () => {
  it('leaves out the requests of files (the console, uploads) but keeps those of calls', async () => {
    const web = mkdtempSync(join(tmpdir(), 'web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>console</title>');
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1)');
    const lines: Record<string, any>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const other = await createTestApp({ WEB_DIST: web }, { logger: { level: 'info', stream } });
    try {
      writeFileSync(join(other.config.uploadsDir, 'logo.png'), 'png');
      const asked = [
        ['/assets/app.js', 200],
        ['/uploads/logo.png', 200],
        ['/genset/mylist', 200],
        ['/healthz', 200],
      ] as const;
      for (const [url, status] of asked) {
        const res = await other.app.inject({ url, headers: { 'x-request-id': `log-${url.replace(/\W/g, '-')}` } });
        expect(res.statusCode, url).toBe(status);
      }
      const logged = (url: string) =>
        lines.filter((l) => l.reqId === `log-${url.replace(/\W/g, '-')}`).map((l) => l.msg);
      // the console's files and pages, and uploads: nothing at info
      expect(logged('/assets/app.js')).toEqual([]);
      expect(logged('/uploads/logo.png')).toEqual([]);
      expect(logged('/genset/mylist')).toEqual([]);
      // a call is logged as before
      expect(logged('/healthz')).toEqual(['incoming request', 'request completed']);

      // the build's hashed files are kept by the browser for a year; the page and uploads are asked for again
      const cache = async (url: string) => (await other.app.inject({ url })).headers['cache-control'];
      expect(await cache('/assets/app.js')).toBe('public, max-age=31536000, immutable');
      expect(await cache('/genset/mylist')).toBe('no-cache');
      expect(await cache('/index.html')).toBe('public, max-age=0');
      expect(await cache('/uploads/logo.png')).toBe('public, max-age=0');
    } finally {
      await other.close();
      rmSync(web, { recursive: true, force: true });
    }
  });
});

describe('request ids', () => {
  it('takes the caller’s X-Request-Id, answers with it and writes it on every log line of the request', async () => {
    const account = `locked${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) {
      await call(t.app, 'POST', '/user/login', { body: { username: account, password: `Wrong#${i}abc` } });
    }
    const time = String(Math.floor(Date.now() / 1000));
    const { computeSign, DEFAULT_SIGN_SECRET } = await import('@genset/protocol');
    const res = await fetch(`${baseUrl}/yewu/user/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-time': time,
        'x-sign': computeSign(undefined, time, DEFAULT_SIGN_SECRET),
        'x-request-id': 'proxy-7f3a.42',
      },
      body: JSON.stringify({ username: account, password: 'Wrong#6abc' }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(429);
    expect(res.headers.get('x-request-id')).toBe('proxy-7f3a.42');
    const lines = logLines.filter((l) => l.reqId === 'proxy-7f3a.42');
    const messages = lines.map((l) => l.msg);
    expect(messages).toContain('incoming request');
    expect(messages).toContain('request completed');
    // written by the sign-in service through the app's logger, not the request's
    expect(messages).toContain('account locked at one address after repeated failed sign-ins');
    expect(
      logLines.filter((l) => l.msg === 'account locked at one address after repeated failed sign-ins' && !l.reqId),
    ).toEqual([]);
    // Fastify's request logger carries the id once
    expect(lines.every((l) => typeof l.reqId === 'string')).toBe(true);
  });

  it('makes its own id when the caller’s is not a plain token', async () => {
    const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'a b\u0000c' } });
    expect(res.headers['x-request-id']).toMatch(/^[a-z0-9]{1,10}$/);
    const long = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'x'.repeat(65) } });
    expect(long.headers['x-request-id']).not.toBe('x'.repeat(65));
  });
});
