// The set list as a file (spec 7: /genset/export answers with the file itself): XLSX with typed cells or
// CSV (UTF-8 with a byte-order mark so spreadsheet programs read the characters right); headers in the
// caller's language with their units, times in the caller's time zone.
import ExcelJS from 'exceljs';
import type { GensetListItem, Language } from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';

const STATUS_KEYS = [
  'gensets.status.offline',
  'gensets.status.shutdown',
  'gensets.status.standby',
  'gensets.status.running',
];

interface Column {
  header: string;
  width: number;
  /** Excel number format for numeric columns. */
  numFmt?: string;
  value: (row: GensetListItem) => string | number | null;
}

/** "2026-11-21 09:06:27" in the given zone. */
export function formatTime(ms: number | null, timeZone: string): string {
  if (ms === null || ms <= 0) return '';
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

function columns(lang: Language, timeZone: string): Column[] {
  const t = (key: string, params: Record<string, string | number> = {}) => translate(lang, key, params);
  return [
    { header: t('gensets.export.name'), width: 30, value: (r) => r.name },
    { header: t('gensets.export.number'), width: 16, value: (r) => r.number },
    { header: t('gensets.export.status'), width: 12, value: (r) => t(STATUS_KEYS[r.status] ?? STATUS_KEYS[0]!) },
    { header: t('gensets.export.alarms'), width: 10, numFmt: '0', value: (r) => r.alarmCount },
    { header: t('gensets.export.power'), width: 14, numFmt: '0.0', value: (r) => r.values.kw },
    { header: t('gensets.export.ratedPower'), width: 14, numFmt: '0.#', value: (r) => r.ratedPowerKw },
    { header: t('gensets.export.fuelLevel'), width: 12, numFmt: '0', value: (r) => r.values.fuelLevel },
    {
      header: t('gensets.export.batteryVoltage'),
      width: 14,
      numFmt: '0.0',
      value: (r) => r.values.batteryVoltage,
    },
    { header: t('gensets.export.runHours'), width: 14, numFmt: '0', value: (r) => r.values.runHours },
    {
      header: t('gensets.export.lastSeen', { zone: timeZone }),
      width: 22,
      value: (r) => formatTime(r.lastSeen, timeZone),
    },
    { header: t('gensets.export.modemId'), width: 18, value: (r) => r.modemId },
    { header: t('gensets.export.controllerModel'), width: 18, value: (r) => r.controllerModel },
    { header: t('gensets.export.owner'), width: 18, value: (r) => r.ownerName },
    { header: t('gensets.export.rights'), width: 12, value: (r) => t(`gensets.rights.${r.rights}`) },
    { header: t('gensets.export.latitude'), width: 12, numFmt: '0.000000', value: (r) => r.latitude },
    { header: t('gensets.export.longitude'), width: 12, numFmt: '0.000000', value: (r) => r.longitude },
    {
      header: t('gensets.export.createdAt', { zone: timeZone }),
      width: 22,
      value: (r) => formatTime(r.createdAt, timeZone),
    },
  ];
}

export async function gensetsXlsx(rows: GensetListItem[], lang: Language, timeZone: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(translate(lang, 'gensets.export.sheet'), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const cols = columns(lang, timeZone);
  sheet.columns = cols.map((c, i) => ({
    header: c.header,
    key: `c${i}`,
    width: c.width,
    ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(cols.map((c) => c.value(row) ?? null));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: cols.length } };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A CSV cell: quoted when needed; text that a spreadsheet would run as a formula is defused with a quote. */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function gensetsCsv(rows: GensetListItem[], lang: Language, timeZone: string): Buffer {
  const cols = columns(lang, timeZone);
  const lines = [cols.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(cols.map((c) => csvCell(c.value(row))).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The media type of an XLSX workbook. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Content-Disposition with a plain ASCII name and the same name per RFC 6266 (filename*). */
export function attachment(name: string): string {
  return `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
