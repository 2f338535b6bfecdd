// Saved report versions: plain queries over `report`.
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ReportTable } from '../../db/schema.ts';

export type ReportRowDb = Selectable<ReportTable>;

/** A save that lost the race for a version number tries again with the next one, this many times. */
const SAVE_ATTEMPTS = 5;

export function createReportRepository(db: Db) {
  const summaryColumns = ['id', 'type', 'version', 'period_from', 'period_to', 'author', 'created_at'] as const;
  return {
    async insertVersion(row: Omit<ReportTable, 'id' | 'version'> & { id?: never }) {
      for (let attempt = 1; ; attempt++) {
        const top = await db
          .selectFrom('report')
          .select((eb) => eb.fn.max('version').as('v'))
          .where('genset_id', '=', row.genset_id)
          .where('type', '=', row.type)
          .executeTakeFirst();
        const version = Number(top?.v ?? 0) + 1;
        try {
          const inserted = await db
            .insertInto('report')
            .values({ ...row, version })
            .returning('id')
            .executeTakeFirstOrThrow();
          return { id: inserted.id, version };
        } catch (e) {
          // Someone saved the same report at the same moment: the unique key refused this number.
          if (attempt >= SAVE_ATTEMPTS || !/unique|duplicate/i.test(String((e as Error).message))) throw e;
        }
      }
    },

    /** One version, or the latest when none is named. */
    find(gensetId: number, type: number, version?: number) {
      let q = db.selectFrom('report').selectAll().where('genset_id', '=', gensetId).where('type', '=', type);
      q = version === undefined ? q.orderBy('version', 'desc').limit(1) : q.where('version', '=', version);
      return q.executeTakeFirst();
    },

    /** Every version of the set's report of that type, newest first (without their forms). */
    versions(gensetId: number, type: number) {
      return db
        .selectFrom('report')
        .select(summaryColumns)
        .where('genset_id', '=', gensetId)
        .where('type', '=', type)
        .orderBy('version', 'desc')
        .execute();
    },

    /** The latest version of each type the set has. */
    latestOfEach(gensetId: number) {
      return db
        .selectFrom('report as r')
        .select(summaryColumns.map((c) => `r.${c}` as const))
        .where('r.genset_id', '=', gensetId)
        .where((eb) =>
          eb(
            'r.version',
            '=',
            eb
              .selectFrom('report as o')
              .select((o) => o.fn.max('o.version').as('v'))
              .whereRef('o.genset_id', '=', 'r.genset_id')
              .whereRef('o.type', '=', 'r.type'),
          ),
        )
        .orderBy('r.type')
        .execute();
    },
  };
}
export type ReportRepository = ReturnType<typeof createReportRepository>;
