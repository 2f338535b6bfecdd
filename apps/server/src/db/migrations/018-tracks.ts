// Where sets are and have been: each set's GPS fixes as its module reports them (stored at a bounded rate and
// on movement), its latest fix with whether that is inside its fence, and the fence itself (a circle or a
// polygon), which takes precedence over the circle of the set's radius field around its site.
import type { Kysely } from 'kysely';

export function tracks() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('position')
        .addColumn('genset_id', 'integer', (c) => c.notNull().references('genset.id').onDelete('cascade'))
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('lat', 'double precision', (c) => c.notNull())
        .addColumn('lon', 'double precision', (c) => c.notNull())
        .addColumn('speed', 'real')
        .addColumn('alt', 'real')
        .addPrimaryKeyConstraint('position_pk', ['genset_id', 'ts'])
        .execute();
      await db.schema
        .createTable('set_position')
        .addColumn('genset_id', 'integer', (c) => c.primaryKey().references('genset.id').onDelete('cascade'))
        // the latest fix, whether stored in `position` or not
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('lat', 'double precision', (c) => c.notNull())
        .addColumn('lon', 'double precision', (c) => c.notNull())
        .addColumn('speed', 'real')
        // the last fix stored in `position`, which the next is measured from
        .addColumn('stored_ts', 'bigint', (c) => c.notNull())
        .addColumn('stored_lat', 'double precision', (c) => c.notNull())
        .addColumn('stored_lon', 'double precision', (c) => c.notNull())
        // inside, outside or unknown (no fence, or not yet clear of the fence's edge band)
        .addColumn('fence_state', 'varchar(8)', (c) => c.notNull().defaultTo('unknown'))
        .execute();
      await db.schema
        .createTable('geofence')
        .addColumn('genset_id', 'integer', (c) => c.primaryKey().references('genset.id').onDelete('cascade'))
        // the FenceShape as JSON
        .addColumn('shape', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .execute();
    },
  };
}
