// Opens the database named by the configuration (SQLite file by default, PostgreSQL for a postgres URL)
// and brings its schema up to date.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type MigrationProvider,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
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
  /** How the connections are used right now (PostgreSQL: the pool; SQLite: its one connection). */
  connections(): ConnectionUse;
}

/** Connections open, idle among them, and callers waiting for one. */
export interface ConnectionUse {
  total: number;
  idle: number;
  waiting: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export interface OpenOptions {
  schema?: string;
  /** Where connection failures outside any query are reported (PostgreSQL: an idle connection that broke). */
  log?: { warn(obj: object, msg: string): void };
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<OpenedDatabase> {
  let db: Db;
  let kind: DbKind;
  let connections: () => ConnectionUse;
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
    // An idle connection that breaks (PostgreSQL restarted or shut down, sessions ended by an administrator, a
    // network cut) makes the pool emit 'error'; with no listener that event ends the process. The pool has
    // already dropped the connection and opens a new one for the next query, and queries while the database is
    // away fail on their own (ingestion retries, /readyz says so), so a warning is all it needs.
    // A connection that breaks while it is checked out but between two queries (inside a transaction, say)
    // emits 'error' on its own client, where the pool does not listen: the next query on it fails on its own
    // and the pool drops it when it comes back, so the event only needs a listener (the failed query says why).
    pool.on('connect', (client) => client.on('error', () => undefined));
    pool.on('error', (err: Error & { code?: string }) => {
      const message = { err: err.message, code: err.code };
      if (options.log) options.log.warn(message, 'idle database connection lost');
      else console.warn(`idle database connection lost: ${err.message}`);
    });
    db = new Kysely<Database>({ dialect: ownSchemaIntrospection(new PostgresDialect({ pool }), options.schema) });
    connections = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  } else {
    kind = 'sqlite';
    const file = url.replace(/^sqlite:(\/\/)?/, '');
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const use = { busy: 0, waiting: 0 };
    db = new Kysely<Database>({ dialect: watchConnection(nodeSqliteDialect(file), use) });
    connections = () => ({ total: 1, idle: use.busy ? 0 : 1, waiting: use.waiting });
  }
  await migrate(db, kind, options.schema);
  return { db, kind, close: () => db.destroy(), connections };
}

/**
 * Kysely's PostgreSQL introspector reads the columns of every table in every schema and names each table to
 * pg_get_serial_sequence: a schema another connection drops meanwhile (another instance's, a test's) fails that
 * call with "schema … does not exist", and with it the migration at start. The migrator only asks which tables
 * exist, so this one lists the tables of the server's own schema (the connection's current one when none is
 * named) by their names, from the catalogue alone.
 */
function ownSchemaIntrospection(dialect: Dialect, schema: string | undefined): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector(db): DatabaseIntrospector {
      const getTables = async (): Promise<TableMetadata[]> => {
        const { rows } = await sql<{ schema: string; name: string; kind: string }>`
          select n.nspname as schema, c.relname as name, c.relkind as kind
          from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          where n.nspname = coalesce(${schema ?? null}::text, current_schema()) and c.relkind in ('r', 'v', 'p')
          order by c.relname`.execute(db);
        return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }));
      };
      return {
        async getSchemas(): Promise<SchemaMetadata[]> {
          const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(db);
          return rows.map((r) => ({ name: r.name }));
        },
        getTables,
        getMetadata: async () => ({ tables: await getTables() }),
      };
    },
  };
}

/**
 * SQLite has one connection, which a query or a transaction holds alone: counts whether it is taken and how
 * many wait for it (what a pool's figures say on PostgreSQL).
 */
function watchConnection(dialect: Dialect, use: { busy: number; waiting: number }): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver() {
      const driver = dialect.createDriver();
      const watched: Driver = {
        init: () => driver.init(),
        async acquireConnection() {
          use.waiting++;
          try {
            const connection = await driver.acquireConnection();
            use.busy++;
            return connection;
          } finally {
            use.waiting--;
          }
        },
        releaseConnection(connection) {
          use.busy--;
          return driver.releaseConnection(connection);
        },
        beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        destroy: () => driver.destroy(),
      };
      if (driver.savepoint) watched.savepoint = driver.savepoint.bind(driver);
      if (driver.rollbackToSavepoint) watched.rollbackToSavepoint = driver.rollbackToSavepoint.bind(driver);
      if (driver.releaseSavepoint) watched.releaseSavepoint = driver.releaseSavepoint.bind(driver);
      return watched;
    },
  };
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
