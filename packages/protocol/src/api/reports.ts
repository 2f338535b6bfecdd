// Set reports (spec 3 "Report", spec 7 /baobiao/*, /data/*Report, /genset/reportone) and the weather of a
// set's place (/getWeather). A report is a form: header fields one1–one5 and two1–two3, and six rows of six1–six10
// (type 1, diesel generator) or six1–six15 (type 2, air compressor). Each row covers one sixth of the report's
// period (whole days of the set's time zone when the period has six days or more, whole hours otherwise), and
// each column is one quantity of that part, read from the set's history when prefilled:
// - counters (run hours, load hours, starts, energy): the last reading of the row minus the last reading before
//   it (for the first row, minus the first reading of the period); a counter that went back (a controller
//   replaced) counts what it gained within the row;
// - peaks and lows: the highest or lowest reading of the row; levels at the start or end: the first or last
//   point of the row as the history chart shows it;
// - alarms: alarms that started within the row (the shutdown column counts shutdown and trip alarms);
// - services: how often the controller's maintenance countdown was reset within the row.
// The columns' units are the international symbols; each is translated with `unitIn` where a person reads it.
import { z } from 'zod';
import { setToken } from './devices.ts';
import { V } from './rules.ts';
import { MAX_ROW_ID } from './codes.ts';

export const REPORT_TYPES = [1, 2] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** Rows of every report. */
export const REPORT_ROWS = 6;
/** The longest period one report covers, in days. */
export const MAX_REPORT_DAYS = 366;

/** Message keys of the checks beyond the shared ones (server: catalogs/reports.ts, console: reports.json). */
export const REPORT_RULES = {
  range: 'validation.reportRange',
  integer: 'validation.reportInteger',
  date: 'validation.reportDate',
  number: 'validation.reportNumber',
  order: 'validation.rangeOrder',
  span: 'validation.rangeSpan',
} as const;

export interface ReportFieldDef {
  /** The form's field name (one1…, six1…). */
  field: string;
  /** The quantity it holds: `reports.fields.<key>` (header) or `reports.columns.<key>` (rows) names it. */
  key: string;
  kind: 'text' | 'number' | 'date';
  /** International symbol, '' for counts. */
  unit?: string;
  decimals?: number;
  min?: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  maxLength?: number;
  /** Must not be empty; other fields may be left blank (null or ''). */
  required?: boolean;
}

const text = (field: string, key: string, maxLength: number, required = false): ReportFieldDef => ({
  field,
  key,
  kind: 'text',
  maxLength,
  required,
});
const num = (
  field: string,
  key: string,
  unit: string,
  min: number,
  max: number,
  decimals: number,
  integer = false,
): ReportFieldDef => ({ field, key, kind: 'number', unit, min, max, decimals, integer });
const count = (field: string, key: string, max = 100_000) => num(field, key, '', 0, max, 0, true);

/** Header fields of both report types (spec: one3 temperature, one4 pressure, one5 date, two1 humidity). */
export const REPORT_HEADER: readonly ReportFieldDef[] = [
  text('one1', 'equipment', 100, true),
  text('one2', 'customer', 200),
  num('one3', 'ambientTemp', '°C', -90, 70, 2),
  num('one4', 'pressure', 'hPa', 300, 1100, 0),
  { field: 'one5', key: 'reportDate', kind: 'date', required: true },
  num('two1', 'humidity', '%', 0, 100, 0),
  text('two2', 'preparedBy', 60),
  text('two3', 'summary', 1000),
];

const period = (): ReportFieldDef => text('six1', 'period', 40, true);
const runHours = (field: string) => num(field, 'runHours', 'h', 0, 8784, 1);
const remarks = (field: string) => text(field, 'remarks', 200);

/** The six1… columns of each type, in order. */
export const REPORT_COLUMNS: Record<ReportType, readonly ReportFieldDef[]> = {
  1: [
    period(),
    runHours('six2'),
    count('six3', 'starts'),
    num('six4', 'energy', 'kWh', 0, 100_000_000, 0),
    num('six5', 'peakLoad', 'kW', 0, 100_000, 1),
    num('six6', 'maxCoolantTemp', '°C', -50, 200, 0),
    num('six7', 'fuelLevelEnd', '%', 0, 100, 0),
    count('six8', 'alarms'),
    count('six9', 'services', 1000),
    remarks('six10'),
  ],
  2: [
    period(),
    runHours('six2'),
    num('six3', 'loadHours', 'h', 0, 8784, 1),
    count('six4', 'starts'),
    num('six5', 'maxDischargePressure', 'bar', 0, 100, 2),
    num('six6', 'maxDischargeTemp', '°C', -50, 250, 0),
    num('six7', 'maxCoolantTemp', '°C', -50, 200, 0),
    num('six8', 'maxEngineSpeed', 'r/min', 0, 10_000, 0),
    num('six9', 'fuelLevelStart', '%', 0, 100, 0),
    num('six10', 'fuelLevelEnd', '%', 0, 100, 0),
    num('six11', 'minBatteryVoltage', 'V', 0, 100, 1),
    count('six12', 'alarms'),
    count('six13', 'shutdownAlarms'),
    count('six14', 'services', 1000),
    remarks('six15'),
  ],
};

/**
 * Items of a set's protocol that the air-compressor columns read when the protocol has them (the seed layouts
 * do not: those columns stay blank for the technician to fill in).
 */
export const COMPRESSOR_ITEMS = {
  dischargePressure: 'discharge_pressure',
  dischargeTemp: 'discharge_temp',
  loadHours: 'load_hours',
} as const;

/** Items by which a protocol measures a generator. */
export const GENERATOR_ITEMS = ['gen_kw', 'gen_voltage_l1', 'kwh_total', 'gen_freq'] as const;

/**
 * The kinds of report that fit a set whose protocol has these items (and those already saved for it): a
 * compressor's protocol gets the compressor report, a generator's the generator report; one that measures
 * neither gets the generator report, the console's own kind.
 */
export function reportTypesFor(itemKeys: Iterable<string>, saved: Iterable<ReportType> = []): ReportType[] {
  const keys = new Set(itemKeys);
  const types = new Set<ReportType>(saved);
  const compressor = Object.values(COMPRESSOR_ITEMS).some((k) => keys.has(k));
  const generator = GENERATOR_ITEMS.some((k) => keys.has(k));
  if (generator || !compressor) types.add(1);
  if (compressor) types.add(2);
  return REPORT_TYPES.filter((type) => types.has(type));
}

// ---- the form ------------------------------------------------------------------------------------------

export type ReportValue = string | number | null;
export type ReportRow = Record<string, ReportValue>;
export interface ReportForm {
  one1: string;
  one2: string;
  one3: number | null;
  one4: number | null;
  one5: string;
  two1: number | null;
  two2: string;
  two3: string;
  rows: ReportRow[];
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD. */
export function isReportDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.toISOString().slice(0, 10) === value;
}

/** Days from `from` to `to`, both included (YYYY-MM-DD). */
export function reportDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export interface ReportProblem {
  /** Where: `one5`, `rows.2.six4`. */
  path: string;
  def: ReportFieldDef;
  /** Row index (0–5) for row fields. */
  row?: number;
  rule: string;
  params?: Record<string, number>;
}

function checkValue(def: ReportFieldDef, value: unknown): Omit<ReportProblem, 'path' | 'def'> | null {
  if (value === undefined) return { rule: V.required };
  if (def.kind === 'number') {
    if (value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value)) return { rule: REPORT_RULES.number };
    if (def.integer && !Number.isInteger(value)) return { rule: REPORT_RULES.integer };
    if (value < def.min! || value > def.max!)
      return { rule: REPORT_RULES.range, params: { min: def.min!, max: def.max! } };
    return null;
  }
  if (value === null) return def.required ? { rule: V.required } : null;
  if (typeof value !== 'string') return { rule: V.invalid };
  if (def.required && value.trim() === '') return { rule: V.required };
  if (def.kind === 'date') return value.trim() === '' || isReportDate(value) ? null : { rule: REPORT_RULES.date };
  if (value.length > def.maxLength!) return { rule: V.tooLong };
  return null;
}

/**
 * Every problem of a report form of `type`, in form order: a field absent or of the wrong kind, a required
 * field left empty, a number out of its column's range, a text too long, rows other than six, unknown fields.
 * The server refuses a form with any; the console shows them beside the fields.
 */
export function checkReportForm(type: ReportType, form: unknown): ReportProblem[] {
  const problems: ReportProblem[] = [];
  const rowsDef: ReportFieldDef = { field: 'rows', key: 'rows', kind: 'text' };
  if (!form || typeof form !== 'object' || Array.isArray(form)) {
    return [{ path: 'form', def: { field: 'form', key: 'form', kind: 'text' }, rule: V.required }];
  }
  const f = form as Record<string, unknown>;
  for (const def of REPORT_HEADER) {
    const p = checkValue(def, f[def.field]);
    if (p) problems.push({ path: def.field, def, ...p });
  }
  const known = new Set([...REPORT_HEADER.map((d) => d.field), 'rows']);
  for (const key of Object.keys(f)) {
    if (!known.has(key))
      problems.push({ path: key, def: { field: key, key, kind: 'text' }, rule: 'validation.unknownField' });
  }
  const rows = f.rows;
  if (!Array.isArray(rows) || rows.length !== REPORT_ROWS) {
    problems.push({ path: 'rows', def: rowsDef, rule: rows === undefined ? V.required : V.invalid });
    return problems;
  }
  const columns = REPORT_COLUMNS[type];
  const fields = new Set(columns.map((c) => c.field));
  rows.forEach((row: unknown, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row)) {
      problems.push({ path: `rows.${i}`, def: rowsDef, row: i, rule: V.invalid });
      return;
    }
    const r = row as Record<string, unknown>;
    for (const def of columns) {
      const p = checkValue(def, r[def.field]);
      if (p) problems.push({ path: `rows.${i}.${def.field}`, def, row: i, ...p });
    }
    for (const key of Object.keys(r)) {
      if (!fields.has(key))
        problems.push({
          path: `rows.${i}.${key}`,
          def: { field: key, key, kind: 'text' },
          row: i,
          rule: 'validation.unknownField',
        });
    }
  });
  return problems;
}

/** An empty form of `type`: every field present, numbers blank. */
export function emptyReportForm(type: ReportType): ReportForm {
  const row = (): ReportRow =>
    Object.fromEntries(REPORT_COLUMNS[type].map((c) => [c.field, c.kind === 'number' ? null : '']));
  return {
    one1: '',
    one2: '',
    one3: null,
    one4: null,
    one5: '',
    two1: null,
    two2: '',
    two3: '',
    rows: Array.from({ length: REPORT_ROWS }, row),
  };
}

// ---- schemas of the calls ------------------------------------------------------------------------------

const reportType = () => z.union([z.literal(1), z.literal(2)], { error: V.invalid });

export const reportDateField = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .refine(isReportDate, { error: REPORT_RULES.date });

function checkPeriod(v: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (!isReportDate(v.from) || !isReportDate(v.to)) return;
  if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_RULES.order });
  else if (reportDays(v.from, v.to) > MAX_REPORT_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_RULES.span });
}

/** The shape of a form as the OpenAPI document shows it; the server checks it with checkReportForm. */
function formSchema(type: ReportType) {
  const field = (def: ReportFieldDef) => {
    const base = def.kind === 'number' ? z.number().nullable() : z.string();
    const unit = def.unit ? ` (${def.unit})` : '';
    return base.describe(`${def.key}${unit}`);
  };
  const row = z.strictObject(Object.fromEntries(REPORT_COLUMNS[type].map((c) => [c.field, field(c)])));
  return z.strictObject({
    ...Object.fromEntries(REPORT_HEADER.map((d) => [d.field, field(d)])),
    rows: z.array(row).length(REPORT_ROWS),
  });
}
export const dieselReportForm = formSchema(1);
export const compressorReportForm = formSchema(2);

/** /data/dieselGeneratorReport and /data/airCompressorReport: a form prefilled from the set's data. */
export const reportPrefillRequest = z
  .strictObject({ token: setToken(), from: reportDateField(), to: reportDateField() })
  .superRefine(checkPeriod);
export type ReportPrefillRequest = z.input<typeof reportPrefillRequest>;

export const weatherState = z.enum(['ok', 'notConfigured', 'noPosition']);
export type WeatherState = z.infer<typeof weatherState>;

/** /getWeather: the weather at the set's place, from the weather service or the set's own sensors. */
export const weatherRequest = z.strictObject({
  token: setToken(),
  /** '1': ask the source again now instead of answering from the cache (the sync button). */
  refresh: z.enum(['0', '1'], { error: V.invalid }).optional(),
});

export const weatherResponse = z.object({
  state: weatherState,
  /** 'provider': the configured weather service; 'sensors': the set's ambient sensors. */
  source: z.enum(['provider', 'sensors']).nullable(),
  /** Kelvin, as the weather service gives it (spec: "temp (Kelvin)"). */
  temp: z.number().nullable(),
  /** °C with two decimals: temp − 273.15. */
  celsius: z.number().nullable(),
  /** hPa. */
  pressure: z.number().nullable(),
  /** %. */
  humidity: z.number().nullable(),
  /** When the source observed it (epoch ms). */
  observedAt: z.number().nullable(),
  /** When the server read it from the source (epoch ms). */
  fetchedAt: z.number().nullable(),
});
export type WeatherResponse = z.infer<typeof weatherResponse>;

/** Kelvin to °C with two decimals (spec 9: Kelvin minus 273.15, two decimals). */
export function kelvinToCelsius(kelvin: number): number {
  return Math.round((kelvin - 273.15) * 100) / 100;
}

export const reportPeriodPart = z.object({ start: z.number(), end: z.number(), label: z.string() });

export const reportPrefillResponse = z.object({
  type: reportType(),
  from: z.string(),
  to: z.string(),
  /** The set's time zone: days and rows are its days. */
  timeZone: z.string(),
  /** The six rows' time ranges, [start, end) in epoch ms. */
  parts: z.array(reportPeriodPart),
  form: z.union([dieselReportForm, compressorReportForm]),
  /** The weather that filled one3, one4 and two1, or why they are blank (null: the weather service failed). */
  weather: weatherResponse.nullable(),
  /** The weather service's message when it failed, in the request's language. */
  weatherError: z.string().nullable(),
});
export type ReportPrefillResponse = z.infer<typeof reportPrefillResponse>;

/** /baobiao/add: saves the form as the next version of the set's report of that type. */
export const reportSaveRequest = z
  .strictObject({
    token: setToken(),
    type: reportType(),
    from: reportDateField(),
    to: reportDateField(),
    form: z.union([dieselReportForm, compressorReportForm]),
  })
  .superRefine(checkPeriod);
export type ReportSaveRequest = z.input<typeof reportSaveRequest>;

export const reportSaveResponse = z.object({ id: z.number().int(), version: z.number().int() });

export const reportVersionSummary = z.object({
  id: z.number().int(),
  version: z.number().int(),
  from: z.string(),
  to: z.string(),
  createdAt: z.number(),
  author: z.string(),
});
export type ReportVersionSummary = z.infer<typeof reportVersionSummary>;

export const reportVersion = reportVersionSummary.extend({
  type: reportType(),
  form: z.union([dieselReportForm, compressorReportForm]),
});
export type ReportVersion = z.infer<typeof reportVersion>;

/** /baobiao/info: one version (the latest unless asked) and the list of every version, newest first. */
export const reportInfoRequest = z.strictObject({
  token: setToken(),
  type: reportType(),
  version: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid })
    .optional(),
});
export type ReportInfoRequest = z.input<typeof reportInfoRequest>;

export const reportInfoResponse = z.object({
  report: reportVersion.nullable(),
  versions: z.array(reportVersionSummary),
});
export type ReportInfoResponse = z.infer<typeof reportInfoResponse>;

/** /genset/reportone: the set as its report page needs it, and the latest version of each report type. */
export const reportOneResponse = z.object({
  token: z.string(),
  name: z.string(),
  timeZone: z.string(),
  latest: z.array(reportVersionSummary.extend({ type: reportType() })),
  weatherConfigured: z.boolean(),
  /**
   * The kinds of report that fit the set, by what its protocol measures: a generator's (1) when it measures a
   * generator, an air compressor's (2) when it measures a compressor; a kind already saved for it stays.
   */
  types: z.array(reportType()),
  /** The first day the set has data of (YYYY-MM-DD in its time zone), null without any. */
  dataFrom: z.string().nullable(),
});
export type ReportOneResponse = z.infer<typeof reportOneResponse>;

export const REPORT_EXPORT_FORMATS = ['pdf', 'xlsx'] as const;

/** /baobiao/export: a saved version as a PDF or XLSX file (the file itself; errors as envelopes). */
export const reportExportRequest = z.strictObject({
  token: setToken(),
  type: reportType(),
  version: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid })
    .optional(),
  format: z.enum(REPORT_EXPORT_FORMATS, { error: V.invalid }).default('pdf'),
});
export type ReportExportRequest = z.input<typeof reportExportRequest>;

/**
 * A set's own weather sensors: items of these keys in its protocol stand in for a weather service when none is
 * configured (temperature in °C, K or °F; humidity in %; pressure in hPa, mbar, kPa, Pa or bar).
 */
export const AMBIENT_ITEMS = {
  temp: 'ambient_temp',
  humidity: 'ambient_humidity',
  pressure: 'ambient_pressure',
} as const;
