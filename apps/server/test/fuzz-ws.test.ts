// Property-based fuzzing of the realtime WebSocket (/ws): generated frames (heartbeats of several users naming
// sets they may and may not see, lists of sets, malformed JSON, wrong shapes, binary and oversized frames, odd
// languages) on a real connection while modules send data. Whatever came: the server stays up with no error
// logged and no unhandled rejection; once the last heartbeat is handled, the connection gets pushes only of
// sets its user may see; and it either still works (a valid heartbeat gets its snapshot) or was closed with a
// proper close code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import WebSocket from 'ws';
import { layoutS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { moduleFor, newSet, RUNNING } from './support/history-data.ts';
import { assertOptions, errorLog, hostileValue, runs } from './support/fuzz.ts';
import { EDGE_TEXT } from './support/zod-arbitrary.ts';

let t: TestApp;
let log: ReturnType<typeof errorLog>;
let wsUrl: string;
let started = 0;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => void rejections.push(reason);
const stats = { connections: 0, frames: 0, closed: new Map<number, number>() };

type User = 'manager' | 'stranger';
const utokens: Record<User, string> = { manager: '', stranger: '' };
const tokens: Record<'own' | 'foreign' | 'bare', string> = { own: '', foreign: '', bare: '' };
/** Which sets each user may see. */
const visible: Record<User, Set<string>> = { manager: new Set(), stranger: new Set() };
const modules: Awaited<ReturnType<typeof moduleFor>>[] = [];

type Frame =
  | { kind: 'heartbeat'; user: User | 'bad'; token: string; tokens?: string[]; language?: string }
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: Buffer };

const SET = '\u0001set:';
const setArb = fc.constantFrom(`${SET}own`, `${SET}foreign`, `${SET}bare`, '', 'nope', 'a'.repeat(64), '\u0000');
const resolveSet = (s: string) => (s.startsWith(SET) ? tokens[s.slice(SET.length) as keyof typeof tokens] : s);

const heartbeat: fc.Arbitrary<Frame> = fc.record(
  {
    kind: fc.constant('heartbeat' as const),
    user: fc.constantFrom<User | 'bad'>('manager', 'manager', 'stranger', 'stranger', 'bad'),
    token: setArb,
    tokens: fc.array(setArb, { maxLength: 4 }),
    language: fc.oneof(
      fc.constantFrom('en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR'),
      fc.string({ maxLength: 25 }),
    ),
  },
  { requiredKeys: ['kind', 'user', 'token'] },
);

const frame: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 5, arbitrary: heartbeat },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        hostileValue.map((v) => JSON.stringify(v) ?? ''),
        fc.constantFrom(
          '',
          '{',
          'wshb',
          '{"method":"wshb"}',
          '{"method":"wshb","utoken":5}',
          '{"method":"wshb","utoken":"x","tokens":"abc"}',
          `{"method":"wshb","utoken":"x","tokens":[${Array.from({ length: 101 }, () => '"a"').join(',')}]}`,
          '{"method":"subscribe","token":"x"}',
          '{"__proto__":{"method":"wshb"}}',
          `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
          'x'.repeat(70 * 1024),
          ...EDGE_TEXT,
        ),
        fc.string({ unit: 'binary', maxLength: 100 }),
      )
      .map((text) => ({ kind: 'text' as const, text })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b)),
        fc.constantFrom(Buffer.from('{"method":"wshb"}'), Buffer.from([0xff, 0xfe, 0x7b]), Buffer.alloc(65 * 1024)),
      )
      .map((bytes) => ({ kind: 'binary' as const, bytes })),
  },
);

function send(ws: WebSocket, f: Frame) {
  stats.frames++;
  if (f.kind === 'text') ws.send(f.text);
  else if (f.kind === 'binary') ws.send(f.bytes, { binary: true });
  else {
    const utoken = f.user === 'bad' ? 'not-a-session-token' : utokens[f.user];
    ws.send(
      JSON.stringify({
        method: 'wshb',
        token: resolveSet(f.token),
        utoken,
        ...(f.tokens ? { tokens: f.tokens.map(resolveSet) } : {}),
        ...(f.language !== undefined ? { language: f.language } : {}),
      }),
    );
  }
}

async function open() {
  stats.connections++;
  const ws = new WebSocket(wsUrl);
  const messages: { method?: string; token?: string }[] = [];
  let closed: { code: number; reason: string } | null = null;
  ws.on('message', (data) => {
    try {
      messages.push(JSON.parse(String(data)) as { method?: string; token?: string });
    } catch {
      messages.push({ method: 'unreadable' });
    }
  });
  const done = new Promise<void>((resolve) =>
    ws.on('close', (code, reason) => {
      closed = { code, reason: reason.toString() };
      resolve();
    }),
  );
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, messages, done, closed: () => closed as { code: number; reason: string } | null };
}

const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

/** Every module sends a snapshot, so that sets being watched get pushes. */
async function pushData() {
  await Promise.all(
    modules.map((m) => m.send({ ...RUNNING, engine_rpm: 1400 + Math.floor(Math.random() * 200) }, Date.now())),
  );
}

/** Close codes a server may end a connection with: normal, going away, protocol, data, size, policy, ours. */
const PROPER_CLOSE = new Set([1000, 1001, 1002, 1003, 1007, 1008, 1009, 1011, 4000, 4001]);

beforeAll(async () => {
  started = Date.now();
  process.on('unhandledRejection', onRejection);
  log = errorLog();
  t = await createTestApp({ INGEST_PERSIST_MS: '200' }, { logger: log.logger });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  wsUrl = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/ws`;
  utokens.manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const info = await call(t.app, 'GET', '/user/info', { token: utokens.manager });
  const companyId = info.data.info.companyId as number;
  const other = await createCompany(t, 'Elsewhere Ltd.');
  const stranger = await freshUser(t, { companyId: other, role: 'companyAdmin' });
  utokens.stranger = await login(t.app, stranger.account, stranger.password);
  const own = await newSet(t, { companyId, ownerUserId: info.data.info.id as number, name: 'Watched set' });
  const foreign = await newSet(t, { companyId: other, name: 'Someone else’s set' });
  const bare = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name: 'Set without module',
    modemId: null,
    protocolKey: layoutS.key,
  });
  tokens.own = own.token;
  tokens.foreign = foreign.token;
  tokens.bare = bare.token;
  visible.manager = new Set([own.token, bare.token]);
  visible.stranger = new Set([foreign.token]);
  modules.push(await moduleFor(t, own), await moduleFor(t, foreign));
  await pushData();
});

afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  console.log(
    `WebSocket fuzzing (seed ${assertOptions(0, 0).seed}): ${stats.connections} connections, ${stats.frames} frames, ` +
      `closed by the server: ${JSON.stringify(Object.fromEntries(stats.closed))}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const m of modules) await m.close();
  await t?.close();
});

describe('WebSocket fuzzing', () => {
  it('never pushes a set its user may not see, keeps working or closes properly, stays up', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { minLength: 1, maxLength: 6 }),
        fc.constantFrom<User>('manager', 'stranger'),
        fc.constantFrom<keyof typeof tokens>('own', 'foreign', 'bare'),
        fc.subarray<keyof typeof tokens>(['own', 'foreign', 'bare']),
        async (frames, last, watched, listed) => {
          log.lines.length = 0;
          const c = await open();
          for (const f of frames) {
            if (c.closed()) break;
            send(c.ws, f);
          }
          await settle();
          await pushData();
          await settle();
          const what = JSON.stringify(frames, (_k, v: unknown) =>
            typeof v === 'string' && v.length > 100 ? `${v.slice(0, 100)}…` : v,
          ).slice(0, 1500);
          const closed = c.closed();
          if (closed) {
            stats.closed.set(closed.code, (stats.closed.get(closed.code) ?? 0) + 1);
            expect(PROPER_CLOSE.has(closed.code), `close code ${closed.code} (${closed.reason}) after ${what}`).toBe(
              true,
            );
          } else {
            // The last word is a valid heartbeat of one user: from then on, only that user's sets are pushed.
            const final: Frame = {
              kind: 'heartbeat',
              user: last,
              token: `${SET}${watched}`,
              tokens: listed.map((k) => `${SET}${k}`),
            };
            send(c.ws, final);
            await settle();
            const from = c.messages.length;
            await pushData();
            await settle(300);
            const pushes = c.messages.slice(from).filter((m) => m.method === 'monitor' || m.method === 'alarm');
            const leaked = pushes.filter((m) => !visible[last].has(m.token ?? ''));
            expect(leaked, `pushes of sets ${last} may not see after ${what}, then ${JSON.stringify(final)}`).toEqual(
              [],
            );
            // A set of the user's with a module sends data: its pushes still come.
            if (visible[last].has(tokens[watched]) && watched !== 'bare') {
              expect(
                pushes.some((m) => m.token === tokens[watched]),
                `the connection still works: pushes of ${watched} after ${what}`,
              ).toBe(true);
            }
            c.ws.close();
            await c.done;
          }
          expect(log.lines, `errors logged after ${what}`).toEqual([]);
          expect(rejections, 'unhandled rejections').toEqual([]);
          const health = await call(t.app, 'GET', '/company/getName', { query: { hostname: 'demo.localhost' } });
          expect(health.code, 'the server answers').toBe(200);
        },
      ),
      assertOptions(2, runs(24)),
    );
  }, 120_000);
});
