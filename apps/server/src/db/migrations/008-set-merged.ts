// The highest sample id a set's persisted rollups include: with several instances, the one that takes a set
// over merges the samples after it (one instance's watermark in ingest_state does not cover another's sets).
// Null for rows written before this column: their rollups were written with their samples.
import type { Kysely } from 'kysely';

export function setMerged() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('set_latest').addColumn('merged_id', 'bigint').execute();
    },
  };
}
