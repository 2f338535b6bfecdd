// The firmware a set's controller says it runs (its module reads it and says so in its hello, again after
// writing a new one), shown with the set's details.
import type { Kysely } from 'kysely';

export function controllerFirmware() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('genset').addColumn('controller_firmware', 'varchar(32)').execute();
    },
  };
}
