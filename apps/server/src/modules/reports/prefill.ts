// The rows of a prefilled report: each part of the period read through the same history calls as the history
// pages (/history/chart for readings, /alarm/chart for alarms), so that a report says what those pages say.
// What each column means is set out in packages/protocol/src/api/reports.ts.
import {
  COMPRESSOR_ITEMS,
  REPORT_COLUMNS,
  type ChartPoint,
  type Language,
  type ReportRow,
  type ReportType,
} from '@genset/protocol';
import type { SessionContext } from '../auth/service.ts';
import type { HistoryService } from '../history/service.ts';
import type { ReportPart } from './periods.ts';

/** Items the columns read, by what they are. */
const ITEMS = {
  runHours: 'run_hours',
  starts: 'starts',
  energy: 'kwh_total',
  power: 'gen_kw',
  coolant: 'coolant_temp',
  fuel: 'fuel_level',
  maintenance: 'maintenance_hours',
  speed: 'engine_rpm',
  battery: 'battery_voltage',
  loadHours: COMPRESSOR_ITEMS.loadHours,
  dischargePressure: COMPRESSOR_ITEMS.dischargePressure,
  dischargeTemp: COMPRESSOR_ITEMS.dischargeTemp,
} as const;
type ItemRole = keyof typeof ITEMS;

const COUNTERS: readonly ItemRole[] = ['runHours', 'starts', 'energy', 'loadHours'];
const BAR_PER: Record<string, number> = { bar: 1, kPa: 0.01, MPa: 10, Pa: 0.00001, psi: 0.0689476 };

/** What one part of the period shows of one item. */
interface PartFigures {
  first: number | null;
  last: number | null;
  start: number | null;
  end: number | null;
  min: number | null;
  max: number | null;
  points: ChartPoint[];
}

function figuresOf(points: ChartPoint[]): PartFigures {
  let min: number | null = null;
  let max: number | null = null;
  let start: number | null = null;
  let end: number | null = null;
  let first: number | null = null;
  let last: number | null = null;
  for (const [, value, lo, hi] of points) {
    if (lo !== null && (min === null || lo < min)) min = lo;
    if (hi !== null && (max === null || hi > max)) max = hi;
    if (value !== null) {
      if (start === null) start = value;
      end = value;
      last = value;
    }
    if (first === null && lo !== null) first = lo;
  }
  return { first, last, start, end, min, max, points };
}

/**
 * Resets of a countdown (the controller's hours to the next service) over consecutive points: a point whose
 * highest reading is above the lowest of the point before it. `before` is the last point of the previous part.
 */
function resets(points: ChartPoint[], before: ChartPoint | null): number {
  let n = 0;
  let previous = before;
  for (const point of points) {
    if (previous && point[3] !== null && previous[2] !== null && point[3] > previous[2]) n++;
    if (point[2] !== null) previous = point;
  }
  return n;
}

function rounded(value: number | null, decimals = 0): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

export interface PrefillSource {
  history: Pick<HistoryService, 'chart' | 'alarmChart'>;
  /** Items of the set's protocol: key → unit. */
  items: Map<string, string>;
}

export async function prefillRows(
  ctx: SessionContext,
  token: string,
  type: ReportType,
  parts: ReportPart[],
  source: PrefillSource,
  lang: Language,
  timeZone: string,
): Promise<ReportRow[]> {
  const roles = (Object.keys(ITEMS) as ItemRole[]).filter((role) => source.items.has(ITEMS[role]));
  const keys = roles.map((role) => ITEMS[role]);
  const counterBefore = new Map<ItemRole, number>();
  let maintenanceBefore: ChartPoint | null = null;
  const rows: ReportRow[] = [];

  for (const part of parts) {
    const range = { range: 'custom' as const, start: part.start, end: part.end };
    const chart = keys.length
      ? await source.history.chart(ctx, { token, items: keys, ...range }, lang, timeZone)
      : { series: [] };
    const alarms = await source.history.alarmChart(ctx, { token, ...range }, timeZone);
    const of = new Map<ItemRole, PartFigures>();
    roles.forEach((role, i) => of.set(role, figuresOf(chart.series[i]?.points ?? [])));

    const counter = (role: ItemRole): number | null => {
      const f = of.get(role);
      if (!f || f.last === null) return null;
      const previous = counterBefore.get(role) ?? f.first;
      counterBefore.set(role, f.last);
      if (previous === null) return null;
      const gained = f.last - previous;
      // A counter that went back was replaced or reset: what it gained within the part is what is known.
      return gained >= 0 ? gained : f.last - (f.first ?? f.last);
    };
    const counters = Object.fromEntries(COUNTERS.map((role) => [role, counter(role)])) as Record<
      ItemRole,
      number | null
    >;
    const get = (role: ItemRole) => of.get(role);
    let services: number | null = null;
    const maintenance = get('maintenance');
    if (maintenance) {
      services = resets(maintenance.points, maintenanceBefore);
      const lastPoint = [...maintenance.points].reverse().find((p) => p[2] !== null);
      if (lastPoint) maintenanceBefore = lastPoint;
    }
    const pressure = get('dischargePressure');
    const pressureFactor = BAR_PER[source.items.get(ITEMS.dischargePressure) ?? 'bar'] ?? 1;
    const t = alarms.totals;

    const values: Record<string, number | null> = {
      runHours: counters.runHours,
      loadHours: counters.loadHours,
      starts: counters.starts,
      energy: counters.energy,
      peakLoad: get('power')?.max ?? null,
      maxCoolantTemp: get('coolant')?.max ?? null,
      fuelLevelStart: get('fuel')?.start ?? null,
      fuelLevelEnd: get('fuel')?.end ?? null,
      maxDischargePressure: pressure?.max === null || !pressure ? null : pressure.max * pressureFactor,
      maxDischargeTemp: get('dischargeTemp')?.max ?? null,
      maxEngineSpeed: get('speed')?.max ?? null,
      minBatteryVoltage: get('battery')?.min ?? null,
      alarms: t.warning + t.shutdown + t.trip,
      shutdownAlarms: t.shutdown + t.trip,
      services,
    };
    const row: ReportRow = {};
    for (const column of REPORT_COLUMNS[type]) {
      if (column.key === 'period') row[column.field] = part.label;
      else if (column.kind === 'number') row[column.field] = rounded(values[column.key] ?? null, column.decimals);
      else row[column.field] = '';
    }
    rows.push(row);
  }
  return rows;
}
