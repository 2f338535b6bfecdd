// The shape of a protocol document: one controller model's register map, stored as data and edited on the
// protocol-management screens. Semantic checks (overlaps, limits, references) live in validate.ts.
import { EMS_ROLES } from '../ems/roles.ts';
import { z } from 'zod';
import { protocolTextSchema } from './text.ts';

/**
 * The rules the texts of this file state, by message key, in English. A refused document reports each problem
 * by key and parameters (see validate.ts), so that it can be told in the reader's language.
 */
export const SHAPE_RULE_TEXTS = {
  'protocolDoc.keyFormat': 'use lower_snake_case (a-z, 0-9, _)',
  'protocolDoc.protocolKeyFormat': 'use lower case letters, digits, ".", "_" or "-"',
  'protocolDoc.unknownType': 'unknown type {value}: use {allowed}',
  'protocolDoc.unknownSource': 'unknown source {value}: use {allowed}',
  'protocolDoc.scaleZero': 'scale must not be 0',
  'protocolDoc.writeShape':
    'a write is {fc: 5, address, value: 0|1}, {fc: 6, address, value}, {fc: 16, address, values: [...]} or {fc: 16, address, key}',
} as const;

/** Fills the `{name}` placeholders of a rule's text; a placeholder without a value stays as it is. */
export function fillProblemText(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Keys of listed entries (items, alarms, menus...). */
export const ENTRY_KEY_PATTERN = /^[a-z][a-z0-9_]*$/;
/** The key of a whole protocol document. */
export const DOCUMENT_KEY_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/;

/** The text of a refused enumeration: the value given and the values allowed. */
const unknownValueText =
  (rule: 'protocolDoc.unknownType' | 'protocolDoc.unknownSource', allowed: readonly string[]) =>
  (issue: { input?: unknown }) =>
    fillProblemText(SHAPE_RULE_TEXTS[rule], {
      value: String(JSON.stringify(issue.input)),
      allowed: allowed.join(', '),
    });

const keySchema = z.string().regex(ENTRY_KEY_PATTERN, { error: SHAPE_RULE_TEXTS['protocolDoc.keyFormat'] });
const addressSchema = z.number().int().min(0).max(65535);
const wordSchema = z.number().int().min(0).max(65535);

export const readFunctionCodeSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
/** 1 coils, 2 discrete inputs, 3 holding registers, 4 input registers. */
export type ReadFunctionCode = z.output<typeof readFunctionCodeSchema>;

const DATA_TYPES = ['bit', 'u16', 's16', 'u32', 's32', 'float32'] as const;
export const dataTypeSchema = z.enum(DATA_TYPES, { error: unknownValueText('protocolDoc.unknownType', DATA_TYPES) });
export type DataType = z.output<typeof dataTypeSchema>;

/** 'hi-lo': the high word is at the lower address (Modbus convention); 'lo-hi': the reverse. */
export const wordOrderSchema = z.enum(['hi-lo', 'lo-hi']);
export type WordOrder = z.output<typeof wordOrderSchema>;

export const itemGroupSchema = z.enum([
  'engine',
  'generator',
  'mains',
  'battery',
  'counters',
  'status',
  'maintenance',
  'location',
  // a storage station's devices
  'pcs',
  'bms',
  'meter',
  'pv',
]);
export type ItemGroup = z.output<typeof itemGroupSchema>;

export const alarmLevelSchema = z.enum(['warning', 'shutdown', 'trip']);
export type AlarmLevel = z.output<typeof alarmLevelSchema>;

export const enumOptionSchema = z.strictObject({ value: z.number(), label: protocolTextSchema });
export type EnumOption = z.output<typeof enumOptionSchema>;

const scaleSchema = z.number().refine((scale) => scale !== 0 && Number.isFinite(scale), {
  error: SHAPE_RULE_TEXTS['protocolDoc.scaleZero'],
  params: { rule: 'protocolDoc.scaleZero' },
});

export const dataItemSchema = z.strictObject({
  key: keySchema,
  name: protocolTextSchema,
  fc: readFunctionCodeSchema,
  address: addressSchema,
  type: dataTypeSchema,
  /** Only for 32-bit types; absent means 'hi-lo'. */
  wordOrder: wordOrderSchema.optional(),
  /** Bit index 0–15 when a bit item lives inside a register (fc 3 or 4). */
  bit: z.number().int().min(0).max(15).optional(),
  scale: scaleSchema.default(1),
  offset: z.number().default(0),
  unit: z.string().default(''),
  decimals: z.number().int().min(0).max(9).default(0),
  /** Raw values (before scale and offset) that mean "no data"; for signed types the unsigned bit pattern also matches. */
  noData: z.array(z.number()).default([]),
  enum: z.array(enumOptionSchema).optional(),
  group: itemGroupSchema,
  realtime: z.boolean().default(false),
  /** At a storage station: what the item is to the edge strategies (grid power, SOC, the PCS setpoint, …). */
  emsRole: z.enum(EMS_ROLES).optional(),
});
export type DataItem = z.output<typeof dataItemSchema>;

/** A test on an item's engineering value; 'bit' tests a bit of the integer value (for bit-field registers). */
export const conditionSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('set') }),
  z.strictObject({ op: z.literal('clear') }),
  z.strictObject({ op: z.literal('bit'), bit: z.number().int().min(0).max(31) }),
  z.strictObject({ op: z.literal('equals'), value: z.number() }),
  z.strictObject({ op: z.literal('in'), values: z.array(z.number()).min(1) }),
  z.strictObject({ op: z.literal('notIn'), values: z.array(z.number()).min(1) }),
]);
export type Condition = z.output<typeof conditionSchema>;

export const alarmSchema = z.strictObject({
  code: keySchema,
  item: keySchema,
  condition: conditionSchema,
  level: alarmLevelSchema,
  title: protocolTextSchema,
});
export type AlarmDefinition = z.output<typeof alarmSchema>;

const coilWriteSchema = z.strictObject({
  fc: z.literal(5),
  address: addressSchema,
  value: z.union([z.literal(0), z.literal(1)]),
});
const registerWriteSchema = z.strictObject({ fc: z.literal(6), address: addressSchema, value: wordSchema });
const registersWriteSchema = z.strictObject({
  fc: z.literal(16),
  address: addressSchema,
  values: z.array(wordSchema).min(1).max(123),
});
/** A key and its complement (65535 − key) written together with fc 16, so a stray write cannot act. */
const keyWriteSchema = z.strictObject({ fc: z.literal(16), address: addressSchema, key: wordSchema });
export const commandWriteSchema = z.union(
  [coilWriteSchema, registerWriteSchema, registersWriteSchema, keyWriteSchema],
  { error: SHAPE_RULE_TEXTS['protocolDoc.writeShape'] },
);
export type CommandWrite = z.output<typeof commandWriteSchema>;

export const commandPreconditionSchema = z.strictObject({
  item: keySchema,
  refuseWhen: conditionSchema,
  reason: protocolTextSchema,
});
export type CommandPrecondition = z.output<typeof commandPreconditionSchema>;

export const commandSchema = z.strictObject({
  key: keySchema,
  title: protocolTextSchema,
  writes: z.array(commandWriteSchema).min(1),
  /** Risky commands need the user's password and a warning before they are sent. */
  risky: z.boolean().default(false),
  preconditions: z.array(commandPreconditionSchema).default([]),
});
export type CommandDefinition = z.output<typeof commandSchema>;

/**
 * A field of bits inside one 16-bit register: `count` bits from bit `start` (0 = least significant), e.g.
 * "language: bits 4–5" is { start: 4, count: 2 }. Several parameters may share a register at different bits.
 */
export const bitFieldSchema = z.strictObject({
  start: z.number().int().min(0).max(15),
  count: z.number().int().min(1).max(16),
});
export type BitField = z.output<typeof bitFieldSchema>;

const PARAM_TYPES = ['u16', 's16', 'u32', 's32', 'float32'] as const;
export const configParamSchema = z.strictObject({
  key: keySchema,
  name: protocolTextSchema,
  /** Holding register (read with fc 3). */
  address: addressSchema,
  type: z.enum(PARAM_TYPES, { error: unknownValueText('protocolDoc.unknownType', PARAM_TYPES) }),
  wordOrder: wordOrderSchema.optional(),
  /**
   * Only for u16 and s16: the parameter is these bits of the register (an s16 field is signed within its bits).
   * Absent: the whole register. A write replaces these bits of the register's current value and keeps the rest.
   */
  bits: bitFieldSchema.optional(),
  scale: scaleSchema.default(1),
  offset: z.number().default(0),
  unit: z.string().default(''),
  decimals: z.number().int().min(0).max(9).default(0),
  /** Engineering range accepted for writes. */
  min: z.number(),
  max: z.number(),
  /** Dropdown: the allowed engineering values with their labels. */
  options: z.array(enumOptionSchema).optional(),
  /**
   * The shared option list (optionLists) the dropdown takes its options from: its coordinate. `options` keeps a
   * copy, so whoever reads a parameter needs nothing else; validation holds the two equal.
   */
  optionList: keySchema.optional(),
  menu: keySchema,
  /** Absent: fc 6 for 16-bit parameters, fc 16 for 32-bit ones. */
  writeFc: z.union([z.literal(6), z.literal(16)]).optional(),
});
export type ConfigParam = z.output<typeof configParamSchema>;

export const configMenuSchema = z.strictObject({
  key: keySchema,
  name: protocolTextSchema,
  parent: keySchema.optional(),
});
export type ConfigMenu = z.output<typeof configMenuSchema>;

/** A named option list (dropdown) that configuration parameters can share. */
export const optionListSchema = z.strictObject({
  key: keySchema,
  name: protocolTextSchema,
  options: z.array(enumOptionSchema).min(1),
});
export type OptionList = z.output<typeof optionListSchema>;

/**
 * Where a module-status value comes from: its path in the module's periodic `event` (signal, SIM traffic,
 * GPS, inputs, heartbeat) or in its `hello` (model, firmware, IMEI, ICCID). Not read from the controller.
 */
export const MODULE_SOURCES = [
  'signal.rssi',
  'signal.csq',
  'sim.rxBytes',
  'sim.txBytes',
  'hello.iccid',
  'gps.lat',
  'gps.lon',
  'gps.alt',
  'gps.speed',
  'inputs',
  'hello.firmware',
  'hello.model',
  'hello.imei',
  'heartbeat.uptimeS',
  'heartbeat.outboxSize',
] as const;
export type ModuleSource = (typeof MODULE_SOURCES)[number];

/** A value the module-status screen shows about the cloud module itself (signal, SIM, GPS, inputs, firmware). */
export const moduleItemSchema = z.strictObject({
  key: keySchema,
  name: protocolTextSchema,
  source: z.enum(MODULE_SOURCES, { error: unknownValueText('protocolDoc.unknownSource', MODULE_SOURCES) }),
  /** For source "inputs": the input's name as the module reports it. */
  input: z.string().trim().min(1).max(32).optional(),
  unit: z.string().default(''),
  decimals: z.number().int().min(0).max(9).default(0),
});
export type ModuleItem = z.output<typeof moduleItemSchema>;

export const pollBlockSchema = z.strictObject({
  fc: readFunctionCodeSchema,
  start: addressSchema,
  count: z.number().int().min(1),
});
export type PollBlock = z.output<typeof pollBlockSchema>;

const valueListSchema = z.array(z.number()).default([]);

/**
 * How the set status is read from this map, so that no controller's numbering is known to the server:
 * which mode and engine-state values mean what, which bit says the generator is on load, and which
 * summary flags report alarms.
 */
export const statusRulesSchema = z.strictObject({
  modeItem: keySchema,
  modes: z.strictObject({
    stop: valueListSchema,
    manual: valueListSchema,
    auto: valueListSchema,
    test: valueListSchema,
  }),
  engineStateItem: keySchema,
  /** Engine-state values of each phase; any other value means the engine is at rest. */
  engineStates: z.strictObject({
    starting: valueListSchema,
    running: valueListSchema,
    cooling: valueListSchema,
    stopping: valueListSchema,
  }),
  onLoadItem: keySchema.optional(),
  alarmFlags: z
    .strictObject({
      common: keySchema.optional(),
      warning: keySchema.optional(),
      shutdown: keySchema.optional(),
      trip: keySchema.optional(),
    })
    .default({}),
});
export type StatusRules = z.output<typeof statusRulesSchema>;

export const protocolDocumentSchema = z.strictObject({
  key: z.string().regex(DOCUMENT_KEY_PATTERN, { error: SHAPE_RULE_TEXTS['protocolDoc.protocolKeyFormat'] }),
  name: protocolTextSchema,
  version: z.number().int().min(1),
  /** The register-map family, e.g. "S" or "G" (the set lists show it; a save asks the same limit). */
  layout: z.string().trim().min(1).max(20),
  items: z.array(dataItemSchema).min(1),
  alarms: z.array(alarmSchema).default([]),
  commands: z.array(commandSchema).default([]),
  /** Optional: documents written before module items existed have none. */
  moduleItems: z.array(moduleItemSchema).default([]),
  configParams: z.array(configParamSchema).default([]),
  configMenus: z.array(configMenuSchema).default([]),
  optionLists: z.array(optionListSchema).default([]),
  configReadBlocks: z.array(pollBlockSchema).default([]),
  statusRules: statusRulesSchema.optional(),
});
export type ProtocolDocument = z.output<typeof protocolDocumentSchema>;
/** What an author writes: defaults (scale 1, no unit, …) may be left out. */
export type ProtocolDocumentInput = z.input<typeof protocolDocumentSchema>;
