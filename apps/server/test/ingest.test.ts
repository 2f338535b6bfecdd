// Ingestion and the realtime channel with a bare MQTT client in the module's place: acks after commit,
// idempotent seq, status and alarms, refusals, rates that follow watchers, commands and their outcomes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule, type FakeModule } from './support/fake-module.ts';
import { connectWs } from './support/ws-client.ts';
import { createIngest, type IngestOptions } from '../src/modules/devices/ingest/index.ts';
import { createLocalBus } from '../src/modules/devices/bus.ts';

let t: TestApp;
let baseUrl: string;
let brokerUrl: string;
let manager: string;
let viewer: string;
let companyId: number;

const RUNNING = {
  mode: 1,
  engine_state: 9,
  engine_rpm: 1500,
  gen_freq: 50,
  gen_kw: 120,
  gen_on_load: 1,
  fuel_level: 80,
  coolant_temp: 82,
};
const STOPPED = {
  mode: 2,
  engine_state: 0,
  engine_rpm: 0,
  gen_freq: 0,
  gen_kw: 0,
  gen_on_load: 0,
  fuel_level: 80,
  coolant_temp: 30,
};

let n = 0;
async function newSet(name = 'Test set') {
  const modemKey = `TEST${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  t.app.devices.ingest.invalidate();
  return { modemKey, secret: modem.secret, modemId: modem.id, ...set };
}

function data(seq: number, values: Record<string, number>, ts = Date.now()) {
  return { seq, ts, port: 'port1', address: 1, blocks: encodeBlocks(layoutS, values) };
}

async function samples(gensetId: number) {
  return t.app.database.db
    .selectFrom('sample')
    .select(['seq', 'ts', 'status'])
    .where('genset_id', '=', gensetId)
    .orderBy('seq')
    .execute();
}

/**
 * A second ingestion process on the test's database, as a restarted or another server would be: its transport
 * takes the messages `send` hands it for one module and keeps the acks it publishes.
 */
function standaloneIngest(modemKey: string, options: Partial<IngestOptions> = {}) {
  const handlers: ((modemKey: string, channel: 'data', payload: Buffer) => void)[] = [];
  const acks: number[] = [];
  /** The last ack of every module it was sent data for (`send(m, as)`). */
  const ackedOf = new Map<string, number>();
  const ingest = createIngest({
    db: t.app.database.db,
    transport: {
      port: undefined,
      onMessage: (h) => handlers.push(h as (typeof handlers)[number]),
      publish: async (modem, _channel, payload) => {
        const upTo = JSON.parse(String(payload)).upTo;
        if (modem === modemKey) acks.push(upTo);
        ackedOf.set(modem, upTo);
      },
      connected: () => true,
      close: async () => undefined,
    },
    protocols: t.app.devices.protocols,
    bus: createLocalBus(),
    log: t.app.log,
    expectedPeriodMs: () => 3_600_000,
    onHello: () => undefined,
    onReply: () => undefined,
    ...options,
  });
  const send = (m: object, as = modemKey) => handlers[0]!(as, 'data', Buffer.from(JSON.stringify(m)));
  return { ingest, acks, send, ackedOf };
}

beforeAll(async () => {
  t = await createTestApp({ ONLINE_RATE_MS: '500', OFFLINE_RATE_MS: '2000', COMMAND_TIMEOUT_MS: '1500' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => t.close());

describe('ingestion', () => {
  let set: Awaited<ReturnType<typeof newSet>>;
  let module: FakeModule;
  beforeEach(async () => {
    set = await newSet();
    module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
  });

  it('answers hello with a retained plan built from the protocol', async () => {
    await module.publish('hello', {
      model: 'X1',
      firmware: '1.0',
      imei: '1',
      iccid: '2',
      controllers: [{ port: 'port1', address: 1 }],
    });
    const plan = await module.waitFor('plan');
    expect(plan.controllers).toHaveLength(1);
    expect(plan.controllers[0]).toMatchObject({
      port: 'port1',
      address: 1,
      online: false,
      onlineRateMs: 500,
      offlineRateMs: 2000,
    });
    expect(plan.controllers[0].blocks.length).toBeGreaterThan(0);
    await module.close();
  });

  it('stores a snapshot, acks it after commit, and ignores a resend of the same seq', async () => {
    const ts = Date.now() - 5000;
    await module.publish('data', data(1, RUNNING, ts));
    expect(await module.waitFor('ack')).toEqual({ upTo: 1 });
    // A resend carries its original ts (DEVICES.md); different values show which one was kept.
    await module.publish('data', data(1, STOPPED, ts));
    await module.waitFor('ack', () => module.received.filter((r) => r.channel === 'ack').length >= 2);
    expect(await samples(set.id)).toEqual([{ seq: 1, ts, status: 3 }]);
    const info = await call(t.app, 'POST', '/devicedata/getstatus', { token: manager, body: { token: set.token } });
    expect(info.data).toMatchObject({
      status: 3,
      alarmnum: 0,
      gsname: 'Test set',
      modulename: set.modemKey,
      template: 'S',
      ts,
    });
    const list = await call(t.app, 'POST', '/realTimeData/monitorList', {
      token: manager,
      lang: 'zh-CN',
      body: { token: set.token },
    });
    const rpm = list.data.items.find((i: any) => i.key === 'engine_rpm');
    expect(rpm).toMatchObject({ value: 1500, unit: 'r/min' });
    expect(rpm.name).toMatch(/[\u4e00-\u9fff]/);
    await module.close();
  });

  it('stores each seq once when a batch holds the same seq twice, and counts it once in the rollups', async () => {
    const t0 = Date.UTC(2026, 10, 17, 9, 0);
    await Promise.all(
      [1, 2, 2, 3, 1].map((seq) =>
        module.publish('data', data(seq, { ...RUNNING, gen_kw: seq * 10 }, t0 + seq * 1000)),
      ),
    );
    await module.waitFor('ack', (a) => a.upTo === 3);
    expect((await samples(set.id)).map((r) => r.seq)).toEqual([1, 2, 3]);
    await t.app.devices.ingest.flush();
    const hour = await t.app.database.db
      .selectFrom('rollup_hour')
      .selectAll()
      .where('genset_id', '=', set.id)
      .where('bucket', '=', t0)
      .executeTakeFirstOrThrow();
    expect(hour.samples).toBe(3);
    expect(JSON.parse(hour.stats).gen_kw).toMatchObject({ sum: 60, n: 3 });
    await module.close();
  });

  it('records status transitions with device time', async () => {
    const t0 = Date.now() - 10_000;
    await module.publish('data', data(1, STOPPED, t0));
    await module.publish('data', data(2, RUNNING, t0 + 1000));
    await module.publish('data', data(3, STOPPED, t0 + 2000));
    await module.waitFor('ack', (a) => a.upTo === 3);
    const changes = await t.app.database.db
      .selectFrom('status_change')
      .select(['status', 'previous', 'ts'])
      .where('genset_id', '=', set.id)
      .orderBy('id')
      .execute();
    expect(changes).toEqual([
      { status: 1, previous: 0, ts: t0 },
      { status: 3, previous: 1, ts: t0 + 1000 },
      { status: 1, previous: 3, ts: t0 + 2000 },
    ]);
    await module.close();
  });

  it('opens one alarm per fault, never duplicated, and closes it with an end time', async () => {
    const t0 = Date.now() - 10_000;
    await module.publish('data', data(1, { ...STOPPED, alarm_low_oil_pressure_shutdown: 1, common_shutdown: 1 }, t0));
    await module.publish(
      'data',
      data(2, { ...STOPPED, alarm_low_oil_pressure_shutdown: 1, common_shutdown: 1 }, t0 + 500),
    );
    await module.publish('data', data(3, STOPPED, t0 + 1000));
    await module.waitFor('ack', (a) => a.upTo === 3);
    const alarms = await t.app.database.db.selectFrom('alarm').selectAll().where('genset_id', '=', set.id).execute();
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      code: 'low_oil_pressure_shutdown',
      level: 'shutdown',
      start_ts: t0,
      end_ts: t0 + 1000,
    });
    expect(JSON.parse(alarms[0]!.title)['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
    await module.close();
  });

  it('marks the set offline by the last will, and by three missed periods', async () => {
    await module.publish('data', data(1, RUNNING));
    await module.waitFor('ack');
    module.client.stream.destroy();
    await expect
      .poll(
        async () =>
          (await call(t.app, 'POST', '/devicedata/getstatus', { token: manager, body: { token: set.token } })).data
            .status,
        { timeout: 5000 },
      )
      .toBe(0);
    const reasons = await t.app.database.db
      .selectFrom('status_change')
      .select('reason')
      .where('genset_id', '=', set.id)
      .where('status', '=', 0)
      .execute();
    expect(reasons.map((r) => r.reason)).toContain('moduleOffline');

    const quiet = await newSet();
    const m2 = await connectFakeModule(brokerUrl, quiet.modemKey, quiet.secret, { will: false });
    await m2.publish('data', data(1, RUNNING));
    await m2.waitFor('ack');
    // Offline rate 2 s: nothing for three periods and the set is offline although the connection stays.
    await expect
      .poll(
        async () =>
          (await call(t.app, 'POST', '/devicedata/getstatus', { token: manager, body: { token: quiet.token } })).data
            .status,
        { timeout: 10_000, interval: 500 },
      )
      .toBe(0);
    const noData = await t.app.database.db
      .selectFrom('status_change')
      .select('reason')
      .where('genset_id', '=', quiet.id)
      .where('status', '=', 0)
      .execute();
    expect(noData.map((r) => r.reason)).toEqual(['noData']);
    await m2.close();
  });

  it('keeps hour and day rollups with min, max, average and last', async () => {
    const t0 = Date.UTC(2026, 10, 20, 10, 5);
    await module.publish('data', data(1, { ...RUNNING, gen_kw: 100 }, t0));
    await module.publish('data', data(2, { ...RUNNING, gen_kw: 200 }, t0 + 60_000));
    await module.publish('data', data(3, { ...RUNNING, gen_kw: 150 }, t0 + 120_000));
    await module.waitFor('ack', (a) => a.upTo === 3);
    // rollups are kept in memory and written every few seconds; flush writes them now
    await t.app.devices.ingest.flush();
    const hour = await t.app.database.db
      .selectFrom('rollup_hour')
      .selectAll()
      .where('genset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    expect(hour.bucket).toBe(Date.UTC(2026, 10, 20, 10));
    expect(hour.samples).toBe(3);
    expect(JSON.parse(hour.stats).gen_kw).toMatchObject({ min: 100, max: 200, sum: 450, n: 3, first: 100, last: 150 });
    const day = await t.app.database.db
      .selectFrom('rollup_day')
      .selectAll()
      .where('genset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    expect(day.bucket).toBe(Date.UTC(2026, 10, 20));
    await module.close();
  });
});

describe('rollups across hours', () => {
  it('keeps each hour once when resent samples of an older hour arrive between newer ones', async () => {
    const set = await newSet('Hour flip');
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    const h10 = Date.UTC(2026, 10, 19, 10, 30);
    const h11 = Date.UTC(2026, 10, 19, 11, 30);
    await Promise.all([
      module.publish('data', data(1, { ...RUNNING, gen_kw: 10 }, h10)),
      module.publish('data', data(2, { ...RUNNING, gen_kw: 20 }, h11)),
      module.publish('data', data(3, { ...RUNNING, gen_kw: 30 }, h10 + 60_000)),
    ]);
    await module.waitFor('ack', (a) => a.upTo === 3);
    await t.app.devices.ingest.flush();
    const hours = await t.app.database.db
      .selectFrom('rollup_hour')
      .selectAll()
      .where('genset_id', '=', set.id)
      .orderBy('bucket')
      .execute();
    expect(hours.map((h) => [h.bucket, h.samples])).toEqual([
      [Date.UTC(2026, 10, 19, 10), 2],
      [Date.UTC(2026, 10, 19, 11), 1],
    ]);
    expect(JSON.parse(hours[0]!.stats).gen_kw).toMatchObject({ min: 10, max: 30, n: 2 });
    await module.close();
  });
});

describe('rollups after a crash', () => {
  it('rebuilds the rollups and latest values of acked samples that were still in memory', async () => {
    const set = await newSet('Crash before persist');
    const standalone = (persistMs: number) => standaloneIngest(set.modemKey, { persistMs });
    const t0 = Date.UTC(2026, 10, 18, 7, 10);
    // The first process stores and acks three samples, then dies before it writes its rollups.
    const first = standalone(3_600_000);
    first.send(data(1, { ...RUNNING, gen_kw: 100 }, t0));
    first.send(data(2, { ...RUNNING, gen_kw: 300 }, t0 + 60_000));
    first.send(data(3, { ...RUNNING, gen_kw: 200 }, t0 + 120_000));
    await expect.poll(() => first.acks.at(-1)).toBe(3);
    const rollup = () =>
      t.app.database.db.selectFrom('rollup_hour').selectAll().where('genset_id', '=', set.id).executeTakeFirst();
    expect(await rollup()).toBeUndefined();
    expect(await samples(set.id)).toHaveLength(3);
    // The next process merges them in again from the stored samples, once.
    const second = standalone(3_600_000);
    await second.ingest.flush();
    const hour = await rollup();
    expect(hour?.samples).toBe(3);
    expect(JSON.parse(hour!.stats).gen_kw).toMatchObject({ min: 100, max: 300, n: 3, first: 100, last: 200 });
    const latest = await t.app.database.db
      .selectFrom('set_latest')
      .selectAll()
      .where('genset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    expect(latest.device_ts).toBe(t0 + 120_000);
    expect(JSON.parse(latest.values).gen_kw).toBe(200);
    // A resend of the same seqs stores nothing and counts nothing twice.
    second.send(data(3, { ...RUNNING, gen_kw: 200 }, t0 + 120_000));
    await expect.poll(() => second.acks.at(-1)).toBe(3);
    await second.ingest.flush();
    expect((await rollup())?.samples).toBe(3);
    await second.ingest.close();

    // A process that died after writing this set's rollups but before the end of its writing cycle left the
    // watermark behind: the set's own merged_id tells the next one that these samples are counted already.
    await t.app.devices.ingest.flush();
    await t.app.database.db
      .updateTable('ingest_state')
      .set({ value: 0 })
      .where('name', '=', 'rollup_sample_id')
      .execute();
    const third = standalone(3_600_000);
    await third.ingest.flush();
    expect((await rollup())?.samples).toBe(3);
    expect(JSON.parse((await rollup())!.stats).gen_kw).toMatchObject({ n: 3, sum: 600 });
    await third.ingest.close();
  });
});

describe('memory', () => {
  it('lets a set not heard from go once all of it is written, and takes it up again with its next data', async () => {
    const set = await newSet('Idle for a while');
    await t.app.devices.ingest.flush();
    const { ingest, acks, send } = standaloneIngest(set.modemKey, {
      persistMs: 100,
      setCache: { max: 10, idleMs: 1000 },
    });
    const t0 = Date.UTC(2026, 10, 18, 9, 5);
    send(data(1, { ...RUNNING, gen_kw: 100 }, t0));
    send(data(2, { ...RUNNING, gen_kw: 300 }, t0 + 60_000));
    await expect.poll(() => acks.at(-1)).toBe(2);
    expect(ingest.heldSets).toBe(1);
    // a second with nothing from it: written, then let go
    await expect.poll(() => ingest.heldSets, { timeout: 10_000 }).toBe(0);
    // its next data finds where it was: the hour goes on from the two samples, the latest values move on
    send(data(3, { ...RUNNING, gen_kw: 200 }, t0 + 120_000));
    await expect.poll(() => acks.at(-1)).toBe(3);
    expect(ingest.heldSets).toBe(1);
    await ingest.flush();
    const hour = await t.app.database.db
      .selectFrom('rollup_hour')
      .selectAll()
      .where('genset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    expect(hour.samples).toBe(3);
    expect(JSON.parse(hour.stats).gen_kw).toMatchObject({ min: 100, max: 300, n: 3, sum: 600, first: 100, last: 200 });
    const latest = await t.app.database.db
      .selectFrom('set_latest')
      .selectAll()
      .where('genset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    expect(latest.device_ts).toBe(t0 + 120_000);
    expect(JSON.parse(latest.values).gen_kw).toBe(200);
    await ingest.close();
  });

  it('holds no more sets than its limit: the least recently heard go first', async () => {
    const sets = [await newSet('Limit A'), await newSet('Limit B'), await newSet('Limit C')];
    await t.app.devices.ingest.flush();
    const {
      ingest,
      send,
      ackedOf: acked,
    } = standaloneIngest(sets[0]!.modemKey, {
      persistMs: 100,
      setCache: { max: 2, idleMs: 3_600_000 },
    });
    const ts = Date.now();
    for (const [i, s] of sets.entries()) {
      send(data(1, RUNNING, ts + i), s.modemKey);
      await expect.poll(() => acked.get(s.modemKey)).toBe(1);
    }
    // the third is beyond the limit: once the first is written, it goes (not one heard from since)
    await expect.poll(() => ingest.heldSets).toBe(2);
    send(data(2, RUNNING, ts + 10), sets[0]!.modemKey);
    await expect.poll(() => acked.get(sets[0]!.modemKey)).toBe(2);
    // taken up again, and B (now the least recently heard) goes
    await expect.poll(() => ingest.heldSets).toBe(2);
    await ingest.flush();
    const counted = await t.app.database.db
      .selectFrom('rollup_hour')
      .select(['genset_id', 'samples'])
      .where(
        'genset_id',
        'in',
        sets.map((s) => s.id),
      )
      .execute();
    expect(Object.fromEntries(counted.map((r) => [r.genset_id, r.samples]))).toEqual({
      [sets[0]!.id]: 2,
      [sets[1]!.id]: 1,
      [sets[2]!.id]: 1,
    });
    await ingest.close();
  });
});

describe('acks', () => {
  it('never ack past a seq that was not stored, and pass over a hole the module no longer fills', async () => {
    const set = await newSet('Hole in the seqs');
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    const t0 = Date.now() - 60_000;
    for (const seq of [1, 2, 4, 5]) await module.publish('data', data(seq, RUNNING, t0 + seq * 1000));
    await module.waitFor('ack', (a) => a.upTo === 2);
    await expect.poll(() => samples(set.id).then((r) => r.length)).toBe(4);
    await new Promise((r) => setTimeout(r, 300));
    // 4 and 5 are stored, but an ack of 5 would tell the module to forget 3, which nobody stored
    expect(module.received.filter((r) => r.channel === 'ack').map((r) => r.payload.upTo)).not.toContain(5);
    await module.publish('data', data(3, RUNNING, t0 + 3000));
    await module.waitFor('ack', (a) => a.upTo === 5);
    await module.close();

    // A second process that waits only 200 ms for a hole: seq 7 never comes, the ack moves past it.
    await t.app.devices.ingest.flush();
    const { ingest: other, acks, send: sendMessage } = standaloneIngest(set.modemKey, { gapWaitMs: 200 });
    const send = (seq: number) => sendMessage(data(seq, RUNNING, t0 + seq * 1000));
    send(6);
    send(8);
    await expect.poll(() => acks.at(-1)).toBe(6);
    await new Promise((r) => setTimeout(r, 300));
    send(9);
    await expect.poll(() => acks.at(-1)).toBe(9);
    await other.close();
  });
});

describe('refusals', () => {
  it('refuses wrong credentials, another modem’s topic, oversized and malformed messages, undisturbed', async () => {
    const a = await newSet('A');
    const b = await newSet('B');
    await expect(connectFakeModule(brokerUrl, a.modemKey, 'wrong-secret')).rejects.toThrow();
    await expect(connectFakeModule(brokerUrl, 'NOSUCHMODEM', 'x')).rejects.toThrow();

    const good = await connectFakeModule(brokerUrl, b.modemKey, b.secret);
    const intruder = await connectFakeModule(brokerUrl, a.modemKey, a.secret);
    const refusedBefore = t.app.devices.ingest.stats.refused;
    await intruder.publish('data', 'this is not json');
    await intruder.publish('data', { seq: 'one' });
    await expect.poll(() => t.app.devices.ingest.stats.refused).toBe(refusedBefore + 2);
    // Publishing under another modem's topic gets the intruder disconnected, and nothing is stored.
    const closed = new Promise<void>((r) => intruder.client.once('close', () => r()));
    intruder.client.publish(`modem/${b.modemKey}/data`, JSON.stringify(data(1, RUNNING)), { qos: 1 }, () => undefined);
    await closed;
    const big = await connectFakeModule(brokerUrl, a.modemKey, a.secret);
    const bigClosed = new Promise<void>((r) => big.client.once('close', () => r()));
    big.client.publish(`modem/${a.modemKey}/data`, Buffer.alloc(200 * 1024, 32), { qos: 1 }, () => undefined);
    await bigClosed;
    // Subscribing to someone else's requests is refused too.
    const spy = await connectFakeModule(brokerUrl, a.modemKey, a.secret);
    await expect(spy.client.subscribeAsync(`modem/${b.modemKey}/request`, { qos: 1 })).rejects.toThrow(
      /Subscribe error/,
    );
    await spy.close();

    await good.publish('data', data(1, RUNNING));
    expect(await good.waitFor('ack')).toEqual({ upTo: 1 });
    expect(await samples(b.id)).toHaveLength(1);
    expect(await samples(a.id)).toHaveLength(0);
    await good.close();
  });

  it('a raw client without credentials cannot connect', async () => {
    const client = mqtt.connect(brokerUrl, { reconnectPeriod: 0, connectTimeout: 3000 });
    await expect(
      new Promise((resolve, reject) => (client.once('connect', resolve), client.once('error', reject))),
    ).rejects.toThrow();
    client.end(true);
  });
});

describe('realtime', () => {
  it('pushes monitor messages for the watched set only, and switches the module to its online rate', async () => {
    const watched = await newSet('Watched');
    const other = await newSet('Other');
    const m1 = await connectFakeModule(brokerUrl, watched.modemKey, watched.secret);
    const m2 = await connectFakeModule(brokerUrl, other.modemKey, other.secret);
    await m1.publish('hello', {
      model: 'X1',
      firmware: '1.0',
      imei: '1',
      iccid: '2',
      controllers: [{ port: 'port1', address: 1 }],
    });
    await m1.waitFor('plan', (p) => p.controllers[0]?.online === false);

    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat(watched.token);
    await m1.waitFor('plan', (p) => p.controllers[0]?.online === true);
    await m1.publish('data', data(1, { ...RUNNING, gen_kw: 77 }));
    await m2.publish('data', data(1, { ...RUNNING, gen_kw: 99 }));
    const push = await ws.waitFor((m) => m.method === 'monitor' && m.data.values.gen_kw === 77);
    expect(push).toMatchObject({ token: watched.token, data: { status: 3, alarmnum: 0 } });
    await m1.publish('data', data(2, { ...STOPPED, alarm_emergency_stop: 1, common_shutdown: 1 }));
    const alarm = await ws.waitFor((m) => m.method === 'alarm' && m.alarmnum === 1);
    expect(alarm.list[0]).toMatchObject({ code: 'emergency_stop', level: 'shutdown' });
    expect(typeof alarm.list[0].title).toBe('string');
    await m2.waitFor('ack');
    expect(ws.messages.filter((m) => m.token === other.token)).toHaveLength(0);

    ws.heartbeat('');
    await m1.waitFor('plan', (p) => p.controllers[0]?.online === false);
    ws.close();
    await m1.close();
    await m2.close();
  });

  it('refuses a set the user may not see, and closes the socket for a bad user token', async () => {
    const set = await newSet();
    await t.app.database.db.updateTable('genset').set({ company_id: 1 }).where('id', '=', set.id).execute();
    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat(set.token);
    expect(await ws.waitFor((m) => m.method === 'error')).toMatchObject({ code: 404 });
    ws.close();
    const bad = await connectWs(baseUrl, 'A'.repeat(43), 'zh-CN');
    bad.heartbeat('');
    expect(await bad.waitFor((m) => m.method === 'error')).toMatchObject({ code: 101, msg: '请先登录。' });
    expect((await bad.closed).code).toBe(4001);
  });
});

describe('commands', () => {
  it('returns the controller’s answer, a failure, or a timeout — never a false success', async () => {
    const set = await newSet();
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    await module.publish('data', data(1, { ...STOPPED, mode: 1 }));
    await module.waitFor('ack');

    let answer: 'ok' | 'fail' | 'silent' = 'ok';
    module.client.on('message', (topic, payload) => {
      if (!topic.endsWith('/request') || answer === 'silent') return;
      const req = JSON.parse(payload.toString());
      void module.publish(
        'reply',
        answer === 'ok' ? { id: req.id, ok: true } : { id: req.id, ok: false, error: 'illegal data address' },
      );
    });

    const ok = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'start', password: 'Demo#2026' },
    });
    expect(ok).toMatchObject({ code: 200, data: { state: 'ok' } });
    const request = await module.waitFor('request');
    expect(request).toMatchObject({
      kind: 'write',
      port: 'port1',
      address: 1,
      writes: [{ fc: 5, address: 256, value: true }],
    });

    answer = 'fail';
    const failed = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'stop', password: 'Demo#2026' },
    });
    expect(failed).toMatchObject({ code: 502, data: { state: 'error' } });
    expect(failed.msg).toContain('illegal data address');

    answer = 'silent';
    const silent = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      lang: 'zh-CN',
      body: { token: set.token, action: 'auto' },
    });
    expect(silent.code).toBe(504);
    expect(silent.msg).toContain('秒内没有应答');

    const log = await t.app.database.db
      .selectFrom('operation_log')
      .select(['matter', 'feedback', 'account'])
      .where('target', '=', set.token)
      .orderBy('id')
      .execute();
    expect(log.map((l) => JSON.parse(l.feedback).outcome)).toEqual(['ok', 'failed', 'timeout']);
    expect(log[0]).toMatchObject({ matter: 'log.command', account: 'manager@example.com' });
    const commands = await t.app.database.db
      .selectFrom('command')
      .select(['name', 'status'])
      .where('genset_id', '=', set.id)
      .orderBy('id')
      .execute();
    expect(commands).toEqual([
      { name: 'start', status: 'ok' },
      { name: 'stop', status: 'failed' },
      { name: 'auto', status: 'timeout' },
    ]);

    await module.close();
    await expect.poll(() => t.app.devices.transport.connected(set.modemKey)).toBe(false);
    const offline = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'auto' },
    });
    expect(offline).toMatchObject({
      code: 504,
      msg: 'The cloud module of this set is offline, so the command was not sent.',
    });
  });

  it('checks rights, unknown commands, risky passwords and preconditions', async () => {
    const set = await newSet();
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    module.client.on('message', (topic, payload) => {
      if (topic.endsWith('/request')) void module.publish('reply', { id: JSON.parse(payload.toString()).id, ok: true });
    });
    await module.publish('data', data(1, { ...STOPPED, mode: 2 }));
    await module.waitFor('ack');

    // The viewer does not see company sets at all; once subscribed with view rights it sees but cannot control.
    expect(
      (await call(t.app, 'POST', '/devicedata/getstatus', { token: viewer, body: { token: set.token } })).code,
    ).toBe(404);
    const viewerId = (await call(t.app, 'GET', '/user/info', { token: viewer })).data.info.id;
    await t.app.devices.fleet.subscribe(set.id, viewerId, 'view');
    expect(
      (
        await call(t.app, 'POST', '/devicedata/sendaction', {
          token: viewer,
          body: { token: set.token, action: 'auto' },
        })
      ).code,
    ).toBe(403);
    expect(
      (await call(t.app, 'POST', '/devicedata/getstatus', { token: viewer, body: { token: set.token } })).code,
    ).toBe(200);
    expect(
      (
        await call(t.app, 'POST', '/devicedata/sendaction', {
          token: manager,
          body: { token: set.token, action: 'explode' },
        })
      ).msg,
    ).toBe('This set has no command “explode”.');
    expect(
      (
        await call(t.app, 'POST', '/devicedata/sendaction', {
          token: manager,
          body: { token: 'nope', action: 'start' },
        })
      ).code,
    ).toBe(404);
    expect(
      (await call(t.app, 'POST', '/devicedata/sendaction', { token: manager, body: { token: set.token } })).data.fields
        .action,
    ).toBe('Command: cannot be empty');

    const commands = (await call(t.app, 'POST', '/devicedata/commands', { token: manager, body: { token: set.token } }))
      .data;
    const risky = commands.find((c: any) => c.risky);
    expect(risky).toBeTruthy();
    const noPassword = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: risky.key },
    });
    expect(noPassword.data.fields.password).toBe('Password: This operation needs your account password.');
    const wrong = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: risky.key, password: 'Wrong#2026' },
    });
    expect(wrong.msg).toBe('The password is wrong.');

    // Start is refused in STOP mode by the protocol's precondition, before anything is sent.
    const before = module.received.filter((r) => r.channel === 'request').length;
    const refused = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'start', password: 'Demo#2026' },
    });
    expect(refused.code).toBe(409);
    expect(refused.msg).toMatch(/^Refused: /);
    expect(module.received.filter((r) => r.channel === 'request').length).toBe(before);
    await module.close();
  });

  it('restarts the module from form data with token and utoken', async () => {
    const set = await newSet();
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    module.client.on('message', (topic, payload) => {
      if (topic.endsWith('/request')) void module.publish('reply', { id: JSON.parse(payload.toString()).id, ok: true });
    });
    const { computeSign, DEFAULT_SIGN_SECRET } = await import('@genset/protocol');
    const time = String(Math.floor(Date.now() / 1000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/devicedata/restartmodem',
      headers: {
        'x-time': time,
        'x-sign': computeSign('', time, DEFAULT_SIGN_SECRET),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `token=${set.token}&utoken=${manager}`,
    });
    expect(res.json()).toMatchObject({ code: 200, msg: 'Operation successful.', data: { state: 'ok' } });
    expect(await module.waitFor('request')).toMatchObject({ kind: 'restart' });
    await module.close();
  });
});

describe('after a restart', () => {
  it('marks a module offline that was online before the restart and stays silent', async () => {
    const set = await newSet('Silent after restart');
    await t.app.database.db.updateTable('modem').set({ online: 1 }).where('id', '=', set.modemId).execute();
    await t.app.database.db
      .insertInto('set_latest')
      .values({
        genset_id: set.id,
        status: 3,
        alarm_count: 0,
        values: '{}',
        device_ts: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
    // A second server on the same database stands for the restarted one.
    const { createIngest } = await import('../src/modules/devices/ingest/index.ts');
    const { createLocalBus } = await import('../src/modules/devices/bus.ts');
    const handlers: unknown[] = [];
    const ingest = createIngest({
      db: t.app.database.db,
      transport: {
        port: undefined,
        onMessage: (h) => handlers.push(h),
        publish: async () => undefined,
        connected: () => false,
        close: async () => undefined,
      },
      protocols: t.app.devices.protocols,
      bus: createLocalBus(),
      log: t.app.log,
      expectedPeriodMs: () => 500,
      onHello: () => undefined,
      onReply: () => undefined,
    });
    await expect
      .poll(
        async () =>
          (
            await t.app.database.db
              .selectFrom('set_latest')
              .select('status')
              .where('genset_id', '=', set.id)
              .executeTakeFirst()
          )?.status,
        { timeout: 8000 },
      )
      .toBe(0);
    await ingest.close();
  });
});
