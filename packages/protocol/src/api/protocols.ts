// Request and response schemas of protocol management (register maps edited as versioned documents), the
// remote configuration of a set's controller, and each user's choice of realtime data items.
import { z } from 'zod';
import {
  alarmSchema,
  bitFieldSchema,
  commandSchema,
  configMenuSchema,
  configParamSchema,
  dataItemSchema,
  enumOptionSchema,
  moduleItemSchema,
  optionListSchema,
  pollBlockSchema,
  protocolDocumentSchema,
  statusRulesSchema,
} from '../device-protocol/schema.ts';
import { protocolTextSchema } from '../device-protocol/text.ts';
import { DEFAULT_PAGE_SIZE, MAX_ROW_ID, PAGE_SIZES } from './codes.ts';
import { setToken } from './devices.ts';
import { passwordField, V } from './rules.ts';

// ---- protocol management ------------------------------------------------------------------------------

export const PROTOCOL_STATUSES = ['draft', 'published'] as const;
export type ProtocolStatus = (typeof PROTOCOL_STATUSES)[number];
/** Longest protocol key the database stores. */
export const PROTOCOL_KEY_MAX = 60;

/** A protocol version is named by its row id (one row per version). */
const protocolId = () =>
  z.number({ error: V.required }).int({ error: V.invalid }).positive({ error: V.invalid }).max(MAX_ROW_ID);

export const protocolKeyField = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(PROTOCOL_KEY_MAX, { error: V.tooLong })
    .regex(/^[a-z0-9][a-z0-9_.-]*$/, { error: V.invalid });

export const protocolIdRequest = z.strictObject({ id: protocolId() });
export const protocolIdParams = z.strictObject({
  id: z.coerce.number().int().positive({ error: V.invalid }).max(MAX_ROW_ID, { error: V.invalid }),
});

export const protocolListRequest = z.strictObject({
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.literal(PAGE_SIZES, { error: V.invalid }).default(DEFAULT_PAGE_SIZE),
  /** Part of the key or of the English name. */
  search: z.string().trim().max(100, { error: V.tooLong }).optional(),
  status: z.enum(PROTOCOL_STATUSES, { error: V.invalid }).optional(),
});
export type ProtocolListRequest = z.input<typeof protocolListRequest>;

export const protocolSummary = z.object({
  id: z.number().int(),
  key: z.string(),
  version: z.number().int(),
  /** In the request's language. */
  name: z.string(),
  layout: z.string(),
  status: z.enum(PROTOCOL_STATUSES),
  /** The version the sets of this protocol run on (the newest published one). */
  current: z.boolean(),
  /** Sets whose controller uses this protocol (any version). */
  sets: z.number().int(),
  items: z.number().int(),
  createdAt: z.number(),
  publishedAt: z.number().nullable(),
});
export type ProtocolSummary = z.infer<typeof protocolSummary>;

export const protocolListResponse = z.object({
  list: z.array(protocolSummary),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});

/** A status point of the module-status screen: a bit or an enumerated state, with the alarms that read it. */
export const moduleStatusEntry = z.object({
  key: z.string(),
  name: protocolTextSchema,
  fc: z.number().int(),
  address: z.number().int(),
  bit: z.number().int().nullable(),
  type: z.string(),
  enum: z.array(enumOptionSchema).nullable(),
  alarms: z.array(z.string()),
});

/** A dropdown: the option list of a configuration parameter. */
export const configDropdown = z.object({
  param: z.string(),
  name: protocolTextSchema,
  menu: z.string(),
  options: z.array(enumOptionSchema),
});

/**
 * Where a dropdown sits: its menu path, the holding registers its value is written to and, for a parameter at
 * bits of a register, which bits (null: the option value is the whole register's value).
 */
export const dropdownCoordinate = z.object({
  param: z.string(),
  menuPath: z.array(z.string()),
  fc: z.literal(3),
  address: z.number().int(),
  registers: z.number().int(),
  writeFc: z.union([z.literal(6), z.literal(16)]),
  bits: bitFieldSchema.nullable(),
});

export const protocolVersionEntry = z.object({
  id: z.number().int(),
  version: z.number().int(),
  status: z.enum(PROTOCOL_STATUSES),
  createdAt: z.number(),
  publishedAt: z.number().nullable(),
});

export const protocolDetail = z.object({
  id: z.number().int(),
  key: z.string(),
  version: z.number().int(),
  status: z.enum(PROTOCOL_STATUSES),
  current: z.boolean(),
  sets: z.number().int(),
  createdAt: z.number(),
  publishedAt: z.number().nullable(),
  versions: z.array(protocolVersionEntry),
  name: protocolTextSchema,
  layout: z.string(),
  items: z.array(dataItemSchema),
  alarms: z.array(alarmSchema),
  commands: z.array(commandSchema),
  /** What the module-status screen shows about the cloud module (signal, SIM, GPS, inputs, firmware). */
  moduleItems: z.array(moduleItemSchema),
  moduleStatus: z.array(moduleStatusEntry),
  configMenus: z.array(configMenuSchema),
  configParams: z.array(configParamSchema),
  configReadBlocks: z.array(pollBlockSchema),
  optionLists: z.array(optionListSchema),
  dropdowns: z.array(configDropdown),
  coordinates: z.array(dropdownCoordinate),
  statusRules: statusRulesSchema.nullable(),
});
export type ProtocolDetail = z.infer<typeof protocolDetail>;

/** A whole document: create a protocol, or import an exported one. Names in all six languages are required. */
export const protocolDocumentRequest = z.strictObject({ document: protocolDocumentSchema });

export const protocolCopyRequest = z.strictObject({
  id: protocolId(),
  key: protocolKeyField(),
  name: protocolTextSchema.optional(),
});

export const protocolDropdownInput = z.strictObject({
  param: z.string().regex(/^[a-z][a-z0-9_]*$/),
  options: z.array(enumOptionSchema).min(1),
});

/**
 * Replaces the given parts of a version. A published version stays as it is: the edit becomes a new draft
 * version; a draft is edited in place. `dropdowns` sets the option lists of the configuration parameters
 * (a parameter left out has none), each its own: references to shared option lists are dropped.
 */
export const protocolSaveRequest = z.strictObject({
  id: protocolId(),
  name: protocolTextSchema.optional(),
  layout: z.string().trim().min(1).max(20).optional(),
  items: z.array(dataItemSchema).min(1).optional(),
  alarms: z.array(alarmSchema).optional(),
  commands: z.array(commandSchema).optional(),
  moduleItems: z.array(moduleItemSchema).optional(),
  configParams: z.array(configParamSchema).optional(),
  configMenus: z.array(configMenuSchema).optional(),
  optionLists: z.array(optionListSchema).optional(),
  configReadBlocks: z.array(pollBlockSchema).optional(),
  dropdowns: z.array(protocolDropdownInput).optional(),
  statusRules: statusRulesSchema.optional(),
});
export type ProtocolSaveRequest = z.input<typeof protocolSaveRequest>;
/** The parts a save may replace. */
export const PROTOCOL_PARTS = [
  'name',
  'layout',
  'items',
  'alarms',
  'commands',
  'moduleItems',
  'configParams',
  'configMenus',
  'optionLists',
  'configReadBlocks',
  'dropdowns',
  'statusRules',
] as const;

export const protocolVersionRef = z.object({
  id: z.number().int(),
  key: z.string(),
  version: z.number().int(),
  status: z.enum(PROTOCOL_STATUSES),
  /** False when a draft was edited in place. */
  created: z.boolean(),
});

export const protocolPublishResponse = protocolVersionRef.omit({ created: true }).extend({
  /** Sets now running on this version, and modules sent their new poll plan. */
  sets: z.number().int(),
  modules: z.number().int(),
});

/** A refused document: every problem with its exact place, e.g. `items[3](gen_kw).address`. */
export const protocolProblems = z.object({
  problems: z.array(z.object({ path: z.string(), message: z.string() })),
  fields: z.record(z.string(), z.string()),
});

// ---- remote configuration -----------------------------------------------------------------------------

const configKey = () => z.string().regex(/^[a-z][a-z0-9_]*$/, { error: V.invalid });

export const configReadRequest = z.strictObject({
  token: setToken(),
  /** A configuration menu (with its sub-menus); absent: every parameter. */
  menu: z.string().trim().max(60, { error: V.tooLong }).optional(),
});

export const configMenuEntry = z.object({ key: z.string(), name: z.string(), parent: z.string().nullable() });

export const configParamValue = z.object({
  key: z.string(),
  name: z.string(),
  menu: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
  min: z.number(),
  max: z.number(),
  /** Engineering value read from the controller; null when the read did not cover it. */
  value: z.number().nullable(),
  /** The dropdown label of the value, if the parameter has options. */
  label: z.string().nullable(),
  options: z.array(z.object({ value: z.number(), label: z.string() })).nullable(),
});

export const configReadResponse = z.object({
  state: z.literal('ok'),
  /** Null when nothing had to be read (a menu without parameters). */
  requestId: z.string().nullable(),
  ts: z.number(),
  menu: z.string().nullable(),
  menus: z.array(configMenuEntry),
  params: z.array(configParamValue),
});

export const MAX_CONFIG_VALUES = 100;
export const configWriteRequest = z.strictObject({
  token: setToken(),
  /** The account password: writing settings is a risky operation. */
  password: passwordField(),
  values: z
    .record(configKey(), z.number({ error: V.invalid }))
    .refine((values) => Object.keys(values).length > 0, { error: V.required })
    .refine((values) => Object.keys(values).length <= MAX_CONFIG_VALUES, { error: V.tooLong }),
});

export const configWriteResult = z.object({
  key: z.string(),
  name: z.string(),
  /** Value before the write (null when it could not be read). */
  old: z.number().nullable(),
  /** The value asked for, as the controller's registers can hold it. */
  value: z.number(),
  /** Value read back after the write; null when nothing could be read. */
  readBack: z.number().nullable(),
  changed: z.boolean(),
  /** Whether the controller took the value: true, false, or null when unknown (no answer). */
  accepted: z.boolean().nullable(),
});

export const configWriteResponse = z.object({
  state: z.enum(['ok', 'error']),
  requestId: z.string().nullable(),
  results: z.array(configWriteResult),
});

// ---- realtime data selection --------------------------------------------------------------------------

/** Most data items a user may pick for a set's realtime page. */
export const MAX_REALTIME_ITEMS = 40;

export const itemSelectionEditRequest = z.strictObject({
  token: setToken(),
  /** Item keys in the order the realtime page shows them. */
  items: z
    .array(z.string({ error: V.invalid }).trim().min(1, { error: V.required }).max(60, { error: V.tooLong }))
    .min(1, { error: V.required })
    .max(500, { error: V.tooLong }),
});

export const dataItemMeta = z.object({
  key: z.string(),
  name: z.string(),
  group: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
});

export const itemSelectionResponse = z.object({
  /** False: the protocol's default (its realtime items). */
  custom: z.boolean(),
  max: z.number().int(),
  items: z.array(dataItemMeta),
  available: z.array(dataItemMeta.extend({ realtime: z.boolean() })),
});

export const monitorSelectResponse = z.object({
  items: z.array(dataItemMeta.extend({ selected: z.boolean() })),
});

export type ConfigMenuEntry = z.infer<typeof configMenuEntry>;
export type ConfigParamValue = z.infer<typeof configParamValue>;
export type ConfigReadResponse = z.infer<typeof configReadResponse>;
export type ConfigWriteRequest = z.input<typeof configWriteRequest>;
export type ConfigWriteResult = z.infer<typeof configWriteResult>;
export type ConfigWriteResponse = z.infer<typeof configWriteResponse>;
