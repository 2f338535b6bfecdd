// /baobiao/export: a saved report version as a PDF or an XLSX file, in the reader's language.
import type { Language, ReportType } from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import { reportDocument } from './document.ts';
import type { FontStack } from './fonts.ts';
import { createPdfWriter } from './pdf.ts';
import type { ReportService } from './service.ts';
import { reportXlsx } from './xlsx.ts';

export interface ReportFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

export function createReportExport(opts: { reports: ReportService; fonts: () => FontStack }) {
  let pdf: ReturnType<typeof createPdfWriter> | null = null;
  return async function exportReport(
    ctx: SessionContext,
    input: { token: string; type: ReportType; version?: number | undefined; format: 'pdf' | 'xlsx' },
    lang: Language,
  ): Promise<ReportFile> {
    const { set, report } = await opts.reports.forExport(ctx, input);
    const model = reportDocument(report, set, lang);
    if (input.format === 'xlsx') {
      return {
        fileName: `${model.fileBase}.xlsx`,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        body: await reportXlsx(model, translate(lang, `reports.types.${report.type}`)),
      };
    }
    pdf ??= createPdfWriter(opts.fonts());
    return { fileName: `${model.fileBase}.pdf`, contentType: 'application/pdf', body: await pdf(model, lang) };
  };
}
export type ReportExport = ReturnType<typeof createReportExport>;
