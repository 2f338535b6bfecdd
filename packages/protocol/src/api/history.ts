// Request and response schemas of history, alarms and charts of one set, the home dashboard summary, the
// multi-set status grid, the maintenance countdown and the runtime-data export (spec 7, "Monitoring").
// Times are epoch milliseconds; day labels are YYYY-MM-DD in the request's time zone (X-Timezone).
import { z } from 'zod';
import { alarmLevelSchema } from '../device-protocol/schema.ts';
import { DEFAULT_PAGE_SIZE, MAX_SELECTED_ITEMS, PAGE_SIZES } from './codes.ts';
import { setToken } from './devices.ts';
import { V } from './rules.ts';

// ---- time ranges ---------------------------------------------------------------------------------------

/** last 7 days, last 30 days, last 91 days, or start and end of the caller's choice. */
export const HISTORY_RANGES = ['week', 'month', 'threeMonths', 'custom'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];
export const RANGE_DAYS: Record<Exclude<HistoryRange, 'custom'>, number> = { week: 7, month: 30, threeMonths: 91 };
/** The longest custom range. */
export const MAX_RANGE_DAYS = 366;
/** Ranges up to this long are read from the stored samples; longer ones from hourly (or daily) rollups. */
export const RAW_RANGE_MS = 2 * 86_400_000;
/** Ranges longer than this are read from daily rollups (one point per set-local day). */
export const HOURLY_RANGE_MS = 122 * 86_400_000;
/** The most points a chart series holds; longer series are bucketed (average, with min and max). */
export const MAX_CHART_POINTS = 2000;
/** The most items one chart or history table asks for. */
export const MAX_HISTORY_ITEMS = MAX_SELECTED_ITEMS;
/** The most rows one export file holds. */
export const MAX_EXPORT_ROWS = 100_000;

export const RANGE_RULES = {
  order: 'validation.rangeOrder',
  span: 'validation.rangeSpan',
} as const;

const epochMs = () =>
  z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(0, { error: V.invalid })
    .max(8_640_000_000_000, { error: V.invalid });

export const itemKeyField = () =>
  z
    .string({ error: V.invalid })
    .trim()
    .min(1, { error: V.required })
    .max(60, { error: V.tooLong })
    .regex(/^[a-z][a-z0-9_]*$/, { error: V.invalid });

const itemList = (max: number) =>
  z.array(itemKeyField(), { error: V.invalid }).min(1, { error: V.required }).max(max, { error: V.tooLong });

/** The range fields every history call takes: `custom` needs start < end, at most MAX_RANGE_DAYS apart. */
const rangeFields = {
  range: z.enum(HISTORY_RANGES, { error: V.invalid }).default('week'),
  start: epochMs().optional(),
  end: epochMs().optional(),
};

function checkRange(
  v: { range: HistoryRange; start?: number | undefined; end?: number | undefined },
  ctx: z.RefinementCtx,
) {
  if (v.range !== 'custom') return;
  if (v.start === undefined) ctx.addIssue({ code: 'custom', path: ['start'], message: V.required });
  if (v.end === undefined) ctx.addIssue({ code: 'custom', path: ['end'], message: V.required });
  if (v.start === undefined || v.end === undefined) return;
  if (v.start >= v.end) ctx.addIssue({ code: 'custom', path: ['end'], message: RANGE_RULES.order });
  else if (v.end - v.start > MAX_RANGE_DAYS * 86_400_000)
    ctx.addIssue({ code: 'custom', path: ['end'], message: RANGE_RULES.span });
}

const pageFields = {
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.literal(PAGE_SIZES, { error: V.invalid }).default(DEFAULT_PAGE_SIZE),
};

/** Where a history answer was read from: stored samples, hourly rollups or daily rollups. */
export const HISTORY_RESOLUTIONS = ['raw', 'hour', 'day'] as const;
export type HistoryResolution = (typeof HISTORY_RESOLUTIONS)[number];

/** The range as the server resolved it (week/month/threeMonths end now). */
const resolvedRange = {
  start: z.number(),
  end: z.number(),
  resolution: z.enum(HISTORY_RESOLUTIONS),
  /** Time zone of day labels and of the console's axis (the request's X-Timezone). */
  timeZone: z.string(),
};

export const historyColumn = z.object({
  key: z.string(),
  /** In the request's language. */
  name: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
});
export type HistoryColumn = z.infer<typeof historyColumn>;

// ---- /history/chart ------------------------------------------------------------------------------------

export const historyChartRequest = z
  .strictObject({ token: setToken(), items: itemList(MAX_HISTORY_ITEMS), ...rangeFields })
  .superRefine(checkRange);
export type HistoryChartRequest = z.input<typeof historyChartRequest>;

/**
 * One point: [time (bucket start), value, min, max]. The value is the bucket's average (the last reading for
 * counters such as kWh or run hours); min and max keep the peaks that averaging would hide. Raw samples
 * have value = min = max. null: no reading in that bucket.
 */
export const chartPoint = z.tuple([z.number(), z.number().nullable(), z.number().nullable(), z.number().nullable()]);
export type ChartPoint = z.infer<typeof chartPoint>;

export const historySeries = historyColumn.extend({ points: z.array(chartPoint) });
export type HistorySeries = z.infer<typeof historySeries>;

export const historyChartResponse = z.object({
  ...resolvedRange,
  /** Milliseconds each point covers (0 for raw samples). */
  step: z.number(),
  /**
   * Hourly and daily points: where the points begin whose hour or day is not over yet (their figures are of the
   * samples so far); null when every point is of a whole hour or day, and for raw samples.
   */
  partialFrom: z.number().nullable().optional(),
  series: z.array(historySeries),
});
export type HistoryChartResponse = z.infer<typeof historyChartResponse>;

// ---- /devicedata/gethistory ----------------------------------------------------------------------------

export const historyTableRequest = z
  .strictObject({
    token: setToken(),
    items: itemList(MAX_HISTORY_ITEMS),
    ...rangeFields,
    ...pageFields,
    /** Newest first by default. */
    order: z.enum(['desc', 'asc'], { error: V.invalid }).default('desc'),
  })
  .superRefine(checkRange);
export type HistoryTableRequest = z.input<typeof historyTableRequest>;

export const historyRow = z.object({
  ts: z.number(),
  /**
   * Set status: of the sample; for an hour or a day, the status the set was in longest during it (from its
   * stored status changes; null when none is known).
   */
  status: z.number().int().nullable(),
  /**
   * By item key; averages for rollup rows (last reading for counters). Readings of a running engine and
   * generator (speed, oil pressure, generator voltage and frequency, power factor) are averaged over the
   * samples taken while the set ran.
   */
  values: z.record(z.string(), z.number().nullable()),
  /** Rollup rows: the hour or day is not over yet, so its figures are of the samples so far. */
  partial: z.boolean().optional(),
});
export type HistoryRow = z.infer<typeof historyRow>;

export const historyTableResponse = z.object({
  ...resolvedRange,
  columns: z.array(historyColumn),
  list: z.array(historyRow),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type HistoryTableResponse = z.infer<typeof historyTableResponse>;

// ---- alarms --------------------------------------------------------------------------------------------

export const ALARM_LEVELS = alarmLevelSchema.options;
export type AlarmLevelName = (typeof ALARM_LEVELS)[number];
export const ALARM_STATES = ['all', 'active', 'ended'] as const;

export const alarmEntry = z.object({
  id: z.number().int(),
  code: z.string(),
  level: alarmLevelSchema,
  /** In the request's language. */
  title: z.string(),
  start: z.number(),
  /** null while the alarm is active. */
  end: z.number().nullable(),
  /**
   * An episode: times it was raised (it came back within the hold time after clearing, and was kept as one alarm),
   * whether it came back so often that it is flapping, and who acknowledged it. Absent in realtime pushes.
   */
  occurrences: z.number().int().optional(),
  flapping: z.boolean().optional(),
  ack: z.object({ by: z.string(), at: z.number(), comment: z.string() }).nullable().optional(),
  /** While it is shelved: by whom, when, until when and why (it notifies no one until then). */
  shelf: z.object({ by: z.string(), at: z.number(), until: z.number(), reason: z.string() }).nullable().optional(),
});
export type AlarmEntry = z.infer<typeof alarmEntry>;

/** /alarm/ack: someone who may command the set says they have seen the alarm and are on it. */
export const ALARM_ACK_COMMENT_MAX = 500;
export const alarmAckRequest = z.strictObject({
  id: z.number({ error: V.required }).int({ error: V.invalid }).positive({ error: V.invalid }),
  comment: z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(ALARM_ACK_COMMENT_MAX, { error: V.tooLong }),
});
export type AlarmAckRequest = z.input<typeof alarmAckRequest>;
export const alarmAckResponse = alarmEntry;

/**
 * /alarm/shelve: someone who may command the set keeps an active alarm from notifying for one of these spans (in
 * minutes: a quarter of an hour to three days), with a reason; it comes back, and is told again if still active,
 * when the span ends. /alarm/unshelve takes it off the shelf before then.
 */
export const SHELVE_MINUTES = [15, 60, 240, 480, 1440, 4320] as const;
export const ALARM_SHELVE_REASON_MAX = 500;
export const alarmShelveRequest = z.strictObject({
  id: z.number({ error: V.required }).int({ error: V.invalid }).positive({ error: V.invalid }),
  minutes: z
    .number({ error: V.required })
    .refine((m) => (SHELVE_MINUTES as readonly number[]).includes(m), { error: V.invalid }),
  reason: z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(ALARM_SHELVE_REASON_MAX, { error: V.tooLong }),
});
export type AlarmShelveRequest = z.input<typeof alarmShelveRequest>;
export const alarmUnshelveRequest = z.strictObject({
  id: z.number({ error: V.required }).int({ error: V.invalid }).positive({ error: V.invalid }),
});
export type AlarmUnshelveRequest = z.input<typeof alarmUnshelveRequest>;

/**
 * /devicedata/getalarmhistory: alarms that started within the range, of one set, or without a token of every set
 * the caller sees (the fleet).
 */
export const alarmHistoryRequest = z
  .strictObject({
    token: setToken().optional(),
    ...rangeFields,
    /** Without it: every level. */
    level: z.enum(ALARM_LEVELS, { error: V.invalid }).optional(),
    state: z.enum(ALARM_STATES, { error: V.invalid }).default('all'),
    /** Words of the alarm's title (in the request's language) or its code; without it: every alarm. */
    search: z.string({ error: V.invalid }).trim().max(60, { error: V.tooLong }).optional(),
    ...pageFields,
  })
  .superRefine(checkRange);
export type AlarmHistoryRequest = z.input<typeof alarmHistoryRequest>;

/** An alarm of the history, with the set that raised it. */
export const setAlarmEntry = alarmEntry.extend({ setToken: z.string(), setName: z.string() });
export type SetAlarmEntry = z.infer<typeof setAlarmEntry>;

export const alarmHistoryResponse = z.object({
  start: z.number(),
  end: z.number(),
  list: z.array(setAlarmEntry),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type AlarmHistoryResponse = z.infer<typeof alarmHistoryResponse>;

/** /alarm/current: the set's active alarms, oldest first (the WebSocket `alarm` push keeps them live). */
export const currentAlarmsResponse = z.object({ alarmnum: z.number().int(), list: z.array(alarmEntry) });
export type CurrentAlarmsResponse = z.infer<typeof currentAlarmsResponse>;

/** /alarm/chart: alarms started per day and level, of one set or (no token) of every set the user sees. */
export const alarmChartRequest = z
  .strictObject({ token: setToken().optional(), ...rangeFields })
  .superRefine(checkRange);
export type AlarmChartRequest = z.input<typeof alarmChartRequest>;

/**
 * /alarm/analytics: what the alarms that started within the range say, of one set or (without a token) of every set
 * the caller sees: the most frequent and the longest alarms, the sets with most, the mean time between shutdowns,
 * when in the week they start (the request's time zone) and how long they waited to be acknowledged.
 * /alarm/analytics/export gives the same as an XLSX workbook.
 */
export const alarmAnalyticsRequest = z
  .strictObject({ token: setToken().optional(), ...rangeFields })
  .superRefine(checkRange);
export type AlarmAnalyticsRequest = z.input<typeof alarmAnalyticsRequest>;

/** An alarm (its code and level) over the range: its episodes, their occurrences and how long they lasted. */
export const alarmTally = z.object({
  code: z.string(),
  level: alarmLevelSchema,
  /** In the request's language. */
  title: z.string(),
  episodes: z.number().int(),
  occurrences: z.number().int(),
  /** Summed over its episodes, up to now for one still active. */
  hours: z.number(),
});
export type AlarmTally = z.infer<typeof alarmTally>;

export const alarmAnalyticsResponse = z.object({
  start: z.number(),
  end: z.number(),
  timeZone: z.string(),
  /** The sets counted: the one named, or every set the caller sees. */
  sets: z.number().int(),
  /** Alarm episodes that started within the range, their occurrences, and those that stopped a set. */
  episodes: z.number().int(),
  occurrences: z.number().int(),
  shutdowns: z.number().int(),
  /** Mean time between shutdowns, hours: the range's length times the sets counted, over the shutdowns (none: null). */
  mtbsHours: z.number().nullable(),
  /** The 10 alarms with most episodes, and the 10 that lasted longest. */
  byCount: z.array(alarmTally),
  byDuration: z.array(alarmTally),
  /** The 10 sets with most episodes. */
  bySet: z.array(
    z.object({ token: z.string(), name: z.string(), episodes: z.number().int(), shutdowns: z.number().int() }),
  ),
  /** Episodes started by weekday (Monday first) and hour of the day, in the time zone: 7 rows of 24. */
  heat: z.array(z.array(z.number().int())),
  /** Time from an episode's start to its acknowledgement, minutes. */
  ack: z.object({
    acknowledged: z.number().int(),
    medianMinutes: z.number().nullable(),
    p90Minutes: z.number().nullable(),
  }),
});
export type AlarmAnalyticsResponse = z.infer<typeof alarmAnalyticsResponse>;

export const alarmChartResponse = z.object({
  start: z.number(),
  end: z.number(),
  timeZone: z.string(),
  /** YYYY-MM-DD, every day of the range in order. */
  days: z.array(z.string()),
  /** One count per day, by level. */
  levels: z.object({ warning: z.array(z.number()), shutdown: z.array(z.number()), trip: z.array(z.number()) }),
  totals: z.object({ warning: z.number(), shutdown: z.number(), trip: z.number() }),
});
export type AlarmChartResponse = z.infer<typeof alarmChartResponse>;

// ---- maintenance countdown -----------------------------------------------------------------------------

/** /maintain/countdown: what the controller says about the next service. */
export const maintainCountdownResponse = z.object({
  /** Hours left to the next service (negative: overdue); null when the controller does not report it. */
  hoursLeft: z.number().nullable(),
  runHours: z.number().nullable(),
  /** The controller's "maintenance due" alarm is active. */
  due: z.boolean(),
  /** Time of the reading (null: no data yet). */
  ts: z.number().nullable(),
  unit: z.string(),
});
export type MaintainCountdownResponse = z.infer<typeof maintainCountdownResponse>;

// ---- home dashboard (/home/summary) --------------------------------------------------------------------

/** Status names of counts: the set states (SET_STATES), then the alarm overlay (sets with an active alarm). */
export const FLEET_STATUSES = ['offline', 'shutdown', 'standby', 'running', 'alarm'] as const;
export type FleetStatus = (typeof FLEET_STATUSES)[number];

export const homeSummaryRequest = z.strictObject({});

export const fleetPosition = z.object({
  token: z.string(),
  name: z.string(),
  /** 0 offline, 1 shutdown, 2 standby, 3 running. */
  status: z.number().int(),
  alarmnum: z.number().int(),
  lat: z.number(),
  lng: z.number(),
  kw: z.number().nullable(),
});
export type FleetPosition = z.infer<typeof fleetPosition>;

/** Sets near one another on the home map of a large fleet, counted together (see `areas`). */
export const fleetArea = z.object({
  /** Where its sets are on average. */
  lat: z.number(),
  lng: z.number(),
  /** The box its sets are in. */
  bounds: z.object({ south: z.number(), west: z.number(), north: z.number(), east: z.number() }),
  /** How many sets: offline + shutdown + standby + running. */
  sets: z.number().int(),
  states: z.object({
    offline: z.number().int(),
    shutdown: z.number().int(),
    standby: z.number().int(),
    running: z.number().int(),
  }),
  /** Of them, the sets with an active alarm. */
  alarm: z.number().int(),
  /** Their output now (the sets that are not offline), kW. */
  kw: z.number(),
});
export type FleetArea = z.infer<typeof fleetArea>;

export const homeSummaryResponse = z.object({
  /**
   * The sets the user sees: offline + shutdown + standby + running = total (each set in one state, SET_STATES);
   * `alarm` is the overlay, the sets with an active alarm, each also counted in its state.
   */
  counts: z.object({
    total: z.number().int(),
    offline: z.number().int(),
    shutdown: z.number().int(),
    standby: z.number().int(),
    running: z.number().int(),
    alarm: z.number().int(),
  }),
  /** Active alarms by level. */
  alarms: z.object({
    total: z.number().int(),
    warning: z.number().int(),
    shutdown: z.number().int(),
    trip: z.number().int(),
  }),
  /** Sum of the latest generator output of the sets that are not offline. */
  totalKw: z.number(),
  /**
   * Sets with a known position (latest GPS reading, else the set's details), one by one: at most 2,000. A fleet
   * with more has them counted in `areas` instead, and this is empty.
   */
  positions: z.array(fleetPosition),
  /** A large fleet's positioned sets by area (at most 400), the most sets first; empty when `positions` has them. */
  areas: z.array(fleetArea),
  /** kWh produced in the last 30 days, best first (at most 10). */
  ranking: z.array(z.object({ token: z.string(), name: z.string(), kwh: z.number() })),
  /** The 10 alarms that started last. */
  latestAlarms: z.array(alarmEntry.extend({ token: z.string(), setName: z.string() })),
  ts: z.number(),
});
export type HomeSummaryResponse = z.infer<typeof homeSummaryResponse>;

// ---- /devicedata/getmutilstatus ------------------------------------------------------------------------

/** The most sets one multi-status request names (also the WebSocket's limit of watched sets). */
export const MAX_MULTI_SETS = 100;
/** Key values shown per set unless the request names its own items. */
export const DEFAULT_MULTI_ITEMS = [
  'gen_kw',
  'gen_voltage_l1',
  'gen_freq',
  'engine_rpm',
  'coolant_temp',
  'oil_pressure',
  'fuel_level',
  'battery_voltage',
  'run_hours',
] as const;

export const multiStatusRequest = z
  .strictObject({
    /** The members of this group (parallel or multi-machine), in the group's order, with its items by default. */
    group: setToken().optional(),
    /** The sets to show, in this order; without it, the user's sets by name, paged. */
    tokens: z
      .array(setToken(), { error: V.invalid })
      .min(1, { error: V.required })
      .max(MAX_MULTI_SETS, {
        error: V.tooLong,
      })
      .optional(),
    items: z
      .array(itemKeyField(), { error: V.invalid })
      .min(1, { error: V.required })
      .max(12, {
        error: V.tooLong,
      })
      .optional(),
    ...pageFields,
  })
  .refine((v) => !(v.group && v.tokens), { path: ['tokens'], error: V.invalid });
export type MultiStatusRequest = z.input<typeof multiStatusRequest>;

export const multiStatusValue = historyColumn.extend({
  value: z.number().nullable(),
  /** Text of an enumerated value, in the request's language. */
  label: z.string().nullable(),
});

export const multiStatusEntry = z.object({
  token: z.string(),
  name: z.string(),
  status: z.number().int(),
  alarmnum: z.number().int(),
  online: z.boolean(),
  ts: z.number().nullable(),
  values: z.array(multiStatusValue),
});
export type MultiStatusEntry = z.infer<typeof multiStatusEntry>;

export const multiStatusResponse = z.object({
  list: z.array(multiStatusEntry),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type MultiStatusResponse = z.infer<typeof multiStatusResponse>;

// ---- /genset/exportruntimedata -------------------------------------------------------------------------

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;

/** Answers with the file (not an envelope) on success; errors come as envelopes. */
export const runtimeExportRequest = z
  .strictObject({
    token: setToken(),
    /** Without it: every measurement of the set's protocol. */
    items: itemList(200).optional(),
    ...rangeFields,
    format: z.enum(EXPORT_FORMATS, { error: V.invalid }).default('xlsx'),
  })
  .superRefine(checkRange);
export type RuntimeExportRequest = z.input<typeof runtimeExportRequest>;
