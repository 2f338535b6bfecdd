// The operation-log page (log:view): who did what, when, from where and with what outcome, in the reader's
// language; one company's entries, or every company's for the platform. Also as an XLSX file.
import ExcelJS from 'exceljs';
import { Permission, type Language, type LogEntry } from '@genset/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OperationLogTable } from '../../db/schema.ts';
import { translate } from '../../i18n/messages.ts';
import { formatTime } from '../gensets/export.ts';
import { isPlatform, requirePermission, type AdminCaller } from '../roles/service.ts';
import { createLogRepository, type LogFilter } from './repository.ts';

/** The most entries one file holds. */
export const LOG_EXPORT_MAX = 50_000;

interface LogQuery {
  keyword?: string | undefined;
  matter?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
  companyId?: number | undefined;
}

function parseFeedback(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The matter in the reader's language, its placeholders filled from what the entry recorded. */
export function matterText(lang: Language, matter: string, feedback: Record<string, unknown>): string {
  const params = Object.fromEntries(
    Object.entries(feedback).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
  ) as Record<string, string | number>;
  return translate(lang, matter, params);
}

export function createLogService(deps: { db: Db }) {
  const repo = createLogRepository(deps.db);

  function filter(caller: AdminCaller, q: LogQuery): LogFilter {
    requirePermission(caller.ctx, Permission.logView);
    // the platform reads every company's entries unless it names one; anyone else only their company's
    const companyId = isPlatform(caller.ctx) ? (q.companyId ?? null) : caller.companyId;
    return { companyId, keyword: q.keyword, matter: q.matter, start: q.start, end: q.end };
  }

  function entry(lang: Language, row: Selectable<OperationLogTable>): LogEntry {
    const feedback = parseFeedback(row.feedback);
    return {
      id: row.id,
      time: Number(row.created_at),
      companyId: row.company_id,
      account: row.account ?? '',
      nickname: row.nickname ?? '',
      matterKey: row.matter,
      matter: matterText(lang, row.matter, feedback),
      ip: row.ip ?? '',
      target: row.target ?? '',
      feedback,
    };
  }

  return {
    async list(caller: AdminCaller, q: LogQuery & { page: number; size: number }) {
      const f = filter(caller, q);
      const { rows, total } = await repo.page(f, q.page, q.size);
      // a matter's words without the particulars of one entry
      const matters = (await repo.matters(f.companyId)).map((key) => ({
        key,
        title: translate(caller.lang, key).replace(/\{[^}]+\}/g, '…'),
      }));
      return { list: rows.map((r) => entry(caller.lang, r)), matters, total, page: q.page, size: q.size };
    },

    async xlsx(caller: AdminCaller, q: LogQuery, timeZone: string): Promise<Buffer> {
      const f = filter(caller, q);
      const rows = (await repo.all(f, LOG_EXPORT_MAX)).map((r) => entry(caller.lang, r));
      const t = (key: string, params?: Record<string, string | number>) => translate(caller.lang, key, params);
      const workbook = new ExcelJS.Workbook();
      workbook.created = new Date();
      const sheet = workbook.addWorksheet(t('oplog.export.sheet'), { views: [{ state: 'frozen', ySplit: 1 }] });
      const cols: { header: string; width: number; value: (e: LogEntry) => string }[] = [
        { header: t('oplog.export.time', { zone: timeZone }), width: 20, value: (e) => formatTime(e.time, timeZone) },
        { header: t('oplog.export.account'), width: 26, value: (e) => e.account },
        { header: t('oplog.export.nickname'), width: 18, value: (e) => e.nickname },
        { header: t('oplog.export.matter'), width: 50, value: (e) => e.matter },
        { header: t('oplog.export.target'), width: 22, value: (e) => e.target },
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
