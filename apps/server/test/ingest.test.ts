// Ingestion with a bare MQTT client in the module's place: acks after commit, idempotent seq, status and alarms,
// rollups (across hours, after a crash), bounded memory, refusals and restarts. The realtime channel and commands
// are in ingest-commands.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { call } from './helpers.ts';
import { connectFakeModule, type FakeModule } from './support/fake-module.ts';
import {
  brokerUrl,
  data,
  manager,
  newSet,
  RUNNING,
  samples,
  standaloneIngest,
  STOPPED,
  t,
  useIngestWorld,
} from './support/ingest-world.ts';

useIngestWorld();

/** A set's status as the API gives it. */
const statusOf = async (setToken: string) =>
  (await call(t.app, 'POST', '/devicedata/getstatus', { token: manager, body: { token: setToken } })).data.status;
/** Why a set went offline, each time it did. */
const offlineReasons = async (gensetId: number) =>
  (
    await t.app.database.db
      .selectFrom('status_change')
      .select('reason')
      .where('genset_id', '=', gensetId)
      .where('status', '=', 0)
      .execute()
  ).map((r) => r.reason);

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
    await expect.poll(() => statusOf(set.token), { timeout: 5000 }).toBe(0);
    expect(await offlineReasons(set.id)).toContain('moduleOffline');

    const quiet = await newSet();
    const m2 = await connectFakeModule(brokerUrl, quiet.modemKey, quiet.secret, { will: false });
    await m2.publish('data', data(1, RUNNING));
    await m2.waitFor('ack');
    // Offline rate 2 s: nothing for three periods and the set is offline although the connection stays.
    await expect.poll(() => statusOf(quiet.token), { timeout: 10_000, interval: 500 }).toBe(0);
    expect(await offlineReasons(quiet.id)).toEqual(['noData']);
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
