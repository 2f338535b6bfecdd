// When ingestion falls behind, the embedded broker stops reading from the modules instead of queueing their
// data in server memory; the modules keep it and everything is stored once the queue has room again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule } from './support/fake-module.ts';

const QUEUE_LIMIT = 20;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ INGEST_QUEUE_LIMIT: String(QUEUE_LIMIT) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t.close());

it('holds back modules while the ingest queue is full and stores every snapshot afterwards', async () => {
  const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  const brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  const blocks = encodeBlocks(layoutS, { mode: 1, engine_state: 9, engine_rpm: 1500, gen_kw: 100 });
  const modules = [];
  for (let i = 0; i < 4; i++) {
    const modemKey = `PRESS${Date.now()}${i}`;
    const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
    const set = await t.app.devices.fleet.createGenset({
      companyId,
      ownerUserId: null,
      name: `Pressure ${i}`,
      modemId: modem.id,
      protocolKey: layoutS.key,
    });
    modules.push({ set, module: await connectFakeModule(brokerUrl, modemKey, modem.secret) });
  }
  t.app.devices.ingest.invalidate();
  const PER_MODULE = 1500;
  const t0 = Date.now() - PER_MODULE * 1000;
  await Promise.all(
    modules.map(({ module }) =>
      Promise.all(
        Array.from({ length: PER_MODULE }, (_, i) =>
          module.publish('data', { seq: i + 1, ts: t0 + i * 1000, port: 'port1', address: 1, blocks }),
        ),
      ),
    ),
  );
  for (const { module } of modules) await module.waitFor('ack', (a) => a.upTo === PER_MODULE, 30_000);
  const stats = t.app.devices.ingest.stats;
  expect(stats.throttled).toBeGreaterThan(0);
  // Past the limit the queue grows only by what was already read from each socket (Aedes parses whole
  // reads), not by everything the modules had to send.
  expect(stats.peakQueue).toBeLessThan((modules.length * PER_MODULE) / 4);
  for (const { set } of modules) {
    const rows = await t.app.database.db
      .selectFrom('sample')
      .select('seq')
      .where('genset_id', '=', set.id)
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: PER_MODULE }, (_, i) => i + 1));
  }
  for (const { module } of modules) await module.close();
});
