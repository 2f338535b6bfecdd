// Alarm episodes: an alarm that clears and comes back within the hold time (ALARM_HOLD_MS) continues its row
// instead of opening a new one, so that a chattering bit is one alarm and one notice. The row counts its
// occurrences, keeps the start times of the last few (to tell a flapping alarm: FLAP_CYCLES within FLAP_WINDOW_MS)
// and when its end was recorded while that end is still to be told (`end_pending_since`: cleared, but it may come
// back within the hold time; the notification round tells "cleared" once the hold time has passed since). Who acknowledged it, when and why are kept.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export function alarmEpisodes() {
  return {
    async up(db: Kysely<unknown>) {
      // [name, type, default for the rows there are (none: nullable)]
      const columns = [
        ['occurrences', 'integer', 1],
        ['last_start_ts', 'bigint'],
        ['recent_starts', 'varchar(200)'],
        ['flapping', 'integer', 0],
        ['end_pending_since', 'bigint'],
        ['ack_by', 'integer'],
        ['ack_at', 'bigint'],
        ['ack_comment', 'varchar(500)'],
      ] as const;
      for (const [name, type, initial] of columns)
        await db.schema
          .alterTable('alarm')
          .addColumn(name, type, (c) => (initial === undefined ? c : c.notNull().defaultTo(initial)))
          .execute();
      await sql`update alarm set last_start_ts = start_ts`.execute(db);
      // the notification round finds the ended episodes whose end is still to be told
      await db.schema.createIndex('alarm_end_pending').on('alarm').column('end_pending_since').execute();
    },
  };
}
