// Set management: the set number and a lower-cased search text as real columns (the lists filter and sort on
// them), and the indexes "my gensets" needs at 10,000 sets with 100 subscribers each: sets by owner,
// subscribers by set, a user's subscriptions with their rights.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';

/** Lower-cased name and number, what the lists' search matches (case-insensitive on both databases). */
export function gensetSearchText(name: string, number: string | null | undefined): string {
  return `${name} ${number ?? ''}`.trim().toLowerCase();
}

export function gensets(_kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('genset').addColumn('number', 'varchar(64)').execute();
      await db.schema
        .alterTable('genset')
        .addColumn('search_text', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .execute();
      const rows = await sql<{
        id: number;
        name: string;
        details: string;
      }>`select id, name, details from genset`.execute(db);
      for (const row of rows.rows) {
        let number: string | null = null;
        try {
          const details = JSON.parse(row.details) as { number?: unknown };
          if (typeof details.number === 'string' && details.number) number = details.number.slice(0, 64);
        } catch {
          // details stay as they are; the set simply has no number
        }
        await sql`update genset set number = ${number}, search_text = ${gensetSearchText(row.name, number)} where id = ${row.id}`.execute(
          db,
        );
      }
      await db.schema.createIndex('genset_owner').on('genset').columns(['owner_user_id', 'deleted_at']).execute();
      await db.schema.createIndex('genset_company_name').on('genset').columns(['company_id', 'name']).execute();
      await db.schema.createIndex('subscription_set').on('subscription').columns(['genset_id', 'user_id']).execute();
      // "my gensets" reads a user's subscriptions with their rights from the index alone
      await db.schema
        .createIndex('subscription_user_rights')
        .on('subscription')
        .columns(['user_id', 'genset_id', 'rights'])
        .execute();
    },
  };
}
