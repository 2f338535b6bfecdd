// Kysely over Node's built-in node:sqlite: Kysely's SqliteDialect expects better-sqlite3's shape, so this
// adapter presents a DatabaseSync in that shape (array parameters, `reader`, booleans as 0/1). Prepared
// statements are kept by their SQL text: preparing again on every execution cost an eighth of the server's
// time under ingestion.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { keepRecent } from '../lib/memo.ts';

function toParams(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((p) => {
    if (typeof p === 'boolean') return p ? 1 : 0;
    if (p === undefined) return null;
    if (p instanceof Date) return p.getTime();
    return p as SQLInputValue;
  });
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  constructor(private readonly stmt: StatementSync) {
    this.reader = stmt.columns().length > 0;
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.stmt.all(...toParams(parameters));
  }
  run(parameters: ReadonlyArray<unknown>) {
    const r = this.stmt.run(...toParams(parameters));
    return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
  }
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.stmt.iterate(...toParams(parameters));
  }
}

export function openSqlite(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  // SQLite's own lower() folds ASCII letters only ("Превышение" stays as it is): searches compare lower() of a
  // column with what a person typed in lower case, in any script, as PostgreSQL's lower() does
  db.function('lower', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
  return db;
}

/** Distinct statements kept prepared; the least recently used one is dropped past this. */
const STATEMENT_CACHE_SIZE = 500;

export function nodeSqliteDialect(file: string): SqliteDialect {
  const db = openSqlite(file);
  const statements = new Map<string, NodeSqliteStatement>();
  const adapter: SqliteDatabase = {
    close: () => {
      statements.clear();
      db.close();
    },
    prepare: (sql: string) => {
      const stmt = statements.get(sql) ?? new NodeSqliteStatement(db.prepare(sql));
      keepRecent(statements, sql, stmt, STATEMENT_CACHE_SIZE);
      return stmt;
    },
  };
  return new SqliteDialect({ database: adapter });
}
