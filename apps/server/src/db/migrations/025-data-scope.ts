// A set and a station belong to a department of their company (nullable): a department data scope reaches
// what belongs to the user's department (or, for the department tree, to it and every department below it).
// Without one of their own, the owner's department counts, as before.
import type { Kysely } from 'kysely';

export function dataScope() {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['genset', 'site']) {
        await db.schema
          .alterTable(table)
          .addColumn('department_id', 'integer', (c) => c.references('department.id').onDelete('set null'))
          .execute();
        await db.schema.createIndex(`${table}_department`).on(table).column('department_id').execute();
      }
    },
  };
}
