// Data for history, alarm and dashboard tests: sets bound to a module on the embedded broker (so samples go
// through the real ingestion path), and rows written straight into the rollup and alarm tables for ranges
// far longer than a test could wait for, in the exact formats ingestion writes.
import { layoutS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from '../helpers.ts';
import { encodeBlocks } from './encode.ts';
import { connectFakeModule, type FakeModule } from './fake-module.ts';
import type { ItemStats } from '../../src/modules/devices/ingest/bucket-stats.ts';

export type { ItemStats };

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

let n = 0;

/**
 * A test server listening (so modules reach its broker), the demo company's manager signed in, and a stranger: the
 * administrator of another company, who sees none of the manager's sets.
 */
export async function serverWithStranger() {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const companyId: number = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  const strangerCompany = await createCompany(t, 'Other Power Ltd');
  const u = await freshUser(t, { companyId: strangerCompany, role: 'companyAdmin' });
  const stranger = await login(t.app, u.account, u.password);
  return { t, manager, companyId, strangerCompany, stranger };
}

export async function newSet(
  t: TestApp,
  o: {
    companyId: number;
    ownerUserId?: number | null;
    name?: string;
    timeZone?: string;
    details?: Record<string, unknown>;
  },
) {
  const modemKey = `HIST${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId: o.companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId: o.companyId,
    ownerUserId: o.ownerUserId ?? null,
    name: o.name ?? `Set ${n}`,
    modemId: modem.id,
    protocolKey: layoutS.key,
    timeZone: o.timeZone ?? 'UTC',
    details: o.details ?? {},
  });
  t.app.devices.ingest.invalidate();
  // the set lists and the home page read the set directory: it reads the new set at once, as after an addition through the API
  t.app.gensets.directory.invalidate();
  return { modemKey, secret: modem.secret, modemId: modem.id, ...set };
}

/** A module connected to the test server's broker, sending snapshots of engineering values. */
export async function moduleFor(t: TestApp, set: { modemKey: string; secret: string }) {
  const module = await connectFakeModule(`mqtt://127.0.0.1:${t.app.devices.transport.port}`, set.modemKey, set.secret);
  let seq = 0;
  return {
    module,
    /** Sends one snapshot and waits until it is stored (acked) and its rollups and latest values written. */
    async send(values: Record<string, number>, ts: number) {
      seq++;
      const upTo = seq;
      await module.publish('data', {
        seq,
        ts,
        port: 'port1',
        address: 1,
        blocks: encodeBlocks(layoutS, values),
      });
      await module.waitFor('ack', (a: { upTo: number }) => a.upTo >= upTo);
      await t.app.devices.ingest.flush();
    },
    close: () => module.close(),
  } satisfies { module: FakeModule; send: unknown; close: unknown };
}

/** Values of a running set as the layout-S controller reports them. */
export const RUNNING = {
  mode: 1,
  engine_state: 9,
  engine_rpm: 1500,
  gen_freq: 50,
  gen_on_load: 1,
  fuel_level: 80,
  coolant_temp: 82,
};

/** Stats of one bucket whose readings averaged `avg`, spread ±spread, `n` readings. */
export function stats(avg: number, o: { spread?: number; n?: number; first?: number; last?: number } = {}): ItemStats {
  const count = o.n ?? 60;
  const spread = o.spread ?? 1;
  return {
    min: avg - spread,
    max: avg + spread,
    sum: avg * count,
    n: count,
    first: o.first ?? avg,
    last: o.last ?? avg,
  };
}

/** Writes rollup rows (hour or day) in chunks, as ingestion stores them. */
export async function insertRollups(
  t: TestApp,
  table: 'rollup_hour' | 'rollup_day',
  gensetId: number,
  rows: { bucket: number; stats: Record<string, ItemStats> }[],
) {
  const db = t.app.database.db;
  for (let i = 0; i < rows.length; i += 400) {
    await db
      .insertInto(table)
      .values(
        rows.slice(i, i + 400).map((r) => ({
          genset_id: gensetId,
          bucket: r.bucket,
          stats: JSON.stringify(r.stats),
          samples: Math.max(...Object.values(r.stats).map((s) => s.n)),
        })),
      )
      .execute();
  }
}

/** Alarm titles in the six languages, as ingestion copies them from the protocol. */
export function alarmTitle(code: string) {
  const def = layoutS.alarms.find((a) => a.code === code);
  if (!def) throw new Error(`no alarm ${code}`);
  return def.title;
}

export async function insertAlarm(
  t: TestApp,
  gensetId: number,
  a: { code: string; level: string; start: number; end: number | null },
) {
  const row = await t.app.database.db
    .insertInto('alarm')
    .values({
      genset_id: gensetId,
      code: a.code,
      level: a.level,
      title: JSON.stringify(alarmTitle(a.code)),
      start_ts: a.start,
      end_ts: a.end,
      acknowledged: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
