// Scale-out storage. On PostgreSQL the time-series tables become partitioned by month (see db/partitions.ts):
// `sample` and `status_change` by `ts`, `rollup_hour` and `rollup_day` by `bucket`, each with a DEFAULT
// partition and the partitions of the months its rows fall in plus the current and next months. Rows already
// stored are copied into the new tables (an upgrade of a large database takes a while, once). Ids become
// 64-bit (a fleet writes billions of samples) and keep counting from where they were. PostgreSQL needs the
// partition key in every unique key, so a sample's idempotency key is (modem, seq, ts) there: a module resends
// with the original ts, so a resend still hits it.
// On both databases: open alarms have an index of their own (the home page counts them per level over the
// visible sets), and commands one by time (retention deletes old ones).
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';
import {
  MONTHS_AHEAD,
  PARTITIONED_TABLES,
  addMonths,
  defaultPartitionName,
  ensureMonthPartitions,
  monthStart,
  type PartitionedTable,
} from '../partitions.ts';

/** Columns and keys of each partitioned table, as the earlier migrations defined them (ids now bigint). */
const DEFINITIONS: Record<PartitionedTable['table'], { columns: string; keys: string; indexes: string[] }> = {
  sample: {
    columns: `id bigint not null, modem_id integer not null, seq bigint not null, genset_id integer not null,
      ts bigint not null, status integer not null, "values" text not null`,
    keys: `constraint sample_pkey primary key (id, ts), constraint sample_modem_seq unique (modem_id, seq, ts)`,
    indexes: ['create index sample_set_time on sample (genset_id, ts)'],
  },
  status_change: {
    columns: `id bigint not null, genset_id integer not null, status integer not null, previous integer,
      ts bigint not null, reason varchar(40) not null`,
    keys: `constraint status_change_pkey primary key (id, ts)`,
    indexes: ['create index status_change_set_time on status_change (genset_id, ts)'],
  },
  rollup_hour: {
    columns: `genset_id integer not null, bucket bigint not null, stats text not null, samples integer not null`,
    keys: `constraint rollup_hour_pk primary key (genset_id, bucket)`,
    indexes: [],
  },
  rollup_day: {
    columns: `genset_id integer not null, bucket bigint not null, stats text not null, samples integer not null`,
    keys: `constraint rollup_day_pk primary key (genset_id, bucket)`,
    indexes: [],
  },
};

const COLUMN_NAMES: Record<PartitionedTable['table'], string> = {
  sample: 'id, modem_id, seq, genset_id, ts, status, "values"',
  status_change: 'id, genset_id, status, previous, ts, reason',
  rollup_hour: 'genset_id, bucket, stats, samples',
  rollup_day: 'genset_id, bucket, stats, samples',
};

async function partitionTable(db: Kysely<unknown>, spec: PartitionedTable, now: number) {
  const { table, column } = spec;
  const old = `${table}_unpartitioned`;
  const def = DEFINITIONS[table];
  const hasId = def.columns.startsWith('id ');
  const seq = hasId
    ? (await sql<{ seq: string }>`select pg_get_serial_sequence(${table}, 'id') as seq`.execute(db)).rows[0]?.seq
    : undefined;
  const compression = (
    await sql<{ c: string }>`select attcompression as c from pg_attribute
      where attrelid = to_regclass(${table}) and attname = 'stats'`.execute(db)
  ).rows[0]?.c;

  // The old table gives up its name, its sequence and the names of its keys and indexes.
  await sql`alter table ${sql.table(table)} rename to ${sql.table(old)}`.execute(db);
  if (seq) await sql`alter sequence ${sql.raw(seq)} owned by none`.execute(db);
  const constraints = await sql<{ name: string }>`select conname as name from pg_constraint
    where conrelid = to_regclass(${old})`.execute(db);
  for (const c of constraints.rows) {
    await sql`alter table ${sql.table(old)} drop constraint ${sql.id(c.name)}`.execute(db);
  }
  const indexes = await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = ${old}`.execute(db);
  for (const i of indexes.rows) await sql`drop index ${sql.id(i.name)}`.execute(db);

  await sql`create table ${sql.table(table)} (${sql.raw(def.columns)}, ${sql.raw(def.keys)})
    partition by range (${sql.ref(column)})`.execute(db);
  if (seq) {
    await sql`alter sequence ${sql.raw(seq)} as bigint owned by ${sql.raw(`${table}.id`)}`.execute(db);
    await sql`alter table ${sql.table(table)} alter column id set default nextval(${sql.lit(seq)}::regclass)`.execute(
      db,
    );
  }
  // LZ4 for the rollup stats (migration 005) carries over to the new table and its partitions.
  if (compression === 'l')
    await sql`alter table ${sql.table(table)} alter column stats set compression lz4`.execute(db);
  for (const statement of def.indexes) await sql.raw(statement).execute(db);
  await sql`create table ${sql.table(defaultPartitionName(table))} partition of ${sql.table(table)} default`.execute(
    db,
  );

  const col = sql.ref(column);
  const { rows } = await sql<{ m: number }>`
    select distinct (extract(epoch from date_trunc('month', to_timestamp(${col} / 1000.0) at time zone 'UTC')) * 1000)::bigint as m
    from ${sql.table(old)}`.execute(db);
  const months = rows.map((r) => Number(r.m));
  const current = monthStart(now);
  for (let i = 0; i <= MONTHS_AHEAD; i++) months.push(addMonths(current, i));
  await ensureMonthPartitions(db, spec, months);

  const names = sql.raw(COLUMN_NAMES[table]);
  await sql`insert into ${sql.table(table)} (${names}) select ${names} from ${sql.table(old)}`.execute(db);
  await sql`drop table ${sql.table(old)}`.execute(db);
}

export function partitions(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('alarm_open')
        .on('alarm')
        .columns(['genset_id', 'level'])
        .where(sql.ref('end_ts'), 'is', null)
        .execute();
      await db.schema.createIndex('command_created').on('command').column('created_at').execute();
      if (kind !== 'postgres') return;
      const now = Date.now();
      for (const spec of PARTITIONED_TABLES) await partitionTable(db, spec, now);
    },
  };
}
