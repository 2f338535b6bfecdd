// Portable column helpers for migrations written once for SQLite and PostgreSQL.
import type { CreateTableBuilder } from 'kysely';
import type { DbKind } from '../database.ts';

export function idColumn<T extends string>(table: CreateTableBuilder<T, never>, kind: DbKind) {
  return kind === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
