// Monthly partitions of the time-series tables on PostgreSQL (skipped without TEST_DATABASE_URL): a new
// database has this month's and the next months' partitions; an existing one keeps every row, id and key
// when migration 007 converts it; maintenance adopts rows that landed in the DEFAULT partition, makes the
// months ahead, drops months past RETENTION_MONTHS with the alarms and commands that old, and takes turns
// between instances.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from '../src/db/migrations/index.ts';
import { openDatabase, type OpenedDatabase } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import {
  addMonths,
  ensureMonthPartitions,
  listPartitions,
  maintainPartitions,
  monthStart,
  partitionName,
  startPartitionMaintenance,
} from '../src/db/partitions.ts';
import { PG_URL, createTestApp, type TestApp } from './helpers.ts';
import { newSet } from './support/history-data.ts';

const TABLES = ['sample', 'status_change', 'rollup_hour', 'rollup_day'] as const;

async function withClient<T>(work: (c: pg.Client) => Promise<T>, schema?: string): Promise<T> {
  const c = new pg.Client({
    connectionString: PG_URL,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** Rows per partition of a table: { sample_p2026_07: 3, sample_default: 1 }. */
async function rowsPerPartition(db: Kysely<Database>, table: string): Promise<Record<string, number>> {
  const { rows } = await sql<{ part: string; n: number }>`select tableoid::regclass::text as part, count(*) as n
    from ${sql.table(table)} group by 1`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.part.split('.').at(-1)!, Number(r.n)]));
}

function monthsFrom(start: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => addMonths(start, i));
}

describe.skipIf(!PG_URL)('time-series partitions on PostgreSQL', () => {
  let t: TestApp;
  let gensetId: number;
  let modemId: number;
  const now = Date.now();
  const current = monthStart(now);

  beforeAll(async () => {
    t = await createTestApp();
    const set = await newSet(t, { companyId: 2 });
    gensetId = set.id;
    modemId = set.modemId;
  });
  afterAll(async () => t?.close());

  it('gives a new database the partitions of this month and the next two, and a DEFAULT one', async () => {
    for (const table of TABLES) {
      const parts = await listPartitions(t.app.database.db, table);
      expect(parts.map((p) => p.name).sort()).toEqual(
        [...monthsFrom(current, 3).map((m) => partitionName(table, m)), `${table}_default`].sort(),
      );
      const month = parts.find((p) => p.name === partitionName(table, current))!;
      expect([month.from, month.to]).toEqual([current, addMonths(current, 1)]);
    }
  });

  it('stores a sample once per (modem, seq, ts) and files it under its month', async () => {
    const db = t.app.database.db;
    const row = { modem_id: modemId, seq: 1, genset_id: gensetId, ts: now, status: 3, values: '{}' };
    await db.insertInto('sample').values(row).execute();
    const again = await db
      .insertInto('sample')
      .values({ ...row, status: 1 })
      .onConflict((oc) => oc.columns(['modem_id', 'seq', 'ts']).doNothing())
      .returning('id')
      .execute();
    expect(again).toEqual([]);
    expect(await rowsPerPartition(db, 'sample')).toEqual({ [partitionName('sample', current)]: 1 });
  });

  it('adopts rows that went to the DEFAULT partition, creates the months ahead and drops months past retention', async () => {
    const db = t.app.database.db;
    const fiveAgo = addMonths(current, -5);
    const thirtyAgo = addMonths(current, -30);
    // A backlog older than the partitions, and a module whose clock was years behind: both land in DEFAULT.
    await db
      .insertInto('sample')
      .values([
        { modem_id: modemId, seq: 2, genset_id: gensetId, ts: fiveAgo + 1000, status: 3, values: '{}' },
        { modem_id: modemId, seq: 3, genset_id: gensetId, ts: fiveAgo + 2000, status: 3, values: '{}' },
        { modem_id: modemId, seq: 4, genset_id: gensetId, ts: thirtyAgo + 1000, status: 3, values: '{}' },
      ])
      .execute();
    await db
      .insertInto('rollup_day')
      .values([
        { genset_id: gensetId, bucket: fiveAgo, stats: '{}', samples: 1 },
        { genset_id: gensetId, bucket: current, stats: '{}', samples: 1 },
      ])
      .execute();
    expect(await rowsPerPartition(db, 'sample')).toMatchObject({ sample_default: 3 });

    // Alarms and commands: old and finished ones go with retention, open and pending ones stay.
    const alarm = (start: number, end: number | null) => ({
      genset_id: gensetId,
      code: 'low_fuel',
      level: 'warning',
      title: '{}',
      start_ts: start,
      end_ts: end,
      acknowledged: 0,
    });
    await db
      .insertInto('alarm')
      .values([alarm(thirtyAgo, thirtyAgo + 60_000), alarm(thirtyAgo, null), alarm(fiveAgo, fiveAgo + 60_000)])
      .execute();
    const command = (requestId: string, createdAt: number, status: string) => ({
      request_id: requestId,
      genset_id: gensetId,
      modem_id: modemId,
      user_id: null,
      kind: 'write',
      name: 'start',
      request: '{}',
      status,
      reply: null,
      created_at: createdAt,
      finished_at: null,
    });
    await db
      .insertInto('command')
      .values([
        command('old-done', thirtyAgo, 'ok'),
        command('old-pending', thirtyAgo, 'pending'),
        command('recent', fiveAgo, 'timeout'),
      ])
      .execute();

    const report = await maintainPartitions(db, { retentionMonths: 24, now });
    expect(report.skipped).toBe(false);
    expect(report.created).toEqual(
      expect.arrayContaining([partitionName('sample', fiveAgo), partitionName('rollup_day', fiveAgo)]),
    );
    expect(report.created).not.toContain(partitionName('sample', thirtyAgo));
    expect(report.moved).toBe(3);
    expect(report.deletedFromDefault).toBe(1);
    expect(await rowsPerPartition(db, 'sample')).toEqual({
      [partitionName('sample', current)]: 1,
      [partitionName('sample', fiveAgo)]: 2,
    });
    expect(await rowsPerPartition(db, 'rollup_day')).toEqual({
      [partitionName('rollup_day', current)]: 1,
      [partitionName('rollup_day', fiveAgo)]: 1,
    });
    expect(report.deletedAlarms).toBe(1);
    expect(report.deletedCommands).toBe(1);
    const alarms = await db
      .selectFrom('alarm')
      .select(['start_ts', 'end_ts'])
      .where('genset_id', '=', gensetId)
      .execute();
    expect(alarms.map((a) => [Number(a.start_ts), a.end_ts === null ? null : Number(a.end_ts)]).sort()).toEqual(
      [
        [thirtyAgo, null],
        [fiveAgo, fiveAgo + 60_000],
      ].sort(),
    );
    const commands = await db.selectFrom('command').select('request_id').orderBy('request_id').execute();
    expect(commands.map((c) => c.request_id)).toEqual(['old-pending', 'recent']);

    // Two years and a half later: new months ahead, and every month before the retention window is gone.
    // Retention keeps 24 whole months before the current one: the month 24 months back stays, 25 back goes.
    const later = addMonths(current, 30) + 5 * 86_400_000;
    await db.transaction().execute(async (trx) => {
      await ensureMonthPartitions<Database>(trx, { table: 'sample', column: 'ts' }, [
        addMonths(current, 5),
        addMonths(current, 6),
      ]);
    });
    const report2 = await maintainPartitions(db, { retentionMonths: 24, now: later });
    expect(report2.created).toEqual(
      expect.arrayContaining(monthsFrom(addMonths(current, 30), 3).map((m) => partitionName('sample', m))),
    );
    expect(report2.dropped).toEqual(
      expect.arrayContaining([
        partitionName('sample', fiveAgo),
        partitionName('sample', current),
        partitionName('sample', addMonths(current, 5)),
        partitionName('rollup_day', fiveAgo),
      ]),
    );
    expect((await listPartitions(db, 'sample')).map((p) => p.name).sort()).toEqual(
      [
        partitionName('sample', addMonths(current, 6)),
        ...monthsFrom(addMonths(current, 30), 3).map((m) => partitionName('sample', m)),
        'sample_default',
      ].sort(),
    );
    expect(await db.selectFrom('sample').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('rollup_day').select('bucket').execute()).toEqual([]);
  });

  it('keeps everything with RETENTION_MONTHS=0', async () => {
    const db = t.app.database.db;
    const before = (await listPartitions(db, 'sample')).map((p) => p.name);
    const report = await maintainPartitions(db, { retentionMonths: 0, now: addMonths(current, 120) });
    expect(report.dropped).toEqual([]);
    const after = (await listPartitions(db, 'sample')).map((p) => p.name);
    expect(after).toEqual(expect.arrayContaining(before));
  });

  it('skips a run while another instance holds the maintenance lock', async () => {
    const db = t.app.database.db;
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const schema = rows[0]!.schema;
    await withClient(async (other) => {
      await other.query(`select pg_advisory_lock(hashtext(current_schema() || '.partition-maintenance'))`);
      expect((await maintainPartitions(db, { retentionMonths: 24 })).skipped).toBe(true);
      await other.query(`select pg_advisory_unlock(hashtext(current_schema() || '.partition-maintenance'))`);
    }, schema);
    expect((await maintainPartitions(db, { retentionMonths: 24 })).skipped).toBe(false);
  });

  it('runs at start and on demand from the server, and not on SQLite', async () => {
    const runs = startPartitionMaintenance({
      database: t.app.database,
      retentionMonths: 24,
      log: t.app.log,
      everyMs: 3_600_000,
    });
    await runs.ready;
    expect((await runs.run())?.skipped).toBe(false);
    await runs.stop();
    const onSqlite = startPartitionMaintenance({
      database: { db: t.app.database.db, kind: 'sqlite' },
      retentionMonths: 24,
      log: t.app.log,
    });
    expect(await onSqlite.run()).toBeNull();
    await onSqlite.stop();
  });
});

describe.skipIf(!PG_URL)('migration 007 on an existing PostgreSQL database', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let opened: OpenedDatabase | undefined;

  beforeAll(async () => {
    await withClient((c) => c.query(`create schema ${schema}`));
  });
  afterAll(async () => {
    await opened?.close();
    await withClient((c) => c.query(`drop schema ${schema} cascade`));
  });

  it('copies every row into the partitioned tables, keeps ids and keys, and ids count on', async () => {
    // The schema as it was before migration 007.
    const pool = new pg.Pool({ connectionString: PG_URL, max: 2, options: `-c search_path=${schema}` });
    const before = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const all = migrations('postgres');
    const earlier = Object.fromEntries(Object.entries(all).filter(([name]) => name < '007'));
    const migrator = new Migrator({
      db: before,
      provider: { getMigrations: async () => earlier },
      migrationTableSchema: schema,
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const now = Date.now();
    const months = [addMonths(monthStart(now), -14), addMonths(monthStart(now), -1), monthStart(now)];
    const samples = months.flatMap((m, i) =>
      [1, 2].map((k) => ({
        modem_id: 7,
        seq: i * 10 + k,
        genset_id: 3,
        ts: m + k * 3_600_000,
        status: 3,
        values: JSON.stringify({ gen_kw: i * 10 + k }),
      })),
    );
    await before.insertInto('sample').values(samples).execute();
    await before
      .insertInto('status_change')
      .values(months.map((m) => ({ genset_id: 3, status: 3, previous: 0, ts: m + 5, reason: 'values' })))
      .execute();
    await before
      .insertInto('rollup_hour')
      .values(months.map((m) => ({ genset_id: 3, bucket: m, stats: '{"gen_kw":{"n":1}}', samples: 1 })))
      .execute();
    await before
      .insertInto('rollup_day')
      .values(months.map((m) => ({ genset_id: 3, bucket: m, stats: '{"gen_kw":{"n":1}}', samples: 1 })))
      .execute();
    // (This pool reads bigints as text; the server's reads them as numbers.)
    const oldSamples = (await before.selectFrom('sample').selectAll().orderBy('id').execute()).map((r) => ({
      ...r,
      id: Number(r.id),
      seq: Number(r.seq),
      ts: Number(r.ts),
    }));
    await before.destroy();

    opened = await openDatabase(PG_URL!, { schema });
    const db = opened.db;
    expect(await db.selectFrom('sample').selectAll().orderBy('id').execute()).toEqual(oldSamples);
    const perMonth = await rowsPerPartition(db, 'sample');
    expect(perMonth).toEqual(Object.fromEntries(months.map((m) => [partitionName('sample', m), 2])));
    for (const table of ['status_change', 'rollup_hour', 'rollup_day'] as const) {
      expect(await rowsPerPartition(db, table)).toEqual(
        Object.fromEntries(months.map((m) => [partitionName(table, m), 1])),
      );
    }
    // The months of this and the next two are there too, and a DEFAULT partition.
    const names = (await listPartitions(db, 'sample')).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        ...monthsFrom(monthStart(now), 3).map((m) => partitionName('sample', m)),
        'sample_default',
      ]),
    );

    // The key still refuses a resend; a new sample gets the next id (now 64-bit).
    const resend = await db
      .insertInto('sample')
      .values({ ...samples[0]!, status: 1 })
      .onConflict((oc) => oc.columns(['modem_id', 'seq', 'ts']).doNothing())
      .returning('id')
      .execute();
    expect(resend).toEqual([]);
    const fresh = await db
      .insertInto('sample')
      .values({ modem_id: 7, seq: 100, genset_id: 3, ts: now, status: 3, values: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(fresh.id).toBeGreaterThan(Math.max(...oldSamples.map((s) => s.id)));
    const { rows } = await sql<{ type: string }>`select data_type as type from information_schema.columns
      where table_schema = current_schema() and table_name = 'sample' and column_name = 'id'`.execute(db);
    expect(rows[0]?.type).toBe('bigint');
  });
});
