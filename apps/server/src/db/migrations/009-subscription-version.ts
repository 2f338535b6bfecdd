// A counter on each user that moves whenever the user's subscriptions are added, removed, moved to another
// set or given other rights. The set lists keep every user's subscriptions in memory and need to know, on each
// call, whether they are still true; the counter is read with the session (one row by key), where a fingerprint of the
// subscription rows cost an extra query over a thousand index entries. Triggers keep it, so no writer (the
// console, the data copy tool, a hand-made change) can forget to.
import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.ts';

export function subscriptionVersion(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('subscriptions_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      if (kind === 'postgres') {
        await sql`
          create function subscription_version_bump() returns trigger language plpgsql as $$
          begin
            if tg_op <> 'INSERT' then
              update users set subscriptions_version = subscriptions_version + 1 where id = old.user_id;
            end if;
            if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.user_id <> old.user_id) then
              update users set subscriptions_version = subscriptions_version + 1 where id = new.user_id;
            end if;
            return null;
          end $$`.execute(db);
        await sql`
          create trigger subscription_version after insert or delete or update of user_id, genset_id, rights
          on subscription for each row execute function subscription_version_bump()`.execute(db);
        return;
      }
      const bump = (who: 'new' | 'old') =>
        sql.raw(`update users set subscriptions_version = subscriptions_version + 1 where id = ${who}.user_id;`);
      await sql`create trigger subscription_version_insert after insert on subscription
        begin ${bump('new')} end`.execute(db);
      await sql`create trigger subscription_version_delete after delete on subscription
        begin ${bump('old')} end`.execute(db);
      await sql`create trigger subscription_version_update after update of user_id, genset_id, rights on subscription
        begin ${bump('old')} ${bump('new')} end`.execute(db);
    },
  };
}
