// A module's silence is judged from when its data was received, not from when the watchdog ran: a watchdog
// that runs late (the machine busy) while the module's data waits to be read does not take the set offline,
// a set that did go silent is recorded offline at its deadline (last data + three periods + grace), and a
// report period shortened since the module was last heard does not make it overdue at once.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { createIngest } from '../src/modules/devices/ingest/index.ts';
import { MISSED_PERIODS, OFFLINE_GRACE_MS } from '../src/modules/devices/ingest/presence.ts';
import { createLocalBus } from '../src/modules/devices/bus.ts';

const PERIOD_MS = 100;
const LIMIT_MS = MISSED_PERIODS * PERIOD_MS + OFFLINE_GRACE_MS;
const RUNNING = { mode: 1, engine_state: 9, engine_rpm: 1500, gen_freq: 50, gen_kw: 120, gen_on_load: 1 };

let t: TestApp;
let companyId: number;

beforeAll(async () => {
  t = await createTestApp();
  const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => t.close());

let n = 0;
async function newSet() {
  const modemKey = `PRES${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name: `Presence ${n}`,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  return { modemKey, ...set };
}

const data = (seq: number, ts = Date.now()) => ({
  seq,
  ts,
  port: 'port1',
  address: 1,
  blocks: encodeBlocks(layoutS, RUNNING),
});

/**
 * An ingestion of its own on the test's database whose module speaks through a real socket, so that what the
 * module sends while the event loop is busy waits to be read, as a broker's connection would.
 */
async function socketIngest(modemKey: string, periodMs: () => number = () => PERIOD_MS) {
  let handler!: (modemKey: string, channel: 'data', payload: Buffer) => Promise<void> | undefined;
  const ingest = createIngest({
    db: t.app.database.db,
    transport: {
      port: undefined,
      onMessage: (h) => (handler = h as typeof handler),
      publish: async () => undefined,
      connected: () => true,
      close: async () => undefined,
    },
    protocols: t.app.devices.protocols,
    bus: createLocalBus(),
    log: t.app.log,
    expectedPeriodMs: periodMs,
    onHello: () => undefined,
    onReply: () => undefined,
  });
  let serverSide!: Socket;
  const server: Server = createServer((socket) => {
    serverSide = socket;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        void handler(modemKey, 'data', Buffer.from(line));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  await expect.poll(() => serverSide !== undefined).toBe(true);
  return {
    ingest,
    send: (message: object) => client.write(`${JSON.stringify(message)}\n`),
    async close() {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ingest.close();
    },
  };
}

const statusRows = (gensetId: number) =>
  t.app.database.db
    .selectFrom('status_change')
    .select(['status', 'ts', 'reason'])
    .where('genset_id', '=', gensetId)
    .orderBy('ts')
    .orderBy('id')
    .execute();

const stored = async (gensetId: number, seq: number) =>
  (await t.app.database.db
    .selectFrom('sample')
    .select('seq')
    .where('genset_id', '=', gensetId)
    .where('seq', '=', seq)
    .executeTakeFirst()) !== undefined;

/** Keeps the event loop busy (nothing is read, no timer runs) until `until`, at least a watchdog round long. */
function busyUntil(until: number) {
  const end = Math.max(until, Date.now() + 1100);
  while (Date.now() < end) {
    /* the machine is busy */
  }
}

describe('a module’s silence', () => {
  it('is not taken for offline when its data waits to be read behind a watchdog that ran late', async () => {
    const set = await newSet();
    const m = await socketIngest(set.modemKey);
    m.send(data(1));
    await expect.poll(() => stored(set.id, 1)).toBe(true);
    const heardBy = Date.now();
    // In one callback after the reading of sockets: the module sends again (its data reaches the socket), then
    // the machine is busy past the module's deadline, so the watchdog's round, which comes first in the next
    // turn of the event loop, runs before that data is read.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        m.send(data(2));
        busyUntil(heardBy + LIMIT_MS + 1100);
        resolve();
      }),
    );
    await expect.poll(() => stored(set.id, 2)).toBe(true);
    await m.ingest.flush();
    const rows = await statusRows(set.id);
    expect(rows.map((r) => r.status)).toEqual([3]);
    expect(rows.filter((r) => r.reason === 'noData')).toEqual([]);
    await m.close();
  });

  it('is recorded offline at its deadline, not when the watchdog ran', async () => {
    const set = await newSet();
    const m = await socketIngest(set.modemKey);
    const sentAt = Date.now();
    m.send(data(1));
    await expect.poll(() => stored(set.id, 1)).toBe(true);
    const heardBy = Date.now();
    // the watchdog runs well after the deadline
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        busyUntil(heardBy + LIMIT_MS + 1500);
        resolve();
      }),
    );
    await expect.poll(async () => (await statusRows(set.id)).map((r) => r.status)).toEqual([3, 0]);
    const offline = (await statusRows(set.id))[1]!;
    expect(offline.reason).toBe('noData');
    // last data received between sentAt and heardBy: the record is that moment plus the offline period
    expect(offline.ts).toBeGreaterThanOrEqual(sentAt + LIMIT_MS);
    expect(offline.ts).toBeLessThanOrEqual(heardBy + LIMIT_MS);
    await m.close();
  });

  it('counts the report period the module had when it was last heard, when a page watching it shortens it', async () => {
    const set = await newSet();
    // the module reports every 1.5 s until a page watches its set, then every 100 ms (once its new plan reaches it)
    const slowMs = 1500;
    let period = slowMs;
    const m = await socketIngest(set.modemKey, () => period);
    const sentAt = Date.now();
    m.send(data(1));
    await expect.poll(() => stored(set.id, 1)).toBe(true);
    const heardBy = Date.now();
    period = PERIOD_MS;
    // past three of the new periods, within three of the old, the watchdog runs; the module stays silent
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        busyUntil(heardBy + LIMIT_MS + 1100);
        resolve();
      }),
    );
    await expect.poll(async () => (await statusRows(set.id)).map((r) => r.status), { timeout: 15_000 }).toEqual([3, 0]);
    // offline as of three of the periods it had when last heard, not of the shorter one
    const offline = (await statusRows(set.id))[1]!;
    expect(offline.ts).toBeGreaterThanOrEqual(sentAt + MISSED_PERIODS * slowMs + OFFLINE_GRACE_MS);
    await m.close();
  });
});
