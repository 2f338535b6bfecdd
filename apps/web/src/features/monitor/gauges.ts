// The dashboard's dials: which data item each shows, its scale and its coloured zones. Scales follow the
// set's rated values when its details carry them, else what the reading itself suggests (a 12 or 24 V
// battery, a 50 or 60 Hz set); zones say low, normal and high in colour and in a word.
import type { EChartsCoreOption } from 'echarts/core';
import { formatTick } from '../../components/format.ts';

export type Tone = 'neutral' | 'ok' | 'warn' | 'danger';
/** What a zone means, for the word beside the value (colour is never the only sign). */
export type ZoneWord = 'low' | 'high' | null;

export interface Zone {
  /** Upper end of the zone in the item's unit; the last zone ends at the scale's maximum. */
  to: number;
  tone: Tone;
  word: ZoneWord;
}

export interface GaugeScale {
  min: number;
  max: number;
  zones: Zone[];
}

export interface RatedValues {
  kw?: number | null;
  rpm?: number | null;
  volts?: number | null;
  hz?: number | null;
  batteryVolts?: number | null;
}

export type GaugeId = 'rpm' | 'voltage' | 'frequency' | 'power' | 'oil' | 'coolant' | 'fuel' | 'battery';

export interface GaugeDefinition {
  id: GaugeId;
  /** Data items that can feed it, the first one present wins. */
  keys: readonly string[];
  scale(input: {
    value: number | null;
    unit: string;
    rated: RatedValues;
    peak: number;
    frequency: number | null;
  }): GaugeScale;
}

export const TONE_COLORS: Record<Tone, string> = {
  neutral: '#bfbfbf',
  ok: '#52c41a',
  warn: '#faad14',
  danger: '#ff4d4f',
};

/** Darker shades for text on white (WCAG AA). */
export const TONE_TEXT: Record<Tone, string> = {
  neutral: '#262626',
  ok: '#237804',
  warn: '#ad6800',
  danger: '#cf1322',
};

const z = (to: number, tone: Tone, word: ZoneWord = null): Zone => ({ to, tone, word });

/** The next "round" number at or above `value` (1, 2, 2.5, 5 times a power of ten). */
export function niceCeil(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value - 1e-9) return step * power;
  return 10 * power;
}

function nominalFrequency(rated: RatedValues, frequency: number | null): number {
  if (rated.hz && rated.hz > 0) return rated.hz;
  return frequency !== null && frequency > 55 ? 60 : 50;
}

/** Phase-to-neutral voltages in use around the world; a reading picks the nearest. */
const PHASE_VOLTAGES = [110, 120, 127, 220, 230, 240, 254, 277];

/**
 * The rated phase voltage, else the one nearest the highest reading taken at rated speed (a reading during
 * run-up says nothing), else 230 V.
 */
function nominalPhaseVolts(rated: RatedValues, peak: number, frequency: number | null): number {
  if (rated.volts && rated.volts > 0) return rated.volts > 300 ? Math.round(rated.volts / Math.sqrt(3)) : rated.volts;
  const hz = nominalFrequency(rated, frequency);
  const atSpeed = frequency !== null && Math.abs(frequency - hz) <= hz * 0.06;
  if (!atSpeed || peak < 60) return 230;
  return PHASE_VOLTAGES.reduce((best, v) => (Math.abs(v - peak) < Math.abs(best - peak) ? v : best));
}

/** Normal within ±a, caution to ±b, low/high beyond. */
function aroundNominal(nominal: number, a: number, b: number, max: number): Zone[] {
  return [
    z(nominal * (1 - b), 'neutral'),
    z(nominal * (1 - a), 'warn', 'low'),
    z(nominal * (1 + a), 'ok'),
    z(nominal * (1 + b), 'warn', 'high'),
    z(max, 'danger', 'high'),
  ];
}

export const GAUGES: readonly GaugeDefinition[] = [
  {
    id: 'rpm',
    keys: ['engine_rpm'],
    scale: ({ rated, frequency }) => {
      const nominal = rated.rpm && rated.rpm > 0 ? rated.rpm : nominalFrequency(rated, frequency) === 60 ? 1800 : 1500;
      const max = Math.ceil((nominal * 1.3) / 500) * 500;
      return { min: 0, max, zones: aroundNominal(nominal, 0.05, 0.1, max) };
    },
  },
  {
    id: 'voltage',
    keys: ['gen_voltage_l1', 'gen_voltage_l12'],
    scale: ({ rated, peak, frequency }) => {
      const nominal = nominalPhaseVolts(rated, peak, frequency);
      const max = Math.ceil((nominal * 1.25) / 50) * 50;
      return { min: 0, max, zones: aroundNominal(nominal, 0.1, 0.15, max) };
    },
  },
  {
    id: 'frequency',
    keys: ['gen_freq'],
    scale: ({ rated, frequency }) => {
      const nominal = nominalFrequency(rated, frequency);
      const max = Math.ceil((nominal * 1.3) / 10) * 10;
      return { min: 0, max, zones: aroundNominal(nominal, 0.03, 0.06, max) };
    },
  },
  {
    id: 'power',
    keys: ['gen_kw'],
    scale: ({ rated, peak }) => {
      if (rated.kw && rated.kw > 0) {
        const max = niceCeil(rated.kw * 1.2);
        return { min: 0, max, zones: [z(rated.kw * 0.9, 'ok'), z(rated.kw, 'warn', 'high'), z(max, 'danger', 'high')] };
      }
      // without a rating the scale only grows with the highest reading seen, so the needle does not jump
      return { min: 0, max: niceCeil(Math.max(10, peak * 1.25)), zones: [z(Number.MAX_VALUE, 'ok')] };
    },
  },
  {
    id: 'oil',
    keys: ['oil_pressure'],
    scale: ({ unit }) => {
      const max = /psi/i.test(unit) ? 150 : /^bar$/i.test(unit) ? 10 : /mpa/i.test(unit) ? 1 : 1000;
      return {
        min: 0,
        max,
        zones: [z(max * 0.1, 'danger', 'low'), z(max * 0.2, 'warn', 'low'), z(max * 0.8, 'ok'), z(max, 'warn', 'high')],
      };
    },
  },
  {
    id: 'coolant',
    keys: ['coolant_temp'],
    scale: ({ unit }) =>
      /F/.test(unit)
        ? { min: 32, max: 250, zones: [z(203, 'ok'), z(221, 'warn', 'high'), z(250, 'danger', 'high')] }
        : { min: 0, max: 120, zones: [z(95, 'ok'), z(105, 'warn', 'high'), z(120, 'danger', 'high')] },
  },
  {
    id: 'fuel',
    keys: ['fuel_level'],
    scale: () => ({ min: 0, max: 100, zones: [z(10, 'danger', 'low'), z(25, 'warn', 'low'), z(100, 'ok')] }),
  },
  {
    id: 'battery',
    keys: ['battery_voltage'],
    scale: ({ value, rated }) => {
      // The rated value of the details, unless the reading cannot be on such a system (25 V on a "12 V" set: the
      // details are wrong, the controller is right); a low reading on a 24 V system stays low.
      const read = value !== null && value > 18 ? 24 : 12;
      const given = rated.batteryVolts && rated.batteryVolts > 0 ? rated.batteryVolts : null;
      const system = given === null || (value !== null && value > given * 1.5) ? read : given;
      const k = system / 12;
      return {
        min: 8 * k,
        max: 16 * k,
        zones: [
          z(11 * k, 'danger', 'low'),
          z(12 * k, 'warn', 'low'),
          z(14.8 * k, 'ok'),
          z(15.5 * k, 'warn', 'high'),
          z(16 * k, 'danger', 'high'),
        ],
      };
    },
  },
];

/** The zone a reading falls in (null without a reading). */
export function zoneOf(scale: GaugeScale, value: number | null): Zone | null {
  if (value === null) return null;
  return scale.zones.find((zone) => value <= zone.to) ?? scale.zones.at(-1) ?? null;
}

/** ECharts' axis colours: [fraction of the scale where each zone ends, colour]. */
export function zoneStops(scale: GaugeScale): [number, string][] {
  const span = scale.max - scale.min;
  return scale.zones.map((zone, i) => [
    i === scale.zones.length - 1 ? 1 : Math.min(1, Math.max(0, (zone.to - scale.min) / span)),
    TONE_COLORS[zone.tone],
  ]);
}

/** A number of scale divisions that puts labels on round numbers (4 to 8 of them). */
export function divisions(span: number): number {
  const round = (step: number) => {
    const power = 10 ** Math.floor(Math.log10(step));
    return [1, 2, 2.5, 4, 5].some((m) => Math.abs(step - m * power) < 1e-9 * power);
  };
  for (const n of [4, 5, 6, 7, 8]) if (round(span / n)) return n;
  return 4;
}

/**
 * With the engine at rest, no oil pressure, speed, voltage or frequency is expected: those dials leave their
 * "low" zones unsaid rather than alarm on a healthy stopped set.
 */
export const LOW_WHEN_RUNNING_ONLY: ReadonlySet<GaugeId> = new Set(['rpm', 'voltage', 'frequency', 'oil']);

export function effectiveZone(id: GaugeId, zone: Zone | null, engineRunning: boolean): Zone | null {
  if (!zone || engineRunning || zone.word !== 'low' || !LOW_WHEN_RUNNING_ONLY.has(id)) return zone;
  return { ...zone, tone: 'neutral', word: null };
}

function tickLabel(value: number): string {
  return formatTick(value);
}

/** A dial with coloured zones and a needle; the reading itself is written beside it, not on the canvas. */
export function gaugeOption(scale: GaugeScale, value: number | null, compact = false): EChartsCoreOption {
  const reading = value === null ? scale.min : Math.min(scale.max, Math.max(scale.min, value));
  return {
    animationDurationUpdate: 500,
    series: [
      {
        type: 'gauge',
        min: scale.min,
        max: scale.max,
        startAngle: 210,
        endAngle: -30,
        splitNumber: divisions(scale.max - scale.min),
        radius: '95%',
        center: ['50%', '60%'],
        axisLine: { lineStyle: { width: compact ? 8 : 10, color: zoneStops(scale) } },
        pointer: {
          show: value !== null,
          length: '64%',
          width: compact ? 4 : 5,
          itemStyle: { color: 'auto' },
        },
        anchor: { show: value !== null, size: compact ? 8 : 10, itemStyle: { color: '#434343' } },
        axisTick: { distance: compact ? -8 : -10, length: 4, splitNumber: 2, lineStyle: { color: '#fff', width: 1 } },
        splitLine: { distance: compact ? -8 : -10, length: compact ? 8 : 10, lineStyle: { color: '#fff', width: 2 } },
        axisLabel: { distance: compact ? 10 : 14, color: '#595959', fontSize: compact ? 9 : 11, formatter: tickLabel },
        title: { show: false },
        detail: { show: false },
        data: [{ value: reading }],
      },
    ],
  };
}
