// Demo modules' secrets: made at random once per installation and kept with their modem (before, they were
// derived from the request-signing secret, which the console's bundle carries, so anyone could sign in to the
// broker as a demo module). A demo module without one is given a new one at the next start.
import type { Kysely } from 'kysely';

export function demoModuleSecrets() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('modem').addColumn('demo_secret', 'varchar(64)').execute();
    },
  };
}
