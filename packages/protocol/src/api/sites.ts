// Energy-storage stations (spec: "my stations", the /ems/ layout, the Site calls, /ems/sendTactic): a station
// is a cloud module and the sets on it that play its roles (PCS, BMS, grid meter, PV), with its own time zone
// and currency; its price templates (versioned, a change never rewrites the past), the tactic its module runs,
// its energy and income per day and tariff period (from the PCS's counters), its run records and alarms.
// Stations are named by token; figures are kWh, kW, per cent and the station's currency.
import { z } from 'zod';
import { isTimeZone, V } from './checks.ts';
import { pageQuery, pageTotals, queryRowId, requiredLine } from './rules.ts';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './codes.ts';
import { setToken } from './devices.ts';
import { alarmEntry, ALARM_LEVELS, ALARM_STATES } from './history.ts';
import { departmentField, modemKeyField, selectedTokens } from './gensets.ts';
import { EMS_POWER_MAX_KW, priceTemplateBody, tariffRangesProblem } from '../ems/tariff.ts';
import { EMS_SAFE_REASONS, EMS_STRATEGIES } from '../ems/tactic.ts';

// ---- field rules ---------------------------------------------------------------------------------------

export const SITE_NAME_MAX = 120;
export const SITE_ADDRESS_MAX = 200;
export const TEMPLATE_NAME_MAX = 100;
/** Most sets one station binds. */
export const SITE_DEVICES_MAX = 32;
/** Largest battery capacity one can enter, kWh. */
export const SITE_CAPACITY_MAX_KWH = 10_000_000;
/** Currencies a station's income may be counted in (ISO 4217); CNY by default. */
export const SITE_CURRENCIES = ['CNY', 'USD', 'EUR', 'GBP', 'RUB', 'TRY', 'TWD', 'HKD', 'JPY', 'AUD', 'INR'] as const;
export type SiteCurrency = (typeof SITE_CURRENCIES)[number];
export const SITE_DEFAULT_CURRENCY: SiteCurrency = 'CNY';

/** What a set is to its station. */
export const SITE_DEVICE_ROLES = ['pcs', 'bms', 'meter', 'pv'] as const;
export type SiteDeviceRole = (typeof SITE_DEVICE_ROLES)[number];
/** Roles a station must have bound before a tactic can be built (PV is optional). */
export const SITE_REQUIRED_DEVICE_ROLES = ['pcs', 'bms', 'meter'] as const satisfies readonly SiteDeviceRole[];

/**
 * A station's state, from its PCS and its module's EMS: 0 offline (no live data), 1 stopped (held safe or the
 * PCS faulted), 2 standby (battery at rest), 3 charging, 4 discharging. `statusname` says it in the request's
 * language.
 */
export const SITE_STATUSES = ['offline', 'stopped', 'standby', 'charging', 'discharging'] as const;
export type SiteStatusName = (typeof SITE_STATUSES)[number];
export const SiteStatus = { offline: 0, stopped: 1, standby: 2, charging: 3, discharging: 4 } as const;

/** Message keys of these schemas beyond the shared ones (translated by each side). */
export const SV = {
  /** A set named twice in one station. */
  deviceTwice: 'validation.site.deviceTwice',
  /** More than one set in a role that takes one (PCS, BMS, meter). */
  roleTwice: 'validation.site.roleTwice',
  /** The end of a demand-response event is not after its start. */
  endBeforeStart: 'validation.rangeOrder',
  /** A template version that would start in the past: a change never rewrites the past. */
  validFromPast: 'validation.site.validFromPast',
} as const;

export const siteToken = setToken;

const text = requiredLine;

const optText = (max: number) =>
  z
    .string({ error: V.invalid })
    .trim()
    .max(max, { error: V.tooLong })
    .regex(/^[^\p{Cc}]*$/u, { error: V.invalid })
    .nullish()
    .transform((v) => (v ? v : null));

const optNumber = (min: number, max: number) =>
  z
    .number({ error: V.invalid })
    .min(min, { error: V.invalid })
    .max(max, { error: V.invalid })
    .nullish()
    .transform((v) => (v === undefined ? null : v));

const positive = (max: number) =>
  z.number({ error: V.required }).positive({ error: V.invalid }).max(max, { error: V.invalid });

const epochMs = () =>
  z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(0, { error: V.invalid })
    .max(8_640_000_000_000, { error: V.invalid });

export const timeZoneField = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(64, { error: V.tooLong })
    .refine(isTimeZone, { error: V.invalid });

const dateField = () =>
  z
    .string({ error: V.invalid })
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, { error: V.invalid })
    .refine((v) => v === '' || !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), { error: V.invalid })
    .nullish()
    .transform((v) => (v ? v : null));

/** Query pages (GET calls): numbers arrive as text. */

/** Body pages (POST calls). */
const bodyPage = {
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.literal(PAGE_SIZES, { error: V.invalid }).default(DEFAULT_PAGE_SIZE),
};

// ---- figures ---------------------------------------------------------------------------------------------

/** Energy and money of one bucket (or period): kWh, and the station's currency rounded to the cent. */
export const energyFigures = z.object({
  chargeKwh: z.number(),
  dischargeKwh: z.number(),
  /** What the energy charged cost at each period's buy price. */
  chargeCost: z.number(),
  /** What the energy discharged earned at each period's sell price. */
  dischargeIncome: z.number(),
  /** dischargeIncome − chargeCost. */
  income: z.number(),
});
export type EnergyFigures = z.infer<typeof energyFigures>;

/** What a station's devices measure now (null: no reading). Powers in kW, grid > 0 imports, battery > 0 discharges. */
export const siteOverview = z.object({
  gridKw: z.number().nullable(),
  pvKw: z.number().nullable(),
  batteryKw: z.number().nullable(),
  /** What the site consumes: grid + PV + battery. */
  loadKw: z.number().nullable(),
  soc: z.number().nullable(),
  /** Time of the newest reading among them. */
  ts: z.number().nullable(),
  todayChargeKwh: z.number(),
  todayDischargeKwh: z.number(),
  todayIncome: z.number(),
});
export type SiteOverview = z.infer<typeof siteOverview>;

// ---- /site/list ------------------------------------------------------------------------------------------

/** GET /site/list (query): the stations the caller sees, by name; `name` filters by part of it. */
export const siteListRequest = z.strictObject({
  ...pageQuery,
  name: z.string({ error: V.invalid }).trim().max(SITE_NAME_MAX, { error: V.tooLong }).optional(),
});
export type SiteListRequest = z.input<typeof siteListRequest>;

export const siteListItem = z.object({
  token: z.string(),
  name: z.string(),
  status: z.number().int(),
  statusname: z.string(),
  capacityKwh: z.number(),
  ratingKw: z.number(),
  soc: z.number().nullable(),
  /** Battery power now, kW (discharge > 0). */
  powerKw: z.number().nullable(),
  todayChargeKwh: z.number(),
  todayDischargeKwh: z.number(),
  todayIncome: z.number(),
  totalIncome: z.number(),
  alarmNum: z.number().int(),
  currency: z.string(),
  timeZone: z.string(),
  address: z.string().nullable(),
  online: z.boolean(),
});
export type SiteListItem = z.infer<typeof siteListItem>;

export const siteListResponse = z.object({ list: z.array(siteListItem), ...pageTotals });
export type SiteListResponse = z.infer<typeof siteListResponse>;

// ---- /site/getInfo/{token} -------------------------------------------------------------------------------

export const siteTokenParams = z.strictObject({ token: siteToken() });
export const siteTokenRequest = z.strictObject({ token: siteToken() });

export const siteDeviceBinding = z.strictObject({
  token: setToken(),
  role: z.enum(SITE_DEVICE_ROLES, { error: V.invalid }),
});
export type SiteDeviceBinding = z.infer<typeof siteDeviceBinding>;

/** What the /ems/ layout shows and what the edit form starts from. */
export const siteInfoResponse = z.object({
  /** The header (spec "Station info"): totals since the station was built, in kWh and its currency. */
  site: z.object({
    token: z.string(),
    name: z.string(),
    status: z.number().int(),
    statusname: z.string(),
    total_charge: z.number(),
    total_discharge: z.number(),
    total_income: z.number(),
    currency: z.string(),
    timeZone: z.string(),
    alarmNum: z.number().int(),
    online: z.boolean(),
    companyName: z.string(),
    ownerName: z.string().nullable(),
  }),
  /** The editable fields as stored. */
  fields: z.object({
    name: z.string(),
    address: z.string().nullable(),
    lat: z.number().nullable(),
    lon: z.number().nullable(),
    timeZone: z.string(),
    currency: z.string(),
    capacityKwh: z.number(),
    ratingKw: z.number(),
    transformerKw: z.number().nullable(),
    buildDate: z.string().nullable(),
    modemId: z.string().nullable(),
    templateId: z.number().int().nullable(),
    /** The station's own department (null: its owner's counts), and the department it belongs to now. */
    departmentId: z.number().int().nullable().optional(),
    departmentName: z.string().nullable().optional(),
    devices: z.array(z.object({ token: z.string(), role: z.enum(SITE_DEVICE_ROLES) })),
  }),
  overview: siteOverview,
  tactic: z.object({
    /** The last tactic version sent (0: none), and what became of it. */
    sentVersion: z.number().int(),
    sentOutcome: z.enum(['pending', 'accepted', 'refused']).nullable(),
    sentAt: z.number().nullable(),
    /** The version the module says it runs (0: none; null: not reported yet). */
    runningVersion: z.number().int().nullable(),
    strategy: z.enum(EMS_STRATEGIES).nullable(),
    templateId: z.number().int().nullable(),
    templateName: z.string().nullable(),
    templateVersion: z.number().int().nullable(),
    /** Why the module holds the battery at 0 kW, when it does. */
    safe: z.enum(EMS_SAFE_REASONS).nullable(),
    /** The setpoint its last cycle wrote, kW, and the demand-response event it delivers. */
    setpointKw: z.number().nullable(),
    demandResponse: z.string().nullable(),
  }),
  /** Whether the caller may edit the station, send tactics and demand-response events. */
  canManage: z.boolean(),
});
export type SiteInfoResponse = z.infer<typeof siteInfoResponse>;

// ---- /site/add, /site/edit, /site/del ------------------------------------------------------------------

/**
 * The editable fields of a station. `modemId`: its cloud module; `devices`: which of that module's sets play
 * which role (one PCS, one BMS, one grid meter; PV inverters optional, several allowed).
 */
export const siteFieldShape = {
  name: text(SITE_NAME_MAX),
  address: optText(SITE_ADDRESS_MAX),
  lat: optNumber(-90, 90),
  lon: optNumber(-180, 180),
  timeZone: timeZoneField(),
  currency: z.enum(SITE_CURRENCIES, { error: V.invalid }).default(SITE_DEFAULT_CURRENCY),
  capacityKwh: positive(SITE_CAPACITY_MAX_KWH),
  ratingKw: positive(EMS_POWER_MAX_KW),
  transformerKw: optNumber(0, EMS_POWER_MAX_KW),
  buildDate: dateField(),
  modemId: modemKeyField(),
  devices: z.array(siteDeviceBinding, { error: V.invalid }).max(SITE_DEVICES_MAX, { error: V.tooLong }).default([]),
  /** The price template the station's tactics use (by id); null: none chosen yet. */
  templateId: queryRowId()
    .nullish()
    .transform((v) => v ?? null),
};

function checkDevices(v: { devices: readonly SiteDeviceBinding[] }, ctx: z.RefinementCtx) {
  const tokens = new Set<string>();
  const roles = new Set<SiteDeviceRole>();
  for (const [index, d] of v.devices.entries()) {
    if (tokens.has(d.token)) ctx.addIssue({ code: 'custom', path: ['devices', index], message: SV.deviceTwice });
    tokens.add(d.token);
    if (d.role !== 'pv' && roles.has(d.role))
      ctx.addIssue({ code: 'custom', path: ['devices', index], message: SV.roleTwice });
    roles.add(d.role);
  }
}

export const siteAddRequest = z.strictObject(siteFieldShape).superRefine(checkDevices);
export type SiteAddRequest = z.input<typeof siteAddRequest>;
export type SiteFields = z.output<typeof siteAddRequest>;

export const siteAddResponse = z.object({ token: z.string() });

export const siteEditRequest = z.strictObject({ token: siteToken(), ...siteFieldShape }).superRefine(checkDevices);
export type SiteEditRequest = z.input<typeof siteEditRequest>;

export const siteDelRequest = z.strictObject({ token: siteToken() });
export const siteDelResponse = z.object({ deleted: z.number().int() });

// ---- /site/devices ---------------------------------------------------------------------------------------

export const siteDeviceValue = z.object({
  key: z.string(),
  /** In the request's language. */
  name: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
  value: z.number().nullable(),
  /** Its role to the station's strategies, when it has one. */
  emsRole: z.string().nullable(),
  /** The words of a coded value (operating state, control mode …) in the request's language; empty: a number. */
  options: z.array(z.object({ value: z.number(), label: z.string() })),
});

/** GET /site/devices?token=: the station's sets with their role, state and key live values. */
export const siteDevicesResponse = z.object({
  list: z.array(
    z.object({
      token: z.string(),
      name: z.string(),
      role: z.enum(SITE_DEVICE_ROLES),
      /** The set's status: 0 offline, 1 stopped, 2 standby, 3 running (SET_STATES). */
      status: z.number().int(),
      /** Whether the device has states to run in (a PCS, a BMS, PV); a grid meter only measures: online or not. */
      runs: z.boolean(),
      online: z.boolean(),
      alarmNum: z.number().int(),
      lastSeen: z.number().nullable(),
      protocolKey: z.string(),
      values: z.array(siteDeviceValue),
    }),
  ),
});
export type SiteDevicesResponse = z.infer<typeof siteDevicesResponse>;

// ---- /site/log, /site/logInfo --------------------------------------------------------------------------

/** GET /site/log (query): the station's operation log, newest first. */
export const siteLogRequest = z.strictObject({ token: siteToken(), ...pageQuery });
export type SiteLogRequest = z.input<typeof siteLogRequest>;

export const siteLogEntry = z.object({
  id: z.number().int(),
  time: z.number(),
  account: z.string(),
  nickname: z.string(),
  /** What was done, in the request's language. */
  matter: z.string(),
  /** The outcome (accepted, refused, timeout …); null for plain changes. */
  outcome: z.string().nullable(),
});
export type SiteLogEntry = z.infer<typeof siteLogEntry>;

export const siteLogResponse = z.object({ list: z.array(siteLogEntry), ...pageTotals });
export type SiteLogResponse = z.infer<typeof siteLogResponse>;

/** GET /site/logInfo (query): one entry with everything it recorded. */
export const siteLogInfoRequest = z.strictObject({ token: siteToken(), id: queryRowId() });
export const siteLogInfoResponse = siteLogEntry.extend({
  ip: z.string(),
  /** What the entry recorded (names, versions, the module's reason …). */
  detail: z.record(z.string(), z.unknown()),
});
export type SiteLogInfoResponse = z.infer<typeof siteLogInfoResponse>;

// ---- /site/logRunRecord --------------------------------------------------------------------------------

/** What a run record tells. */
export const SITE_RUN_KINDS = [
  'tacticSent',
  'tacticAccepted',
  'tacticRefused',
  'tacticTimeout',
  'strategyChanged',
  'safeStop',
  'safeCleared',
  'demandResponse',
  'stateChanged',
] as const;
export type SiteRunKind = (typeof SITE_RUN_KINDS)[number];

/** GET /site/logRunRecord (query): what the station did, newest first; optionally one kind and a time range. */
export const siteRunRecordRequest = z.strictObject({
  token: siteToken(),
  ...pageQuery,
  kind: z.enum(SITE_RUN_KINDS, { error: V.invalid }).optional(),
  start: z.coerce.number({ error: V.invalid }).pipe(epochMs()).optional(),
  end: z.coerce.number({ error: V.invalid }).pipe(epochMs()).optional(),
});
export type SiteRunRecordRequest = z.input<typeof siteRunRecordRequest>;

export const siteRunRecord = z.object({
  id: z.number().int(),
  ts: z.number(),
  kind: z.enum(SITE_RUN_KINDS),
  /** The record in the request's language. */
  text: z.string(),
  /** The tactic version it concerns, when it concerns one. */
  version: z.number().int().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type SiteRunRecord = z.infer<typeof siteRunRecord>;

export const siteRunRecordResponse = z.object({ list: z.array(siteRunRecord), ...pageTotals });
export type SiteRunRecordResponse = z.infer<typeof siteRunRecordResponse>;

// ---- price templates: /ems/template/* ------------------------------------------------------------------

export const templateListRequest = z.strictObject({
  ...bodyPage,
  name: z.string({ error: V.invalid }).trim().max(TEMPLATE_NAME_MAX, { error: V.tooLong }).optional(),
});
export type TemplateListRequest = z.input<typeof templateListRequest>;

export const templateListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The newest version and the body it holds. */
  version: z.number().int(),
  validFrom: z.number(),
  body: priceTemplateBody,
  /** Stations that use it (it cannot be deleted while any does). */
  stations: z.number().int(),
  updatedAt: z.number(),
  updatedBy: z.string(),
});
export type TemplateListItem = z.infer<typeof templateListItem>;

export const templateListResponse = z.object({ list: z.array(templateListItem), ...pageTotals });
export type TemplateListResponse = z.infer<typeof templateListResponse>;

/**
 * POST /ems/template/save: a new template (no id) or a new version of one (id). The body's fields sit at the top
 * level, so a refusal names the field (`ranges`, `dischargeCutoffSoc` …). Every save stores a new version,
 * in force from `validFrom` (default: now; never in the past); the first version of a template also prices
 * what came before it.
 */
export const templateSaveRequest = z
  .strictObject({
    id: queryRowId().optional(),
    name: text(TEMPLATE_NAME_MAX),
    validFrom: epochMs().optional(),
    ...priceTemplateBody.shape,
  })
  .superRefine((t, ctx) => {
    const problem = tariffRangesProblem(t.ranges);
    if (problem) {
      ctx.addIssue({
        code: 'custom',
        path: ['ranges', Math.min(problem.index, t.ranges.length - 1)],
        message: `validation.tariff.${problem.issue}`,
      });
    }
    if (t.dischargeCutoffSoc >= t.chargeCutoffSoc) {
      ctx.addIssue({ code: 'custom', path: ['dischargeCutoffSoc'], message: 'validation.tariff.cutoffsInverted' });
    }
  });
export type TemplateSaveRequest = z.input<typeof templateSaveRequest>;

export const templateSaveResponse = z.object({
  id: z.number().int(),
  version: z.number().int(),
  validFrom: z.number(),
});

export const templateInfoRequest = z.strictObject({ id: queryRowId(), version: queryRowId().optional() });

export const templateVersionEntry = z.object({
  version: z.number().int(),
  validFrom: z.number(),
  createdAt: z.number(),
  createdBy: z.string(),
});

export const templateInfoResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The version shown (the newest unless one was asked for) and its body. */
  version: z.number().int(),
  validFrom: z.number(),
  body: priceTemplateBody,
  versions: z.array(templateVersionEntry),
  stations: z.array(z.object({ token: z.string(), name: z.string() })),
});
export type TemplateInfoResponse = z.infer<typeof templateInfoResponse>;

export const templateDeleteRequest = z.strictObject({ id: queryRowId() });
export const templateDeleteResponse = z.object({ deleted: z.number().int() });

// ---- /ems/sendTactic, /ems/demandResponse --------------------------------------------------------------

/**
 * A risky operation: the account password is checked. The tactic is built from the station's sets' protocol
 * documents (their items' EMS roles), the template's newest version and the station's time zone; a station
 * without the roles a tactic needs, or an invalid template, is refused and nothing is sent.
 */
export const sendTacticRequest = z.strictObject({
  token: siteToken(),
  strategy: z.enum(EMS_STRATEGIES, { error: V.invalid }),
  params: z
    .strictObject({
      transformerKw: z
        .number({ error: V.invalid })
        .min(0, { error: V.invalid })
        .max(EMS_POWER_MAX_KW, { error: V.invalid })
        .optional(),
      rechargeHeadroomKw: z
        .number({ error: V.invalid })
        .min(0, { error: V.invalid })
        .max(EMS_POWER_MAX_KW, { error: V.invalid })
        .optional(),
    })
    .default({}),
  templateId: queryRowId(),
  password: z.string({ error: V.required }).min(1, { error: V.required }).max(128, { error: V.tooLong }),
});
export type SendTacticRequest = z.input<typeof sendTacticRequest>;

/** The module accepted the tactic (a refusal answers 502 with its reason, no answer 504). */
export const sendTacticResponse = z.object({
  version: z.number().int(),
  strategy: z.enum(EMS_STRATEGIES),
  templateId: z.number().int(),
  templateVersion: z.number().int(),
  outcome: z.literal('accepted'),
});
export type SendTacticResponse = z.infer<typeof sendTacticResponse>;

/** A demand-response event: from `start` to `end` (epoch ms) the battery delivers `kw` (discharge > 0). */
export const demandResponseRequest = z
  .strictObject({
    token: siteToken(),
    start: epochMs(),
    end: epochMs(),
    kw: z
      .number({ error: V.required })
      .min(-EMS_POWER_MAX_KW, { error: V.invalid })
      .max(EMS_POWER_MAX_KW, { error: V.invalid }),
  })
  .refine((v) => v.end > v.start, { path: ['end'], error: SV.endBeforeStart });
export type DemandResponseRequest = z.input<typeof demandResponseRequest>;

export const demandResponseResponse = z.object({ id: z.string() });

// ---- /ems/stats and its export -------------------------------------------------------------------------

export const STATS_GRANULARITIES = ['day', 'month', 'year'] as const;
export type StatsGranularity = (typeof STATS_GRANULARITIES)[number];

const statsDatePatterns: Record<StatsGranularity, RegExp> = {
  day: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  month: /^\d{4}-(0[1-9]|1[0-2])$/,
  year: /^\d{4}$/,
};

const statsFields = {
  token: siteToken(),
  granularity: z.enum(STATS_GRANULARITIES, { error: V.invalid }).default('day'),
  date: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(10, { error: V.tooLong }),
};

function checkStatsDate(v: { granularity: StatsGranularity; date: string }, ctx: z.RefinementCtx) {
  if (!statsDatePatterns[v.granularity].test(v.date))
    ctx.addIssue({ code: 'custom', path: ['date'], message: V.invalid });
}

/**
 * Statistics of a station in its own calendar: `day` with `date` YYYY-MM-DD (one bucket, the day, split by
 * period), `month` with YYYY-MM (a bucket per day), `year` with YYYY (a bucket per month).
 */
export const siteStatsRequest = z.strictObject(statsFields).superRefine(checkStatsDate);
export type SiteStatsRequest = z.input<typeof siteStatsRequest>;

export const periodFigures = z.object({
  sharp: energyFigures,
  peak: energyFigures,
  flat: energyFigures,
  valley: energyFigures,
});
export type PeriodFigures = z.infer<typeof periodFigures>;

export const statsBucket = energyFigures.extend({
  /** YYYY-MM-DD (day and month granularity) or YYYY-MM (year). */
  bucket: z.string(),
  periods: periodFigures,
});
export type StatsBucket = z.infer<typeof statsBucket>;

export const siteStatsResponse = z.object({
  token: z.string(),
  granularity: z.enum(STATS_GRANULARITIES),
  date: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  /** Every bucket of the period asked for, zeros included, in order. */
  buckets: z.array(statsBucket),
  /** Per period over the whole span, and everything together. */
  periods: periodFigures,
  totals: energyFigures,
});
export type SiteStatsResponse = z.infer<typeof siteStatsResponse>;

/** POST /ems/stats/export: the same figures as a file (the response is the file itself). */
export const siteStatsExportRequest = z
  .strictObject({ ...statsFields, format: z.enum(['xlsx', 'csv'], { error: V.invalid }).default('xlsx') })
  .superRefine(checkStatsDate);
export type SiteStatsExportRequest = z.input<typeof siteStatsExportRequest>;

// ---- station alarms: /ems/alarm/current, /ems/alarm/history ------------------------------------------

export const siteAlarmEntry = alarmEntry.extend({
  /** The set that raised it and its role in the station. */
  setToken: z.string(),
  setName: z.string(),
  role: z.enum(SITE_DEVICE_ROLES),
});
export type SiteAlarmEntry = z.infer<typeof siteAlarmEntry>;

/** POST /ems/alarm/current {token}: the active alarms of every set of the station, oldest first. */
export const siteCurrentAlarmsResponse = z.object({ alarmNum: z.number().int(), list: z.array(siteAlarmEntry) });
export type SiteCurrentAlarmsResponse = z.infer<typeof siteCurrentAlarmsResponse>;

/** POST /ems/alarm/history: alarms of the station's sets that started between start and end (default: 30 days). */
export const siteAlarmHistoryRequest = z
  .strictObject({
    token: siteToken(),
    start: epochMs().optional(),
    end: epochMs().optional(),
    level: z.enum(ALARM_LEVELS, { error: V.invalid }).optional(),
    state: z.enum(ALARM_STATES, { error: V.invalid }).default('all'),
    ...bodyPage,
  })
  .refine((v) => v.start === undefined || v.end === undefined || v.end > v.start, {
    path: ['end'],
    error: 'validation.rangeOrder',
  });
export type SiteAlarmHistoryRequest = z.input<typeof siteAlarmHistoryRequest>;

export const siteAlarmHistoryResponse = z.object({
  start: z.number(),
  end: z.number(),
  list: z.array(siteAlarmEntry),
  ...pageTotals,
});
export type SiteAlarmHistoryResponse = z.infer<typeof siteAlarmHistoryResponse>;

// ---- realtime ----------------------------------------------------------------------------------------------

/**
 * What the realtime connection pushes to a page watching a station (heartbeat `token` = the station's token):
 * `{method: 'site', data}` whenever its overview, status or alarm count changes.
 */
export const sitePushData = siteOverview.extend({
  token: z.string(),
  alarmNum: z.number().int(),
  status: z.number().int(),
  runningVersion: z.number().int().nullable(),
  safe: z.enum(EMS_SAFE_REASONS).nullable(),
});
export type SitePushData = z.infer<typeof sitePushData>;
export type SitePush = { method: 'site'; data: SitePushData };

/** Moves up to 20 stations to a department of the company (null: back to their owners'). */
export const siteSetDepartmentRequest = z.strictObject({
  tokens: selectedTokens(),
  departmentId: departmentField(),
});
export type SiteSetDepartmentRequest = z.input<typeof siteSetDepartmentRequest>;
