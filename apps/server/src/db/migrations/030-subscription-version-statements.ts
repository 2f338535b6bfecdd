// The subscription counter of each user (009) moved once a statement on PostgreSQL, not once a row: a row
// trigger updating the same user's row for each of 100,000 subscriptions written at once (a company's whole fleet
// followed, a data copy) left that row with 100,000 versions in one transaction, and each update walked them:
// minutes for what takes a second. Statement triggers read the rows a statement touched from its transition
// tables and bump each user named there once. SQLite updates a row in place: its row triggers stay.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';

export function subscriptionVersionStatements(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      if (kind !== 'postgres') return;
      await sql`drop trigger if exists subscription_version on subscription`.execute(db);
      await sql`drop function if exists subscription_version_bump()`.execute(db);
      await sql`
        create function subscription_version_bump() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            update users set subscriptions_version = subscriptions_version + 1
              where id in (select user_id from new_rows);
          elsif tg_op = 'DELETE' then
            update users set subscriptions_version = subscriptions_version + 1
              where id in (select user_id from old_rows);
          else
            -- a row whose user, set and rights stay as they were (its time only) changes nothing anyone reads
            update users set subscriptions_version = subscriptions_version + 1
              where id in (
                select o.user_id from old_rows o join new_rows n on n.id = o.id
                  where (o.user_id, o.genset_id, o.rights) is distinct from (n.user_id, n.genset_id, n.rights)
                union
                select n.user_id from old_rows o join new_rows n on n.id = o.id
                  where (o.user_id, o.genset_id, o.rights) is distinct from (n.user_id, n.genset_id, n.rights));
          end if;
          return null;
        end $$`.execute(db);
      await sql`
        create trigger subscription_version_insert after insert on subscription
        referencing new table as new_rows for each statement execute function subscription_version_bump()`.execute(db);
      await sql`
        create trigger subscription_version_delete after delete on subscription
        referencing old table as old_rows for each statement execute function subscription_version_bump()`.execute(db);
      await sql`
        create trigger subscription_version_update after update on subscription
        referencing old table as old_rows new table as new_rows
        for each statement execute function subscription_version_bump()`.execute(db);
    },
  };
}
