// The operation log as the log page reads it: filtered by company, operator, matter and time, newest first.
import type { Db } from '../../db/database.ts';

export interface LogFilter {
  /** null: every company (the platform). */
  companyId: number | null;
  keyword?: string | undefined;
  matter?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
}

/** LIKE wildcards in what a person typed are matched as themselves. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createLogRepository(db: Db) {
  function filtered(f: LogFilter) {
    let q = db.selectFrom('operation_log');
    if (f.companyId !== null) q = q.where('company_id', '=', f.companyId);
    if (f.matter) q = q.where('matter', '=', f.matter);
    if (f.start !== undefined) q = q.where('created_at', '>=', f.start);
    if (f.end !== undefined) q = q.where('created_at', '<=', f.end);
    const keyword = f.keyword?.trim();
    if (keyword) {
      const pattern = likePattern(keyword);
      q = q.where((e) =>
        e.or([
          e(e.fn('lower', [e.fn.coalesce('account', e.val(''))]), 'like', e.val(pattern)),
          e(e.fn('lower', [e.fn.coalesce('nickname', e.val(''))]), 'like', e.val(pattern)),
        ]),
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
