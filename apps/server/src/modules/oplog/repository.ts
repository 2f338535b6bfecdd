// The operation log as the log page reads it: filtered by company, operator, matter and time, newest first.
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { contains } from '../../db/like.ts';

/**
 * What a role whose data scope is narrower than its company reaches of the log: the caller's own entries, those of
 * the people of the departments it reaches, and those about the sets and stations it reaches or the caller owns.
 */
export interface LogReach {
  userId: number;
  /** Departments reached (their people's entries and their sets' and stations'). */
  departments: readonly number[];
  /** Sets and stations chosen on the role (ids). */
  sets: readonly number[];
  sites: readonly number[];
}

export interface LogFilter {
  /** null: every company (the platform). */
  companyId: number | null;
  /** Narrower than the company: only what the data scope reaches (needs `companyId`). */
  reach?: LogReach | undefined;
  keyword?: string | undefined;
  matter?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
}

export function createLogRepository(db: Db) {
  function filtered(f: LogFilter) {
    let q = db.selectFrom('operation_log');
    if (f.companyId !== null) q = q.where('company_id', '=', f.companyId);
    const reach = f.reach;
    if (reach && f.companyId !== null) {
      const companyId = f.companyId;
      const deps = reach.departments.length ? [...reach.departments] : [-1];
      const people = db
        .selectFrom('user_company')
        .select('user_id')
        .where('company_id', '=', companyId)
        .where('department_id', 'in', deps);
      const reached = (table: 'genset' | 'site', chosen: readonly number[]) =>
        db
          .selectFrom(table)
          .select('token')
          .where('company_id', '=', companyId)
          .where((e) =>
            e.or([
              e('owner_user_id', '=', reach.userId),
              e('department_id', 'in', deps),
              e.and([e('department_id', 'is', null), e('owner_user_id', 'in', people)]),
              e('id', 'in', chosen.length ? [...chosen] : [-1]),
            ]),
          );
      q = q.where((e) =>
        e.or([
          e('user_id', '=', reach.userId),
          e('user_id', 'in', people),
          e('target', 'in', reached('genset', reach.sets)),
          e('target', 'in', reached('site', reach.sites)),
        ]),
      );
    }
    if (f.matter) q = q.where('matter', '=', f.matter);
    if (f.start !== undefined) q = q.where('created_at', '>=', f.start);
    if (f.end !== undefined) q = q.where('created_at', '<=', f.end);
    const keyword = f.keyword?.trim();
    if (keyword) {
      q = q.where((e) =>
        e.or([contains(sql`coalesce(account, '')`, keyword), contains(sql`coalesce(nickname, '')`, keyword)]),
      );
    }
    return q;
  }

  return {
    async page(f: LogFilter, page: number, size: number) {
      const rows = await filtered(f)
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      const { n } = await filtered(f)
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { rows, total: Number(n) };
    },

    /** At most `limit` entries for a file, newest first. */
    all(f: LogFilter, limit: number) {
      return filtered(f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    async matters(companyId: number | null): Promise<string[]> {
      let q = db.selectFrom('operation_log').select('matter').distinct();
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return (await q.orderBy('matter').limit(500).execute()).map((r) => r.matter);
    },
  };
}
