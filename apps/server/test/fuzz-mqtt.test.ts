// Property-based fuzzing of what a module sends: a real MQTT client, signed in as a registered module on the
// server's embedded broker, publishes generated sequences of messages (malformed JSON, wrong types, oversized
// payloads, seq gaps and repeats, times far in the past and the future, other channels, unknown topics), then
// what a well-behaved module would send next. Whatever came before: the server stays up with no error logged
// and no unhandled rejection, the well-formed data is stored exactly once and acked, and nothing wrong is
// stored (no seq twice). A sample dated far in the future is stored, though, and on PostgreSQL a repeated seq
// with another time too: those tests are marked as failing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { layoutS, MQTT_MAX_PAYLOAD_BYTES } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule, type FakeModule } from './support/fake-module.ts';
import { newSet, RUNNING } from './support/history-data.ts';
import { assertOptions, errorLog, hostileValue, mutated, runs } from './support/fuzz.ts';

const DAY = 86_400_000;
/** A sample dated later than this after its arrival is wrong: a module's clock is not a day fast. */
const FUTURE_SLACK_MS = DAY;

let t: TestApp;
let log: ReturnType<typeof errorLog>;
let brokerUrl: string;
let set: Awaited<ReturnType<typeof newSet>>;
let module: FakeModule;
let started = 0;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => void rejections.push(reason);
const stats = { sequences: 0, messages: 0, reconnects: 0 };
/** The highest seq any generated data message carried, and how far the server has acked. */
let highestSeq = 0;
let ackedUpTo = 0;
/** The time each seq was first sent with as well-formed data: a module resends a snapshot as it was. */
const firstTs = new Map<number, number>();

// ---- what is sent ----

type Action =
  | { kind: 'publish'; topic: string; payload: string | Buffer; seq?: number }
  | { kind: 'data'; seq: number; ts: number; body: unknown };

const blocks = encodeBlocks(layoutS, RUNNING);
const validData = (seq: number, ts: number) => ({ seq, ts, port: 'port1', address: 1, blocks });

/** Device times: now, the recent past, and clocks far off either way (1970, 2100, the last date JS knows …). */
const deviceTime = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -60_000, max: 5_000 }).map((d) => Date.now() + d) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      0,
      1,
      946_684_800_000,
      Date.now() - 400 * DAY,
      Date.now() + 2 * DAY,
      Date.now() + 365 * DAY,
      4_102_444_800_000,
      8_640_000_000_000_000,
      Number.MAX_SAFE_INTEGER,
    ),
  },
);

/** Seqs around the next one: repeats of earlier ones, the next, and gaps. */
const seqOffset = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 3 }) },
  fc.constantFrom(50, 10_000, -1_000_000),
);

function dataAction(): fc.Arbitrary<Action> {
  const valid = fc.tuple(seqOffset, deviceTime).map(([d, ts]) => ({ d, ts, body: null as unknown }));
  return fc
    .oneof(
      { weight: 5, arbitrary: valid },
      {
        weight: 3,
        arbitrary: fc.tuple(seqOffset, deviceTime, fc.nat(), hostileValue).chain(([d, ts]) =>
          mutated(fc.constant(validData(1, ts)), ['seq', 'ts', 'port', 'address', 'blocks', 'error']).map((body) => ({
            d,
            ts,
            body,
          })),
        ),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            seqOffset,
            deviceTime,
            fc.constantFrom<[string, unknown]>(
              ['blocks', [{ fc: 3, start: 0, words: [70000] }]],
              ['blocks', [{ fc: 3, start: 65535, words: [1, 2] }]],
              ['blocks', [{ fc: 1, start: 0, bits: [1, 0] }]],
              ['blocks', [{ fc: 9, start: 0, words: [1] }]],
              ['blocks', Array.from({ length: 65 }, () => ({ fc: 3, start: 0, words: [1] }))],
              ['blocks', []],
              ['address', 2],
              ['port', 'port9'],
              ['error', 'controller does not answer'],
              ['error', 'e'.repeat(501)],
              ['seq', 0],
              ['seq', 1.5],
              ['ts', -1],
              ['ts', '2026-01-01'],
            ),
          )
          .map(([d, ts, [k, v]]) => ({ d, ts, body: { ...validData(1, ts), [k]: v } })),
      },
    )
    .map(({ d, ts, body }) => {
      const seq = Math.max(1, highestSeq + 1 + d);
      const message = body === null ? validData(seq, ts) : body;
      // A broken message keeps the seq it was drawn with when it has one, so repeats and gaps mix with errors.
      if (
        message &&
        typeof message === 'object' &&
        !Array.isArray(message) &&
        typeof (message as { seq?: unknown }).seq === 'number' &&
        (message as { seq: number }).seq === 1
      )
        (message as { seq: number }).seq = seq;
      return { kind: 'data' as const, seq, ts, body: message };
    });
}

const rawPayload: fc.Arbitrary<string | Buffer> = fc.oneof(
  hostileValue.map((v) => JSON.stringify(v) ?? ''),
  fc.constantFrom<string | Buffer>(
    '',
    '{',
    'null',
    '{"seq":NaN}',
    `{"seq":1e999,"ts":1}`,
    `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    '{"__proto__":{"polluted":true}}',
    Buffer.from([0xff, 0xfe, 0xfd, 0x7b, 0x22]),
    Buffer.alloc(MQTT_MAX_PAYLOAD_BYTES + 1, 0x20),
    `{"seq":1,"ts":1,"port":"port1","address":1,"blocks":[],"pad":"${'x'.repeat(MQTT_MAX_PAYLOAD_BYTES)}"}`,
  ),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
);

function otherAction(modemKey: string): fc.Arbitrary<Action> {
  const topic = (channel: string) => `modem/${modemKey}/${channel}`;
  const json = (v: unknown) => JSON.stringify(v) ?? '';
  return fc.oneof(
    // the module's other channels, well-formed and not
    fc
      .constantFrom(
        { model: 'X1', firmware: '1.0', imei: '1', iccid: '2', controllers: [{ port: 'port1', address: 1 }] },
        { model: 'X1', firmware: '1.0', imei: '1', iccid: '2', controllers: [] },
        { model: 'm'.repeat(65), firmware: '', imei: '', iccid: '', controllers: [] },
        { model: 'a\u0000b', firmware: '<b>1</b>', imei: "' OR 1=1", iccid: '\ud800', controllers: [] },
      )
      .map((hello) => ({ kind: 'publish' as const, topic: topic('hello'), payload: json(hello) })),
    fc
      .constantFrom<unknown>(
        { ts: Date.now(), gps: { lat: 52.5, lon: 13.4 }, signal: { rssi: -70, csq: 20 } },
        { ts: Date.now(), gps: { lat: 91, lon: 0 } },
        { ts: Date.now(), inputs: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`in${i}`, true])) },
        { ts: Date.now(), inputs: { 'a\u0000': 1, __proto__: 2 } },
        { ts: Number.MAX_SAFE_INTEGER, heartbeat: { uptimeS: 1, outboxSize: 0, lastSeq: 2 ** 60 } },
      )
      .map((event) => ({ kind: 'publish' as const, topic: topic('event'), payload: json(event) })),
    fc
      .constantFrom('online', 'offline', 'OFFLINE', '', 'x'.repeat(1000))
      .map((payload) => ({ kind: 'publish' as const, topic: topic('state'), payload })),
    fc
      .constantFrom<unknown>(
        { id: 'nope', ok: true },
        { id: 'nope', ok: false },
        { id: '', ok: true },
        { id: 'x'.repeat(65), ok: true },
        { id: 'nope', ok: true, data: { ts: 1, blocks: [{ fc: 3, start: 0, words: [1] }] } },
      )
      .map((reply) => ({ kind: 'publish' as const, topic: topic('reply'), payload: json(reply) })),
    // anything on any channel
    fc
      .tuple(fc.constantFrom('hello', 'event', 'reply', 'state', 'data'), rawPayload)
      .map(([channel, payload]) => ({ kind: 'publish' as const, topic: topic(channel), payload })),
    // topics that are not the module's: refused by the broker
    fc
      .tuple(
        fc.constantFrom(
          topic('bogus'),
          topic('plan'),
          topic('ack'),
          `modem/${modemKey}`,
          `modem/${modemKey}/data/extra`,
          'modem/OTHER-MODULE/data',
          'foo/bar',
          '$SYS/broker',
          'modem//data',
        ),
        rawPayload,
      )
      .map(([to, payload]) => ({ kind: 'publish' as const, topic: to, payload })),
  );
}

// ---- the module's side ----

async function connect() {
  module = await connectFakeModule(brokerUrl, set.modemKey, set.secret, { will: false });
  module.client.on('message', (topicName, payload) => {
    if (!topicName.endsWith('/ack')) return;
    try {
      const { upTo } = JSON.parse(payload.toString()) as { upTo: number };
      if (upTo > ackedUpTo) ackedUpTo = upTo;
    } catch {
      // an ack is always JSON; the test checks what it needs through the database
    }
  });
}

/** Publishes at QoS 1; a broker that refuses closes the connection, and the module connects again. */
async function publish(topicName: string, payload: string | Buffer) {
  stats.messages++;
  const sent = module.client.publishAsync(topicName, payload, { qos: 1 }).then(
    () => true,
    () => false,
  );
  const client = module.client;
  let onClose!: () => void;
  const closed = new Promise<boolean>((r) => client.once('close', (onClose = () => r(false))));
  const ok = await Promise.race([sent, closed, new Promise<boolean>((r) => setTimeout(() => r(false), 3000))]);
  client.off('close', onClose);
  if (!ok || !module.client.connected) {
    stats.reconnects++;
    module.client.end(true);
    await connect();
  }
}

async function samples() {
  return t.app.database.db.selectFrom('sample').select(['seq', 'ts']).where('modem_id', '=', set.modemId).execute();
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  started = Date.now();
  process.on('unhandledRejection', onRejection);
  log = errorLog();
  t = await createTestApp({ INGEST_PERSIST_MS: '200', INGEST_GAP_WAIT_MS: '300' }, { logger: log.logger });
  brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId as number;
  set = await newSet(t, { companyId, name: 'MQTT fuzz set' });
  await connect();
});

afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  console.log(
    `MQTT fuzzing (seed ${assertOptions(0, 0).seed}): ${stats.sequences} sequences, ${stats.messages} messages, ` +
      `${stats.reconnects} reconnects after a refusal, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await module?.client.endAsync().catch(() => undefined);
  await t?.close();
});

describe('MQTT fuzzing', () => {
  it('stores well-formed data exactly once and nothing wrong, whatever a module sent before', async () => {
    const action = fc.oneof({ weight: 3, arbitrary: dataAction() }, { weight: 2, arbitrary: otherAction('MODEM') });
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 6 }), async (actions) => {
        stats.sequences++;
        log.lines.length = 0;
        for (const a of actions) {
          if (a.kind === 'data') {
            highestSeq = Math.max(highestSeq, a.seq);
            if (!firstTs.has(a.seq)) firstTs.set(a.seq, a.ts);
            await publish(`modem/${set.modemKey}/data`, JSON.stringify(a.body) ?? '');
          } else {
            await publish(a.topic.replace('/MODEM/', `/${set.modemKey}/`), a.payload);
          }
        }
        // What a module does next: it sends again what it still holds (the few seqs not acked yet) and a new
        // snapshot, and sends that one again until it is acked (holes are acked past after INGEST_GAP_WAIT_MS).
        const next = highestSeq + 1;
        highestSeq = next;
        for (let seq = Math.max(ackedUpTo + 1, next - 10); seq < next; seq++) {
          await publish(`modem/${set.modemKey}/data`, JSON.stringify(validData(seq, firstTs.get(seq) ?? Date.now())));
        }
        const snapshot = JSON.stringify(validData(next, Date.now()));
        await publish(`modem/${set.modemKey}/data`, snapshot);
        await until(`ack of seq ${next}`, async () => {
          if (ackedUpTo >= next) return true;
          await new Promise((r) => setTimeout(r, 150));
          if (ackedUpTo < next) await publish(`modem/${set.modemKey}/data`, snapshot);
          return ackedUpTo >= next;
        });
        const rows = await samples();
        expect(
          rows.filter((r) => Number(r.seq) === next),
          `seq ${next} stored once`,
        ).toHaveLength(1);
        const seqs = rows.map((r) => Number(r.seq));
        expect(seqs.length, 'no seq stored twice').toBe(new Set(seqs).size);
        const health = await call(t.app, 'GET', '/company/getName', { query: { hostname: 'demo.localhost' } });
        expect(health.code, 'the server answers').toBe(200);
        expect(log.lines, 'errors logged').toEqual([]);
        expect(rejections, 'unhandled rejections').toEqual([]);
        // Samples dated far in the future are stored (see the test below): not checked here so that the rest is.
      }),
      assertOptions(1, runs(32)),
    );
  }, 120_000);

  // On PostgreSQL the idempotency key of `sample` holds the time too (the partition key must be in it), so
  // ingestion itself tells a repeat of a seq with another time than the first from new data.
  it('stores a seq once even when a repeat carries another time', async () => {
    const seq = highestSeq + 1;
    highestSeq = seq;
    await publish(`modem/${set.modemKey}/data`, JSON.stringify(validData(seq, Date.now() - 5000)));
    await publish(`modem/${set.modemKey}/data`, JSON.stringify(validData(seq, Date.now())));
    await until(`ack of seq ${seq}`, () => ackedUpTo >= seq);
    await t.app.devices.ingest.flush();
    expect((await samples()).filter((r) => Number(r.seq) === seq)).toHaveLength(1);
  });

  // A snapshot dated years ahead would become the set's latest reading for good, and every later (true) one
  // an older resend: it is refused (and acked), and the set goes on following its module.
  it('refuses data dated far in the future, and later snapshots still move the set on', async () => {
    const far = Date.now() + 365 * DAY;
    const seq = highestSeq + 1;
    highestSeq = seq + 1;
    await publish(`modem/${set.modemKey}/data`, JSON.stringify(validData(seq, far)));
    const now = Date.now();
    await publish(`modem/${set.modemKey}/data`, JSON.stringify(validData(seq + 1, now)));
    await until(`ack of seq ${seq + 1}`, () => ackedUpTo >= seq + 1);
    await t.app.devices.ingest.flush();
    const rows = await samples();
    expect(rows.filter((r) => Number(r.ts) > Date.now() + FUTURE_SLACK_MS)).toEqual([]);
    const latest = await t.app.database.db
      .selectFrom('set_latest')
      .select('device_ts')
      .where('genset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    // (the property test before may have left a reading a little ahead, within the slack)
    expect(Number(latest.device_ts)).toBeGreaterThanOrEqual(now);
    expect(Number(latest.device_ts)).toBeLessThan(now + FUTURE_SLACK_MS);
  });
});
