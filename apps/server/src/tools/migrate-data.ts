// Copies an embedded SQLite database into PostgreSQL: `npm run migrate-data -- --from ./data/console.db
// --to postgres://user@host:5432/console`. Stop the server first.
//
// Both databases are first brought to this version's schema (as the server does at start; the SQLite file is
// migrated in place). Every table is then copied in foreign-key order, in batches read by primary key, into the
// target in one transaction: rows keep their ids, the time-series tables get the month partitions their rows
// fall in, the id sequences continue after the highest id copied, and the row counts of every table are
// compared before the transaction commits. Anything amiss rolls everything back, so the target is either
// complete or as it was. A target that already holds data is refused unless `--force` (which replaces it).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgresUrl, openDatabase, type OpenedDatabase } from '../db/database.ts';
import { PARTITIONED_TABLES, ensureMonthPartitions, monthStart, type PartitionedTable } from '../db/partitions.ts';

export interface MigrateDataOptions {
  /** The SQLite file. */
  from: string;
  /** postgres:// URL of the target. */
  to: string;
  /** Target schema (default: the URL's own search path). */
  schema?: string;
  /** Replace whatever the target holds. */
  force?: boolean;
  /** Rows per insert statement (fewer when a table has many columns). */
  batchSize?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface TableSummary {
  table: string;
  source: number;
  target: number;
}

export interface MigrateDataSummary {
  tables: TableSummary[];
  rows: number;
  ms: number;
}

/** A refusal the command prints as it is, without a stack. */
export class MigrateDataError extends Error {}

/** Tables the migrator keeps for itself: each database has its own, written when it was migrated. */
const SKIPPED = new Set(['kysely_migration', 'kysely_migration_lock']);
/** PostgreSQL takes at most this many parameters per statement. */
const MAX_PARAMETERS = 65_535;

type AnyDb = Kysely<unknown>;

/** The target's tables (partitioned ones as their parent), parents before the tables that refer to them. */
async function tablesInOrder(db: AnyDb): Promise<string[]> {
  const tables = await sql<{ name: string }>`select c.relname as name from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname`.execute(db);
  const refs = await sql<{ child: string; parent: string }>`select c.relname as child, p.relname as parent
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    where k.contype = 'f' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  const names = tables.rows.map((t) => t.name).filter((n) => !SKIPPED.has(n));
  const parents = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
  for (const r of refs.rows) if (r.child !== r.parent) parents.get(r.child)?.add(r.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const next = names.filter((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p)));
    if (!next.length) throw new MigrateDataError('the target schema has a cycle of foreign keys');
    for (const n of next) {
      ordered.push(n);
      placed.add(n);
    }
  }
  return ordered;
}

async function targetColumns(db: AnyDb, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db);
  return rows.map((r) => r.name);
}

async function sourceColumns(db: AnyDb, table: string): Promise<{ columns: string[]; key: string[] }> {
  const { rows } = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(
    db,
  );
  const key = rows
    .filter((r) => r.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((r) => r.name);
  return { columns: rows.map((r) => r.name), key: key.length ? key : ['rowid'] };
}

async function count(db: AnyDb, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

const tuple = (items: RawBuilder<unknown>[]) => (items.length === 1 ? items[0]! : sql`(${sql.join(items)})`);

/** Reads a table of the SQLite database in primary-key order, `size` rows at a time. */
async function* batches(db: AnyDb, table: string, columns: string[], key: string[], size: number) {
  const select = sql.join([...new Set([...columns, ...key])].map((c) => sql.ref(c)));
  const order = sql.join(key.map((c) => sql.ref(c)));
  let after: unknown[] | null = null;
  for (;;) {
    const where: RawBuilder<unknown> =
      after === null ? sql`` : sql`where ${tuple(key.map((c) => sql.ref(c)))} > ${tuple(after.map((v) => sql`${v}`))}`;
    const { rows } = await sql<Record<string, unknown>>`select ${select} from ${sql.table(table)} ${where}
      order by ${order} limit ${size}`.execute(db);
    if (!rows.length) return;
    yield rows;
    const last = rows.at(-1)!;
    after = key.map((c) => last[c]);
    if (rows.length < size) return;
  }
}

function describeCounts(counts: TableSummary[]): string {
  return counts.map((c) => `${c.table}: ${c.target}`).join(', ');
}

export async function migrateData(opts: MigrateDataOptions): Promise<MigrateDataSummary> {
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  const from = opts.from.replace(/^sqlite:(\/\/)?/, '');
  if (isPostgresUrl(from)) throw new MigrateDataError('--from is the SQLite file to copy, not a postgres:// URL');
  if (!existsSync(from)) throw new MigrateDataError(`no SQLite database at ${from}`);
  if (!isPostgresUrl(opts.to)) throw new MigrateDataError('--to must be a postgres:// URL');

  let source: OpenedDatabase | undefined;
  let target: OpenedDatabase | undefined;
  try {
    source = await openDatabase(from);
    target = await openDatabase(opts.to, opts.schema ? { schema: opts.schema } : {});
    const src = source.db as unknown as AnyDb;
    const dst = target.db as unknown as AnyDb;

    const tables = await tablesInOrder(dst);
    const plan: { table: string; columns: string[]; key: string[] }[] = [];
    for (const table of tables) {
      const columns = await targetColumns(dst, table);
      const s = await sourceColumns(src, table);
      const missing = columns.filter((c) => !s.columns.includes(c));
      const extra = s.columns.filter((c) => !columns.includes(c));
      if (!s.columns.length || missing.length || extra.length) {
        throw new MigrateDataError(
          `table ${table} differs between the databases (missing in SQLite: ${missing.join(', ') || '—'}; ` +
            `only in SQLite: ${extra.join(', ') || '—'})`,
        );
      }
      plan.push({ table, columns, key: s.key });
    }

    // Migrations write the platform company (id 1) into every new database: that alone is still empty.
    const before: TableSummary[] = [];
    for (const { table } of plan) before.push({ table, source: 0, target: await count(dst, table) });
    const held = before.filter((c) => c.target > (c.table === 'company' ? 1 : 0));
    if (held.length && !opts.force) {
      throw new MigrateDataError(
        `the target database is not empty (${describeCounts(held)}); --force replaces its data`,
      );
    }

    const summary = await target.db.transaction().execute(async (trx) => {
      const tx = trx as unknown as AnyDb;
      await sql`truncate table ${sql.join(plan.map((p) => sql.table(p.table)))} restart identity`.execute(tx);
      // Rows are copied as they are: triggers that keep a value from other rows (a user's subscriptions
      // version) would count the copy as changes. Foreign keys are system triggers and stay on.
      for (const { table } of plan) await sql`alter table ${sql.table(table)} disable trigger user`.execute(tx);
      const tables: TableSummary[] = [];
      for (const { table, columns, key } of plan) {
        const tableStarted = Date.now();
        const partitioned: PartitionedTable | undefined = PARTITIONED_TABLES.find((p) => p.table === table);
        const months = new Set<number>();
        const size = Math.max(1, Math.min(opts.batchSize ?? 1000, Math.floor(MAX_PARAMETERS / columns.length)));
        const into = sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values `;
        let copied = 0;
        for await (const rows of batches(src, table, columns, key, size)) {
          if (partitioned) {
            const fresh = new Set<number>();
            for (const r of rows) {
              const m = monthStart(Number(r[partitioned.column]));
              if (!months.has(m)) fresh.add(m);
            }
            if (fresh.size) {
              await ensureMonthPartitions(tx, partitioned, fresh);
              for (const m of fresh) months.add(m);
            }
          }
          const values = rows.map((r) => sql`(${sql.join(columns.map((c) => sql`${r[c] ?? null}`))})`);
          await sql`${into}${sql.join(values)}`.execute(tx);
          copied += rows.length;
        }
        const sourceRows = await count(src, table);
        const targetRows = await count(tx, table);
        tables.push({ table, source: sourceRows, target: targetRows });
        log(
          `${table.padEnd(20)} ${String(copied).padStart(12)} rows  ${((Date.now() - tableStarted) / 1000).toFixed(1)} s`,
        );
      }

      for (const { table } of plan) await sql`alter table ${sql.table(table)} enable trigger user`.execute(tx);

      // Ids go on after the highest one copied.
      const sequences = await sql<{ table: string; column: string; seq: string }>`
        select table_name as table, column_name as column,
          pg_get_serial_sequence(quote_ident(table_name), column_name) as seq
        from information_schema.columns
        where table_schema = current_schema() and column_default like 'nextval(%'`.execute(tx);
      for (const s of sequences.rows) {
        // (Partitions show their parent's default too; only the tables copied own their sequences.)
        if (!s.seq || !plan.some((p) => p.table === s.table)) continue;
        await sql`select setval(${s.seq}::regclass,
          coalesce((select max(${sql.ref(s.column)}) from ${sql.table(s.table)}), 0) + 1, false)`.execute(tx);
      }

      const wrong = tables.filter((t) => t.source !== t.target);
      if (wrong.length) {
        throw new MigrateDataError(
          `row counts differ, nothing was written: ${wrong.map((w) => `${w.table} ${w.source} → ${w.target}`).join(', ')}`,
        );
      }
      return tables;
    });
    return { tables: summary, rows: summary.reduce((n, t) => n + t.target, 0), ms: Date.now() - started };
  } finally {
    await source?.close();
    await target?.close();
  }
}

const USAGE = `Usage: npm run migrate-data -- --from <SQLite file> --to <postgres://…> [--schema <name>] [--force] [--batch <rows>]

Copies every table of the embedded SQLite database into PostgreSQL and checks the row counts.
  --from    the SQLite file (the server's DATA_DIR/console.db); stop the server first
  --to      the PostgreSQL database (DATABASE_URL of the new setup)
  --schema  PostgreSQL schema to fill (default: the connection's own)
  --force   replace the data of a target that is not empty
  --batch   rows per insert statement (default 1000)`;

async function main() {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      schema: { type: 'string' },
      force: { type: 'boolean', default: false },
      batch: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.from || !values.to) throw new MigrateDataError(`--from and --to are required\n\n${USAGE}`);
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  if (batch !== undefined && (!Number.isInteger(batch) || batch < 1)) {
    throw new MigrateDataError('--batch must be a positive whole number');
  }
  const base = process.env.INIT_CWD ?? process.cwd();
  const from = resolve(base, values.from.replace(/^sqlite:(\/\/)?/, ''));
  const shown = values.to.replace(/\/\/[^@/]*@/, '//***@');
  console.log(`Copying ${from} into ${shown}${values.schema ? ` (schema ${values.schema})` : ''}`);
  const summary = await migrateData({
    from,
    to: values.to,
    force: values.force,
    ...(values.schema ? { schema: values.schema } : {}),
    ...(batch ? { batchSize: batch } : {}),
    log: (line) => console.log(`  ${line}`),
  });
  console.log('\ntable                 SQLite rows  PostgreSQL rows');
  for (const t of summary.tables) {
    console.log(`${t.table.padEnd(20)} ${String(t.source).padStart(12)} ${String(t.target).padStart(16)}  ok`);
  }
  console.log(
    `\n${summary.tables.length} tables, ${summary.rows} rows copied and counted in ${(summary.ms / 1000).toFixed(1)} s.`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof MigrateDataError ? err.message : err);
    process.exit(1);
  });
}
