// Shelving: someone who may command a set keeps one of its alarms from notifying for a while, with a reason
// (an alarm known and being dealt with, a sensor awaiting its part). Until `shelved_until` the alarm of that code on
// that set notifies no one (a new episode of it inherits the shelf); when the time ends, the notification round
// takes it off the shelf and, if it is still active, tells it again.
import type { Kysely } from 'kysely';

export function alarmShelving() {
  return {
    async up(db: Kysely<unknown>) {
      const columns = [
        ['shelved_until', 'bigint'],
        ['shelved_by', 'integer'],
        ['shelved_at', 'bigint'],
        ['shelve_reason', 'varchar(500)'],
      ] as const;
      for (const [name, type] of columns) await db.schema.alterTable('alarm').addColumn(name, type).execute();
      // the notification round finds the shelves whose time is up
      await db.schema.createIndex('alarm_shelved_until').on('alarm').column('shelved_until').execute();
    },
  };
}
