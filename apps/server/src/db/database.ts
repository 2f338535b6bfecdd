// Opens the database named by the configuration (SQLite file by default, PostgreSQL for a postgres URL)
// and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { nodeSqliteDialect } from './node-sqlite-dialect.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type DbKind = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export async function openDatabase(url: string, options: { schema?: string } = {}): Promise<OpenedDatabase> {
  let db: Db;
  let kind: DbKind;
  if (isPostgresUrl(url)) {
    kind = 'postgres';
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      types: {
        getTypeParser: ((oid: number, format?: string) => {
          // Epoch milliseconds and counts are bigints: they fit a JS number, so read them as numbers.
          if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
          return pg.types.getTypeParser(oid, format as 'text');
        }) as typeof pg.types.getTypeParser,
      },
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    kind = 'sqlite';
    const file = url.replace(/^sqlite:(\/\/)?/, '');
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    db = new Kysely<Database>({ dialect: nodeSqliteDialect(file) });
  }
  await migrate(db, kind, options.schema);
  return { db, kind, close: () => db.destroy() };
}

export async function migrate(db: Db, kind: DbKind, schema?: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(kind) };
  // With a schema named, the bookkeeping tables live in it too (Kysely otherwise looks them up anywhere).
  const migrator = new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
