// The language a person uses the console in, kept with the account: messages the server sends them on its own
// (e-mail and SMS notices) are written in it. Empty until they next sign in or use the console.
import type { Kysely } from 'kysely';

export function accountLanguage() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('language', 'varchar(8)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  };
}
