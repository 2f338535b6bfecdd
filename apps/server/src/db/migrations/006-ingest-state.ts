// Small named values the ingestion keeps across restarts: how far (by sample id) the rollups it persisted go.
import type { Kysely } from 'kysely';

export function ingestState() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ingest_state')
        .addColumn('name', 'varchar(60)', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
