// Monthly partitions of the time-series tables on PostgreSQL, and their retention.
//
// Partitioned by month of their time column (UTC, epoch milliseconds): `sample` and `status_change` by `ts`,
// `rollup_hour` and `rollup_day` by `bucket` (migration 007). Each has a DEFAULT partition that takes rows no
// month partition covers yet (a module whose clock is wrong, a backlog older than the partitions), so an insert
// never fails for want of a partition. Maintenance, at start and then daily:
// - creates the partitions of this month and the next MONTHS_AHEAD months, and of any month within the
//   retention that rows in the DEFAULT partition fall in (moving those rows into it);
// - with RETENTION_MONTHS > 0, drops every month partition that ended more than RETENTION_MONTHS whole months
//   before the current month, deletes rows that old from the DEFAULT partitions, and deletes alarms that
//   ended and commands that were sent before the same point. Open alarms and pending commands are never deleted.
// `alarm` and `command` are not partitioned: ingestion closes an alarm by its id and a reply finds its command by
// its request id, neither of which carries the time, and an alarm may stay open for longer than any retention.
//
// SQLite keeps a single table each and everything in it; retention applies on PostgreSQL only.
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DbKind, OpenedDatabase } from './database.ts';

export interface PartitionedTable {
  table: 'sample' | 'status_change' | 'rollup_hour' | 'rollup_day';
  /** The partition key: epoch milliseconds. */
  column: 'ts' | 'bucket';
}

export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'sample', column: 'ts' },
  { table: 'status_change', column: 'ts' },
  { table: 'rollup_hour', column: 'bucket' },
  { table: 'rollup_day', column: 'bucket' },
];

/** Month partitions made ahead of the current month. */
export const MONTHS_AHEAD = 2;
const DAY_MS = 86_400_000;
/** Rows deleted per statement when alarms and commands are pruned. */
const DELETE_CHUNK = 5000;
/** A maintenance run waits at most this long for a lock on a table ingestion or a query holds. */
const LOCK_TIMEOUT = '5s';

/**
 * The columns the idempotency key of `sample` has on this database: PostgreSQL needs the partition key in
 * every unique constraint, so there it is (modem, seq, ts). A module resends a snapshot with its original `ts`
 * (DEVICES.md), so a resend still hits the key.
 */
export function sampleKeyColumns<DB>(db: Kysely<DB>): readonly ('modem_id' | 'seq' | 'ts')[] {
  return db.getExecutor().adapter instanceof PostgresAdapter ? ['modem_id', 'seq', 'ts'] : ['modem_id', 'seq'];
}

/** Start of the UTC month `ts` falls in. */
export function monthStart(ts: number): number {
  const d = new Date(ts);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Start of the month `n` months after the month starting at `month` (n may be negative). */
export function addMonths(month: number, n: number): number {
  const d = new Date(month);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
}

/** `sample_p2026_07` for July 2026. */
export function partitionName(table: string, month: number): string {
  const d = new Date(month);
  const year = d.getUTCFullYear();
  return `${table}_p${year < 0 ? `m${-year}` : String(year).padStart(4, '0')}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function defaultPartitionName(table: string): string {
  return `${table}_default`;
}

/** Oldest month start that retention keeps (null: keep everything). */
export function retentionCutoff(now: number, retentionMonths: number): number | null {
  return retentionMonths > 0 ? addMonths(monthStart(now), -retentionMonths) : null;
}

export interface Partition {
  name: string;
  /** Range of the month partition, [from, to); null for the DEFAULT partition. */
  from: number | null;
  to: number | null;
}

/** The partitions of a table in the current schema (empty when the table is not partitioned). */
export async function listPartitions<DB>(db: Kysely<DB>, table: string): Promise<Partition[]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass(${table}) order by c.relname`.execute(db);
  return rows.map((r) => {
    const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
    return m ? { name: r.name, from: Number(m[1]), to: Number(m[2]) } : { name: r.name, from: null, to: null };
  });
}

/** Whether the table is partitioned here (migration 007 ran on PostgreSQL). */
export async function isPartitioned<DB>(db: Kysely<DB>, table: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from pg_partitioned_table
    where partrelid = to_regclass(${table})`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

/**
 * Creates the partition of one month, moving the rows of that month out of the DEFAULT partition first
 * (PostgreSQL refuses a new partition while the DEFAULT one holds rows of its range). Run it in a transaction.
 * Returns the number of rows moved.
 */
export async function createMonthPartition<DB>(db: Kysely<DB>, spec: PartitionedTable, month: number): Promise<number> {
  const from = month;
  const to = addMonths(month, 1);
  const parent = sql.table(spec.table);
  const def = sql.table(defaultPartitionName(spec.table));
  const col = sql.ref(spec.column);
  // Creating a partition locks the whole table anyway: taking that lock first means no insert lands in the
  // DEFAULT partition between moving its rows and creating the partition, and no lock is upgraded halfway.
  await sql`lock table ${parent} in access exclusive mode`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${def}
    where ${col} >= ${from} and ${col} < ${to}`.execute(db);
  const waiting = Number(rows[0]?.n ?? 0);
  if (waiting > 0) {
    await sql`create temporary table partition_move (like ${parent}) on commit drop`.execute(db);
    await sql`with moved as (delete from ${def} where ${col} >= ${from} and ${col} < ${to} returning *)
      insert into partition_move select * from moved`.execute(db);
  }
  await sql`create table ${sql.table(partitionName(spec.table, month))} partition of ${parent}
    for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(db);
  if (waiting > 0) {
    await sql`insert into ${parent} select * from partition_move`.execute(db);
    await sql`drop table partition_move`.execute(db);
  }
  return waiting;
}

/** Creates the partitions of the given months that do not exist yet (in a transaction). */
export async function ensureMonthPartitions<DB>(
  db: Kysely<DB>,
  spec: PartitionedTable,
  months: Iterable<number>,
): Promise<{ created: string[]; moved: number }> {
  const existing = await listPartitions(db, spec.table);
  const have = new Set(existing.filter((p) => p.from !== null).map((p) => p.from));
  const created: string[] = [];
  let moved = 0;
  for (const month of [...new Set(months)].sort((a, b) => a - b)) {
    if (have.has(month)) continue;
    moved += await createMonthPartition(db, spec, month);
    have.add(month);
    created.push(partitionName(spec.table, month));
  }
  return { created, moved };
}

/** Month starts of the rows in the DEFAULT partition at or after `since` (null: all of them) and before `until`. */
async function monthsInDefault<DB>(db: Kysely<DB>, spec: PartitionedTable, since: number | null, until: number) {
  const col = sql.ref(spec.column);
  const { rows } = await sql<{ m: number }>`
    select distinct (extract(epoch from date_trunc('month', to_timestamp(${col} / 1000.0) at time zone 'UTC')) * 1000)::bigint as m
    from ${sql.table(defaultPartitionName(spec.table))}
    where ${col} < ${until} ${since === null ? sql`` : sql`and ${col} >= ${since}`}`.execute(db);
  return rows.map((r) => Number(r.m));
}

export interface MaintenanceReport {
  /** Another instance held the maintenance lock; nothing was done. */
  skipped: boolean;
  created: string[];
  dropped: string[];
  /** Rows moved from DEFAULT partitions into new month partitions. */
  moved: number;
  /** Rows past retention deleted from DEFAULT partitions. */
  deletedFromDefault: number;
  deletedAlarms: number;
  deletedCommands: number;
}

/**
 * One maintenance run on PostgreSQL (see the top of this file). Instances sharing a database take turns
 * through an advisory lock; one that finds it held skips the run.
 */
export async function maintainPartitions<DB>(
  db: Kysely<DB>,
  opts: { retentionMonths: number; now?: number; monthsAhead?: number },
): Promise<MaintenanceReport> {
  const now = opts.now ?? Date.now();
  const current = monthStart(now);
  const ahead = opts.monthsAhead ?? MONTHS_AHEAD;
  const cutoff = retentionCutoff(now, opts.retentionMonths);
  const horizon = addMonths(current, ahead + 1);
  const report: MaintenanceReport = {
    skipped: false,
    created: [],
    dropped: [],
    moved: 0,
    deletedFromDefault: 0,
    deletedAlarms: 0,
    deletedCommands: 0,
  };
  return db.connection().execute(async (conn) => {
    const lockKey = sql`hashtext(current_schema() || '.partition-maintenance')`;
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${lockKey}) as locked`.execute(conn);
    if (!rows[0]?.locked) return { ...report, skipped: true };
    try {
      for (const spec of PARTITIONED_TABLES) {
        if (!(await isPartitioned(conn, spec.table))) continue;
        await conn.transaction().execute(async (trx) => {
          await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
          const months = [...(await monthsInDefault(trx, spec, cutoff, horizon))];
          for (let m = current; m < horizon; m = addMonths(m, 1)) months.push(m);
          const { created, moved } = await ensureMonthPartitions(trx, spec, months);
          report.created.push(...created);
          report.moved += moved;
        });
        if (cutoff === null) continue;
        for (const p of await listPartitions(conn, spec.table)) {
          if (p.to === null || p.to > cutoff) continue;
          await conn.transaction().execute(async (trx) => {
            await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
            await sql`drop table ${sql.table(p.name)}`.execute(trx);
          });
          report.dropped.push(p.name);
        }
        const deleted = await sql`delete from ${sql.table(defaultPartitionName(spec.table))}
          where ${sql.ref(spec.column)} < ${cutoff}`.execute(conn);
        report.deletedFromDefault += Number(deleted.numAffectedRows ?? 0);
      }
      if (cutoff !== null) {
        report.deletedAlarms = await deleteInChunks(
          conn,
          sql`select id from alarm where start_ts < ${cutoff} and end_ts is not null and end_ts < ${cutoff}`,
          'alarm',
        );
        report.deletedCommands = await deleteInChunks(
          conn,
          sql`select id from command where created_at < ${cutoff} and status <> 'pending'`,
          'command',
        );
      }
      return report;
    } finally {
      await sql`select pg_advisory_unlock(${lockKey})`.execute(conn);
    }
  });
}

async function deleteInChunks<DB>(db: Kysely<DB>, ids: ReturnType<typeof sql>, table: string): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await sql`delete from ${sql.table(table)} where id in (${ids} limit ${DELETE_CHUNK})`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    total += n;
    if (n < DELETE_CHUNK) return total;
  }
}

export interface PartitionMaintenance {
  /** The run at start (never rejects). */
  ready: Promise<void>;
  /** Runs maintenance now (PostgreSQL), waiting for a run in progress first. */
  run(now?: number): Promise<MaintenanceReport | null>;
  stop(): Promise<void>;
}

/** Runs maintenance at start and then every `everyMs` (a day); nothing on SQLite. */
export function startPartitionMaintenance(opts: {
  database: Pick<OpenedDatabase, 'db' | 'kind'>;
  retentionMonths: number;
  log: FastifyBaseLogger;
  everyMs?: number;
}): PartitionMaintenance {
  const { database, log } = opts;
  const kind: DbKind = database.kind;
  let running: Promise<MaintenanceReport | null> = Promise.resolve(null);
  let stopped = false;

  const run = (now?: number): Promise<MaintenanceReport | null> => {
    if (kind !== 'postgres' || stopped) return Promise.resolve(null);
    running = running
      .catch(() => null)
      .then(async () => {
        if (stopped) return null;
        const report = await maintainPartitions(database.db, {
          retentionMonths: opts.retentionMonths,
          ...(now !== undefined ? { now } : {}),
        });
        if (report.created.length || report.dropped.length || report.moved || report.deletedFromDefault) {
          log.info(report, 'time-series partitions maintained');
        }
        if (report.deletedAlarms || report.deletedCommands) {
          log.info(
            { alarms: report.deletedAlarms, commands: report.deletedCommands },
            'alarms and commands past retention deleted',
          );
        }
        return report;
      });
    return running;
  };

  const logged = () =>
    run().then(
      () => undefined,
      (err: unknown) => log.error({ err }, 'partition maintenance failed; trying again at the next run'),
    );
  const ready = logged();
  const timer = kind === 'postgres' ? setInterval(() => void logged(), opts.everyMs ?? DAY_MS) : null;
  timer?.unref();

  return {
    ready,
    run,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running.catch(() => null);
    },
  };
}
