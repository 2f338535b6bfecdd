// The operation-log page (log:view): who did what, when, from where and with what outcome, in the reader's
// language; one company's entries as far as the reader's data scope reaches, or every company's for the platform.
// Also as an XLSX file.
import ExcelJS from 'exceljs';
import { Permission, type LogEntry } from '@genset/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OperationLogTable } from '../../db/schema.ts';
import { translate } from '../../i18n/messages.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import { loadTargets, parseFeedback, renderEntry, type LogReader, type LogTarget } from './render.ts';
import { formatTime } from '../gensets/export.ts';
import { isPlatform, requirePermission, type AdminCaller } from '../roles/service.ts';
import type { DataScopeService } from '../account/scope.ts';
import { createLogRepository, type LogFilter, type LogReach } from './repository.ts';

/** The most entries one file holds. */
export const LOG_EXPORT_MAX = 50_000;

interface LogQuery {
  keyword?: string | undefined;
  matter?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
  companyId?: number | undefined;
}

export function createLogService(deps: { db: Db; scope?: DataScopeService; protocols?: ProtocolStore }) {
  const repo = createLogRepository(deps.db);

  /** What a role narrower than its company reaches of the log; undefined for a company-wide one. */
  async function reachOf(caller: AdminCaller): Promise<LogReach | undefined> {
    const { user, grant } = caller.ctx;
    if (!deps.scope) return undefined;
    const { role } = await deps.scope.reach(user, grant);
    if (role.everything || role.mode === 'company') return undefined;
    return {
      userId: user.id,
      departments: role.mode === 'departments' ? [...role.departments] : [],
      sets: role.mode === 'chosen' ? [...role.sets] : [],
      sites: role.mode === 'chosen' ? [...role.sites] : [],
    };
  }

  async function filter(caller: AdminCaller, q: LogQuery): Promise<LogFilter> {
    requirePermission(caller.ctx, Permission.logView);
    // the platform reads every company's entries unless it names one; anyone else only their company's, as far
    // as their data scope reaches
    const platform = isPlatform(caller.ctx);
    const companyId = platform ? (q.companyId ?? null) : caller.companyId;
    const reach = platform ? undefined : await reachOf(caller);
    return { companyId, reach, keyword: q.keyword, matter: q.matter, start: q.start, end: q.end };
  }

  function entry(reader: LogReader, row: Selectable<OperationLogTable>, found: LogTarget | undefined): LogEntry {
    const feedback = parseFeedback(row.feedback);
    const target = row.target ?? '';
    const rendered = renderEntry(reader, row.matter, feedback, target, found);
    return {
      id: row.id,
      time: Number(row.created_at),
      companyId: row.company_id,
      account: row.account ?? '',
      nickname: row.nickname ?? '',
      matterKey: row.matter,
      matter: rendered.matter,
      ip: row.ip ?? '',
      target,
      targetName: rendered.target,
      outcome: rendered.outcome,
      outcomeText: rendered.outcomeText,
      feedback,
    };
  }

  async function entries(reader: LogReader, rows: Selectable<OperationLogTable>[]): Promise<LogEntry[]> {
    const targets = await loadTargets(
      deps.db,
      deps.protocols,
      rows.map((r) => r.target ?? ''),
    );
    return rows.map((r) => entry(reader, r, targets.get(r.target ?? '')));
  }

  return {
    async list(caller: AdminCaller, q: LogQuery & { page: number; size: number }, timeZone = '') {
      const f = await filter(caller, q);
      const { rows, total } = await repo.page(f, q.page, q.size);
      // a matter's words without the particulars of one entry
      const matters = (await repo.matters(f.companyId)).map((key) => ({
        key,
        title: translate(caller.lang, key).replace(/\{[^}]+\}/g, '…'),
      }));
      return { list: await entries({ lang: caller.lang, timeZone }, rows), matters, total, page: q.page, size: q.size };
    },

    async xlsx(caller: AdminCaller, q: LogQuery, timeZone: string): Promise<Buffer> {
      const f = await filter(caller, q);
      const rows = await entries({ lang: caller.lang, timeZone }, await repo.all(f, LOG_EXPORT_MAX));
      const t = (key: string, params?: Record<string, string | number>) => translate(caller.lang, key, params);
      const workbook = new ExcelJS.Workbook();
      workbook.created = new Date();
      const sheet = workbook.addWorksheet(t('oplog.export.sheet'), { views: [{ state: 'frozen', ySplit: 1 }] });
      const cols: { header: string; width: number; value: (e: LogEntry) => string }[] = [
        { header: t('oplog.export.time', { zone: timeZone }), width: 20, value: (e) => formatTime(e.time, timeZone) },
        { header: t('oplog.export.account'), width: 26, value: (e) => e.account },
        { header: t('oplog.export.nickname'), width: 18, value: (e) => e.nickname },
        {
          header: t('oplog.export.matter'),
          width: 50,
          value: (e) => (e.outcomeText ? `${e.matter} (${e.outcomeText})` : e.matter),
        },
        { header: t('oplog.export.target'), width: 22, value: (e) => e.targetName },
        { header: t('oplog.export.ip'), width: 16, value: (e) => e.ip },
      ];
      sheet.columns = cols.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width }));
      sheet.getRow(1).font = { bold: true };
      for (const row of rows) sheet.addRow(cols.map((c) => c.value(row)));
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: cols.length } };
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },
  };
}
export type LogService = ReturnType<typeof createLogService>;
