// Request and response schemas of set management (spec 3 "Genset", spec 7 "Genset"): add, update, delete,
// info, the company-wide list and "my gensets", subscriptions by code, and the list export.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_ROW_ID, MAX_SELECTED_ITEMS, PAGE_SIZES } from './codes.ts';
import { setToken } from './devices.ts';
import { protocolKeyField } from './protocols.ts';
import { isAllowedUrl, isTimeZone, V } from './rules.ts';

// ---- field rules ---------------------------------------------------------------------------------------

/** Message keys of these schemas beyond the shared ones in rules.ts (translated by each side). */
export const GV = {
  outOfRange: 'validation.outOfRange',
} as const;

/** Optional free text: trimmed; an empty string means "not given" and is stored as null. */
const optText = (max: number) =>
  z
    .string({ error: V.invalid })
    .trim()
    .max(max, { error: V.tooLong })
    .nullish()
    .transform((v) => (v ? v : null));

/** Optional number within a sane range for its unit; null clears it. */
const optNumber = (min: number, max: number) =>
  z
    .number({ error: V.invalid })
    .refine((v) => Number.isFinite(v), { error: V.invalid })
    .min(min, { error: GV.outOfRange })
    .max(max, { error: GV.outOfRange })
    .nullish()
    .transform((v) => (v === undefined ? null : v));

const optInt = (min: number, max: number) =>
  z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(min, { error: GV.outOfRange })
    .max(max, { error: GV.outOfRange })
    .nullish()
    .transform((v) => (v === undefined ? null : v));

export const GENSET_NAME_MAX = 120;
export const SUBSCRIPTION_CODE_LENGTH = 10;
export const CONTROL_CODE_LENGTH = 12;
/** Serial line speeds a controller port may use. */
export const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const PHASE_COUNTS = [1, 3] as const;

/** A cloud module id as printed on the module: it is also its MQTT user name. */
export const modemKeyField = () =>
  z
    .string({ error: V.invalid })
    .trim()
    .max(64, { error: V.tooLong })
    .regex(/^([A-Za-z0-9][A-Za-z0-9_.-]{0,63})?$/, { error: V.invalid })
    .nullish()
    .transform((v) => (v ? v : null));

const dateField = () =>
  z
    .string({ error: V.invalid })
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, { error: V.invalid })
    .refine((v) => v === '' || !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), { error: V.invalid })
    .nullish()
    .transform((v) => (v ? v : null));

const timeZoneField = () =>
  z.string({ error: V.invalid }).trim().max(64, { error: V.tooLong }).refine(isTimeZone, { error: V.invalid });

const partSchema = z.strictObject({
  brand: optText(64),
  model: optText(64),
  number: optText(64),
});
export type GensetPart = z.output<typeof partSchema>;
const emptyPart = (): GensetPart => ({ brand: null, model: null, number: null });

/**
 * The editable fields of a set (spec 3), units in the names: kW, r/min, V, Hz, A, kg, m, L, s.
 * Optional fields take null (or an empty string for text) to mean "not given".
 */
export const gensetFieldShape = {
  name: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(GENSET_NAME_MAX, { error: V.tooLong }),
  /** The set's own number (asset or fleet number); searched like the name. */
  number: optText(64),
  brand: optText(64),
  model: optText(64),
  factoryNumber: optText(64),
  manufacturer: optText(120),
  ratedPowerKw: optNumber(0, 100_000),
  ratedSpeedRpm: optNumber(0, 10_000),
  ratedVoltageV: optNumber(0, 50_000),
  ratedFrequencyHz: optNumber(0, 1_000),
  ratedCurrentA: optNumber(0, 100_000),
  ratedBatteryVoltageV: optNumber(0, 100),
  ratedChargingVoltageV: optNumber(0, 100),
  productionDate: dateField(),
  phases: z
    .literal(PHASE_COUNTS, { error: V.invalid })
    .nullish()
    .transform((v) => v ?? null),
  weightKg: optNumber(0, 1_000_000),
  /** Dimensions as written on the plate, e.g. "3200 × 1400 × 1900 mm". */
  size: optText(64),
  longitude: optNumber(-180, 180),
  latitude: optNumber(-90, 90),
  altitudeM: optNumber(-500, 9_000),
  iotCardNumber: optText(32),
  lockingCode: optText(32),
  fenceRadiusM: optNumber(0, 1_000_000),
  controllerBrand: optText(64),
  controllerModel: optText(64),
  controllerSeries: optText(64),
  /** Modbus unit id of the controller on its port. */
  address: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: GV.outOfRange })
    .max(247, { error: GV.outOfRange }),
  /** Cloud module id; a set without a module is allowed (it shows offline). */
  modemId: modemKeyField(),
  modemModel: optText(64),
  /** The module's port the controller hangs on (port1, port2 …). */
  port: z
    .string({ error: V.invalid })
    .trim()
    .regex(/^[A-Za-z0-9_.:-]{1,32}$/, { error: V.invalid }),
  baudRate: z
    .literal(BAUD_RATES, { error: V.invalid })
    .nullish()
    .transform((v) => v ?? null),
  /** The controller's register map (a published protocol's key). */
  protocolKey: protocolKeyField(),
  timeZone: timeZoneField(),
  powerOnCount: optInt(0, 1_000_000_000),
  fuelTheftDetection: z.boolean({ error: V.invalid }),
  maxFuelL: optNumber(0, 1_000_000),
  maxFuelDelayS: optInt(0, 86_400),
  /** Service contact: a web page, e-mail or phone (http, https, mailto or tel only). */
  serviceLink: z
    .string({ error: V.invalid })
    .trim()
    .max(500, { error: V.tooLong })
    .refine((v) => v === '' || isAllowedUrl(v), { error: V.url })
    .nullish()
    .transform((v) => (v ? v : null)),
  engine: partSchema.nullish().transform((v) => v ?? emptyPart()),
  alternator: partSchema.nullish().transform((v) => v ?? emptyPart()),
};

/** Add: name and protocol are required; the rest defaults (port1, address 1, UTC, no fuel-theft check). */
export const gensetAddRequest = z.strictObject({
  ...gensetFieldShape,
  address: gensetFieldShape.address.default(1),
  port: gensetFieldShape.port.default('port1'),
  timeZone: gensetFieldShape.timeZone.default('UTC'),
  fuelTheftDetection: gensetFieldShape.fuelTheftDetection.default(false),
});
export type GensetAddRequest = z.input<typeof gensetAddRequest>;
export type GensetFields = z.output<typeof gensetAddRequest>;

/** Update: the token and only the fields that change (absent = unchanged, null = cleared). */
export const gensetUpdateRequest = z.strictObject({
  token: setToken(),
  ...z.object(gensetFieldShape).partial().shape,
});
export type GensetUpdateRequest = z.input<typeof gensetUpdateRequest>;

export const gensetAddResponse = z.object({
  token: z.string(),
  subscriptionCode: z.string(),
  controlCode: z.string(),
  /**
   * The module's MQTT password, shown once, when this call registered a new module id. Null when the
   * module was already known (it keeps its password) or the set has no module.
   */
  modemSecret: z.string().nullable(),
});
export type GensetAddResponse = z.infer<typeof gensetAddResponse>;

/** Update answers with the module password when the update registered a new module id (else null). */
export const gensetUpdateResponse = z.object({ modemSecret: z.string().nullable() });

// ---- info --------------------------------------------------------------------------------------------

export const gensetRights = z.enum(['view', 'control', 'manage']);
export type GensetRights = z.infer<typeof gensetRights>;

const nText = z.string().nullable();
const nNumber = z.number().nullable();
const partOut = z.object({ brand: nText, model: nText, number: nText });

/** The stored fields of a set, as the info call returns them (the add form's fields, all present). */
export const gensetFieldsOutput = z.object({
  name: z.string(),
  number: nText,
  brand: nText,
  model: nText,
  factoryNumber: nText,
  manufacturer: nText,
  ratedPowerKw: nNumber,
  ratedSpeedRpm: nNumber,
  ratedVoltageV: nNumber,
  ratedFrequencyHz: nNumber,
  ratedCurrentA: nNumber,
  ratedBatteryVoltageV: nNumber,
  ratedChargingVoltageV: nNumber,
  productionDate: nText,
  phases: z.union([z.literal(1), z.literal(3)]).nullable(),
  weightKg: nNumber,
  size: nText,
  longitude: nNumber,
  latitude: nNumber,
  altitudeM: nNumber,
  iotCardNumber: nText,
  lockingCode: nText,
  fenceRadiusM: nNumber,
  controllerBrand: nText,
  controllerModel: nText,
  controllerSeries: nText,
  address: z.number().int(),
  modemId: nText,
  modemModel: nText,
  port: z.string(),
  baudRate: nNumber,
  protocolKey: z.string(),
  timeZone: z.string(),
  powerOnCount: nNumber,
  fuelTheftDetection: z.boolean(),
  maxFuelL: nNumber,
  maxFuelDelayS: nNumber,
  serviceLink: nText,
  engine: partOut,
  alternator: partOut,
});
export type GensetFieldsOutput = z.infer<typeof gensetFieldsOutput>;

/** One entry of a set's operation log (spec 3 "Operation log"). */
export const gensetOperation = z.object({
  time: z.number(),
  account: z.string(),
  nickname: z.string(),
  /** What was done, in the request's language. */
  matter: z.string(),
  /** The outcome of a command (ok, timeout, error, offline, refused …); null for plain changes. */
  outcome: z.string().nullable(),
  /** The outcome in the request's language ('' when there is none). */
  outcomeText: z.string(),
});
export type GensetOperation = z.infer<typeof gensetOperation>;

/** Everything about one set: its fields, codes (manage rights only), owner, module and live state. */
export const gensetInfoResponse = gensetFieldsOutput.extend({
  token: z.string(),
  rights: gensetRights,
  /** Only for users with manage rights; null otherwise. */
  subscriptionCode: z.string().nullable(),
  controlCode: z.string().nullable(),
  /** True when the caller owns the set (owner ≠ company manager). */
  owner: z.boolean(),
  ownerName: z.string().nullable(),
  companyName: z.string(),
  protocolName: z.string(),
  status: z.number().int(),
  alarmCount: z.number().int(),
  online: z.boolean(),
  /** Device time of the newest data, epoch ms. */
  lastSeen: z.number().nullable(),
  modem: z
    .object({
      online: z.boolean(),
      lastSeenAt: z.number().nullable(),
      model: z.string(),
      firmware: z.string(),
      imei: z.string(),
      iccid: z.string(),
    })
    .nullable(),
  subscribers: z.number().int(),
  /** The firmware the controller says it runs; null until its module has read it. */
  controllerFirmware: z.string().nullable(),
  createdAt: z.number(),
  /** The latest operations on the set, newest first (manage rights only; empty otherwise). */
  operations: z.array(gensetOperation).optional(),
  /** The set's own department (null: its owner's counts), the name of the one it belongs to now, and whether
   * that is its own (false: its owner's, or none). */
  departmentId: z.number().int().nullable().optional(),
  departmentName: z.string().nullable().optional(),
  ownDepartment: z.boolean().optional(),
});
export type GensetInfo = z.infer<typeof gensetInfoResponse>;

// ---- lists -------------------------------------------------------------------------------------------

/**
 * The status partition of sets: every set is in exactly one of these states, by its status code (0 offline,
 * 1 stopped — keyed `shutdown` — 2 standby, 3 running; a code outside them, or none, is offline). Home counts,
 * list filters and counts, the monitors and the pushes all go by it, so the parts add up to the fleet.
 * Active alarms are not a state: they are an overlay counted apart (a set with alarms is still in its state).
 */
export const SET_STATES = ['offline', 'shutdown', 'standby', 'running'] as const;
export type SetState = (typeof SET_STATES)[number];

/** The state of a status code in the partition (unknown codes and no data read offline). */
export function setStateOf(code: number | null | undefined): SetState {
  return code === 1 ? 'shutdown' : code === 2 ? 'standby' : code === 3 ? 'running' : 'offline';
}

/** List filter of spec 3: all, one state of the partition, or the alarm overlay (sets with active alarms). */
export const GENSET_STATUS_FILTERS = ['all', ...SET_STATES, 'alarm'] as const;
export type GensetStatusFilter = (typeof GENSET_STATUS_FILTERS)[number];
export const GENSET_SORTS = ['name', 'number', 'status', 'lastSeen', 'createdAt'] as const;
export type GensetSort = (typeof GENSET_SORTS)[number];

const listFilters = {
  status: z.enum(GENSET_STATUS_FILTERS, { error: V.invalid }).default('all'),
  /** Part of the name or of the number (case-insensitive). */
  search: z.string({ error: V.invalid }).trim().max(100, { error: V.tooLong }).optional(),
  sort: z.enum(GENSET_SORTS, { error: V.invalid }).default('name'),
  order: z.enum(['asc', 'desc'], { error: V.invalid }).default('asc'),
};

export const gensetListRequest = z.strictObject({
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.literal(PAGE_SIZES, { error: V.invalid }).default(DEFAULT_PAGE_SIZE),
  ...listFilters,
});
export type GensetListRequest = z.input<typeof gensetListRequest>;

/** Key latest values shown in list rows (null when the set's protocol has no such item or no data yet). */
export const gensetListValues = z.object({
  kw: z.number().nullable(),
  fuelLevel: z.number().nullable(),
  batteryVoltage: z.number().nullable(),
  runHours: z.number().nullable(),
});

export const gensetListItem = z.object({
  token: z.string(),
  name: z.string(),
  number: z.string().nullable(),
  /** 0 offline, 1 shutdown, 2 standby, 3 running. */
  status: z.number().int(),
  alarmCount: z.number().int(),
  online: z.boolean(),
  lastSeen: z.number().nullable(),
  rights: gensetRights,
  /** The caller owns it (else subscribed or through the company). */
  owned: z.boolean(),
  /** The caller subscribed to it (and may leave it). */
  subscribed: z.boolean(),
  modemId: z.string().nullable(),
  controllerModel: z.string().nullable(),
  ratedPowerKw: z.number().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  ownerName: z.string().nullable(),
  values: gensetListValues,
  createdAt: z.number(),
});
export type GensetListItem = z.infer<typeof gensetListItem>;

export const gensetListResponse = z.object({
  list: z.array(gensetListItem),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  /** Sets per status filter under the same search, for the filter tabs' badges. */
  counts: z.record(z.enum(GENSET_STATUS_FILTERS), z.number().int()),
});
export type GensetListResponse = z.infer<typeof gensetListResponse>;

// ---- delete and batch actions ------------------------------------------------------------------------

/** Up to 20 selected items (spec 5 "cannot select more than 20 data"). */
export const selectedTokens = () =>
  z
    .array(setToken(), { error: V.invalid })
    .min(1, { error: V.required })
    .max(MAX_SELECTED_ITEMS, { error: V.maxSelected });

/** Soft delete: the set disappears from lists and stops ingesting; its history stays for the audit period. */
export const gensetDeleteRequest = z.strictObject({ tokens: selectedTokens() });
export const gensetDeleteResponse = z.object({ deleted: z.number().int() });

/** New codes for a set (manage rights); the old ones stop working; existing subscribers stay. */
export const gensetResetCodesRequest = z.strictObject({ token: setToken() });
export const gensetCodesResponse = z.object({ subscriptionCode: z.string(), controlCode: z.string() });

/** Published protocols a set may use, for the add and edit forms. */
export const gensetProtocolOptionsResponse = z.array(
  z.object({ key: z.string(), name: z.string(), layout: z.string() }),
);

// ---- subscriptions -----------------------------------------------------------------------------------

/** A subscription code gives view rights, a control code control rights. */
export const subAddRequest = z.strictObject({
  code: z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(32, { error: V.tooLong })
    .transform((v) => v.toUpperCase()),
});
export const subAddResponse = z.object({ token: z.string(), name: z.string(), rights: gensetRights });

/** With a token: the subscribers of that set (manage rights). Without: the caller's own subscriptions. */
export const subListRequest = z.strictObject({
  token: setToken().optional(),
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.literal(PAGE_SIZES, { error: V.invalid }).default(DEFAULT_PAGE_SIZE),
});
export type SubListRequest = z.input<typeof subListRequest>;

export const subscriptionItem = z.object({
  id: z.number().int(),
  token: z.string(),
  gensetName: z.string(),
  /** The subscriber (account partly masked for others than the subscriber). */
  account: z.string(),
  nickname: z.string(),
  rights: gensetRights,
  createdAt: z.number(),
});
export type SubscriptionItem = z.infer<typeof subscriptionItem>;

export const subListResponse = z.object({
  list: z.array(subscriptionItem),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});

/** The owner (manage rights) changes a subscriber's rights. */
export const subUpdateRequest = z.strictObject({
  id: z
    .number({ error: V.required })
    .int({ error: V.invalid })
    .positive({ error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid }),
  rights: gensetRights,
});

/** `token`: unsubscribe the caller from that set. `ids`: a manager removes these subscriptions (≤ 20). */
export const subDelRequest = z
  .strictObject({
    token: setToken().optional(),
    ids: z
      .array(
        z
          .number({ error: V.invalid })
          .int({ error: V.invalid })
          .positive({ error: V.invalid })
          .max(MAX_ROW_ID, { error: V.invalid }),
      )
      .min(1, { error: V.required })
      .max(MAX_SELECTED_ITEMS, { error: V.maxSelected })
      .optional(),
  })
  .refine((v) => (v.token === undefined) !== (v.ids === undefined), { error: V.required, path: ['token'] });
export const subDelResponse = z.object({ deleted: z.number().int() });

// ---- export ------------------------------------------------------------------------------------------

/**
 * The filtered list as a file (the response is the file itself): `scope` mylist = my gensets, list = the
 * company's sets. Headers in the request's language, units in the headers.
 */
export const gensetExportRequest = z.strictObject({
  scope: z.enum(['mylist', 'list'], { error: V.invalid }).default('mylist'),
  format: z.enum(['xlsx', 'csv'], { error: V.invalid }).default('xlsx'),
  ...listFilters,
});
export type GensetExportRequest = z.input<typeof gensetExportRequest>;

// ---- departments -------------------------------------------------------------------------------------

/** A department of the company, for the department field of the set and station forms (tree order). */
export const departmentOption = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  /** 0 for a department at the top, 1 below it, and so on. */
  depth: z.number().int(),
});
export type DepartmentOption = z.infer<typeof departmentOption>;
export const departmentOptionsResponse = z.object({ list: z.array(departmentOption) });
export type DepartmentOptionsResponse = z.infer<typeof departmentOptionsResponse>;

/** A department of the caller's company, or null: none of its own (its owner's counts). */
export const departmentField = () =>
  z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid })
    .nullable();

/** Moves up to 20 sets to a department (null: back to their owners'). */
export const gensetSetDepartmentRequest = z.strictObject({
  tokens: selectedTokens(),
  departmentId: departmentField(),
});
export type GensetSetDepartmentRequest = z.input<typeof gensetSetDepartmentRequest>;
export const setDepartmentResponse = z.object({ moved: z.number().int() });
export type SetDepartmentResponse = z.infer<typeof setDepartmentResponse>;
