// A station's statistics as a file (the answer is the file itself, as the other exports): one row per bucket
// (day or month of the station's calendar) with its totals and each tariff period's charge, discharge and
// income, then a row of totals. XLSX with typed cells, or CSV (UTF-8 with a byte-order mark). Headers in the
// caller's language, money in the station's currency.
import ExcelJS from 'exceljs';
import { PRICE_PERIODS, type EnergyFigures, type Language, type SiteStatsResponse } from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';

interface Column {
  header: string;
  width: number;
  numFmt?: string;
  value: (row: { label: string; figures: EnergyFigures; periods: SiteStatsResponse['periods'] }) => string | number;
}

function columns(lang: Language, currency: string): Column[] {
  const t = (key: string, params: Record<string, string | number> = {}) => translate(lang, key, params);
  const kwh = '0.000';
  const money = '0.00';
  const cols: Column[] = [
    { header: t('sites.export.bucket'), width: 14, value: (r) => r.label },
    { header: t('sites.export.charge'), width: 16, numFmt: kwh, value: (r) => r.figures.chargeKwh },
    { header: t('sites.export.discharge'), width: 16, numFmt: kwh, value: (r) => r.figures.dischargeKwh },
    {
      header: t('sites.export.chargeCost', { currency }),
      width: 18,
      numFmt: money,
      value: (r) => r.figures.chargeCost,
    },
    {
      header: t('sites.export.dischargeIncome', { currency }),
      width: 18,
      numFmt: money,
      value: (r) => r.figures.dischargeIncome,
    },
    { header: t('sites.export.income', { currency }), width: 16, numFmt: money, value: (r) => r.figures.income },
  ];
  for (const p of PRICE_PERIODS) {
    const period = t(`sites.period.${p}`);
    cols.push(
      {
        header: `${period} · ${t('sites.export.charge')}`,
        width: 18,
        numFmt: kwh,
        value: (r) => r.periods[p].chargeKwh,
      },
      {
        header: `${period} · ${t('sites.export.discharge')}`,
        width: 18,
        numFmt: kwh,
        value: (r) => r.periods[p].dischargeKwh,
      },
      {
        header: `${period} · ${t('sites.export.income', { currency })}`,
        width: 18,
        numFmt: money,
        value: (r) => r.periods[p].income,
      },
    );
  }
  return cols;
}

function tableRows(stats: SiteStatsResponse, lang: Language) {
  return [
    ...stats.buckets.map((b) => ({ label: b.bucket, figures: b, periods: b.periods })),
    { label: translate(lang, 'sites.export.total'), figures: stats.totals, periods: stats.periods },
  ];
}

export async function statsXlsx(stats: SiteStatsResponse, name: string, lang: Language): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(translate(lang, 'sites.export.sheet'), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const cols = columns(lang, stats.currency);
  sheet.columns = cols.map((c, i) => ({
    header: c.header,
    key: `c${i}`,
    width: c.width,
    ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  const rows = tableRows(stats, lang);
  for (const row of rows) sheet.addRow(cols.map((c) => c.value(row)));
  sheet.getRow(rows.length + 1).font = { bold: true };
  workbook.title = name;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A CSV cell: quoted when needed; text a spreadsheet would run as a formula is defused with a quote. */
function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function statsCsv(stats: SiteStatsResponse, lang: Language): Buffer {
  const cols = columns(lang, stats.currency);
  const lines = [cols.map((c) => csvCell(c.header)).join(',')];
  for (const row of tableRows(stats, lang)) lines.push(cols.map((c) => csvCell(c.value(row))).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
