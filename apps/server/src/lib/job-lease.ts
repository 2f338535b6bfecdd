// One holder at a time for a background job of the whole deployment (the notification sender, the maintenance
// scheduler): a row per job names its holder until a time; an instance takes the row when it is free or
// expired, and keeps it by renewing it. Works alike on SQLite and PostgreSQL (one atomic upsert).
import type { Db } from '../db/database.ts';

export async function holdLease(db: Db, name: string, holder: string, ttlMs: number, now = Date.now()) {
  await db
    .insertInto('job_lease')
    .values({ name, holder, expires_at: now + ttlMs })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: now + ttlMs })
        .where((eb) => eb.or([eb('job_lease.expires_at', '<', now), eb('job_lease.holder', '=', holder)])),
    )
    .execute();
  const row = await db.selectFrom('job_lease').select('holder').where('name', '=', name).executeTakeFirst();
  return row?.holder === holder;
}

export async function releaseLease(db: Db, name: string, holder: string) {
  await db.deleteFrom('job_lease').where('name', '=', name).where('holder', '=', holder).execute();
}
