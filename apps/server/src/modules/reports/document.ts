// A saved report as its exports show it, in the reader's language: title, the lines about the set, the period
// and the version, the header fields, the table of six rows, the summary. The PDF and the XLSX files are two
// layouts of this one model.
import {
  REPORT_COLUMNS,
  REPORT_HEADER,
  unitIn,
  type Language,
  type ReportFieldDef,
  type ReportVersion,
} from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';
import { localTime } from '../history/range.ts';

export interface DocumentColumn {
  label: string;
  numeric: boolean;
  decimals: number;
}

export interface ReportDocument {
  title: string;
  setName: string;
  /** Period, version and author, time zone. */
  lines: string[];
  /** Header fields but the summary, with their values written out. */
  header: { label: string; value: string | number | null; decimals: number }[];
  columns: DocumentColumn[];
  rows: (string | number | null)[][];
  summaryLabel: string;
  summary: string;
  generated: string;
  fileBase: string;
}

function label(lang: Language, def: ReportFieldDef, domain: 'fields' | 'columns'): string {
  const name = translate(lang, `reports.${domain}.${def.key}`);
  return def.unit ? `${name} (${unitIn(lang, def.unit)})` : name;
}

/** A number written in the reader's language with the column's decimals. */
export function formatNumber(lang: Language, value: number, decimals: number): string {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    value,
  );
}

export function reportDocument(
  report: ReportVersion,
  set: { name: string; time_zone: string },
  lang: Language,
  now = Date.now(),
): ReportDocument {
  const tz = set.time_zone;
  const form = report.form as Record<string, unknown> & { rows: Record<string, string | number | null>[] };
  const columns = REPORT_COLUMNS[report.type];
  const headerDefs = REPORT_HEADER.filter((d) => d.key !== 'summary');
  const summaryDef = REPORT_HEADER.find((d) => d.key === 'summary')!;
  // Characters file systems refuse (and control characters) become '-'.
  const safe = (s: string) => [...s].map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '-' : c)).join('');
  return {
    title: translate(lang, `reports.types.${report.type}`),
    setName: set.name,
    lines: [
      translate(lang, 'reports.export.period', { from: report.from, to: report.to, zone: tz }),
      translate(lang, 'reports.export.version', {
        version: report.version,
        time: localTime(report.createdAt, tz).slice(0, 16),
        author: report.author,
      }),
    ],
    header: headerDefs.map((def) => ({
      label: label(lang, def, 'fields'),
      value: (form[def.field] as string | number | null | undefined) ?? null,
      decimals: def.decimals ?? 0,
    })),
    columns: columns.map((c) => ({
      label: label(lang, c, 'columns'),
      numeric: c.kind === 'number',
      decimals: c.decimals ?? 0,
    })),
    rows: form.rows.map((row) => columns.map((c) => row[c.field] ?? null)),
    summaryLabel: translate(lang, `reports.fields.${summaryDef.key}`),
    summary: String(form[summaryDef.field] ?? ''),
    generated: translate(lang, 'reports.export.generated', { time: localTime(now, tz).slice(0, 16), zone: tz }),
    fileBase: safe(
      `${set.name}_${translate(lang, `reports.types.${report.type}`)}_${report.from}_${report.to}_v${report.version}`,
    ),
  };
}
