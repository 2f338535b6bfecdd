// Request and response schemas of parallel and multi-machine groups (spec 7, "Genset": /genset/getNav,
// /genset/getZuItem, /genset/savedevxml), and the bus of a group worked out from what its members report, the
// same way on the server and in the console.
import { z } from 'zod';
import { setToken } from './devices.ts';
import { gensetRights } from './gensets.ts';
import { itemKeyField } from './history.ts';
import { MAX_ROW_ID } from './codes.ts';
import { V } from './rules.ts';

/** parallel: the sets feed one bus through their breakers; multi: several sets at one site, each on its own. */
export const GROUP_KINDS = ['parallel', 'multi'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

export const MAX_GROUP_MEMBERS = 16;
export const MAX_GROUP_ITEMS = 12;
export const GROUP_NAME_MAX = 60;

/** Items shown for each member unless the group names its own. */
export const DEFAULT_GROUP_ITEMS = [
  'gen_kw',
  'gen_kva',
  'power_factor',
  'gen_voltage_l1',
  'gen_freq',
  'gen_current_l1',
  'engine_rpm',
  'fuel_level',
] as const;

/**
 * What the group page reads of every member whatever the group's items: the breaker, the set's output and
 * what a paralleling controller reports of its bus.
 */
export const GROUP_BUS_KEYS = [
  'gen_on_load',
  'gen_kw',
  'gen_kva',
  'gen_voltage_l1',
  'gen_freq',
  'bus_live',
  'bus_voltage',
  'bus_freq',
  'bus_kw',
  'bus_kva',
  'load_share',
  'synchronising',
] as const;

export const groupToken = setToken;

export const groupNavRequest = z.strictObject({
  kind: z.enum(GROUP_KINDS, { error: V.invalid }).optional(),
});
export type GroupNavRequest = z.input<typeof groupNavRequest>;

export const groupNavSet = z.object({
  token: z.string(),
  name: z.string(),
  status: z.number().int(),
  alarmnum: z.number().int(),
  online: z.boolean(),
});

export const groupNavEntry = z.object({
  token: z.string(),
  name: z.string(),
  kind: z.enum(GROUP_KINDS),
  /** The least of the caller's rights on the members: control on every member lets the group start. */
  rights: gensetRights,
  sets: z.array(groupNavSet),
});
export type GroupNavEntry = z.infer<typeof groupNavEntry>;

/** The groups whose every member the caller sees, by name, each with its members in order. */
export const groupNavResponse = z.object({ list: z.array(groupNavEntry) });
export type GroupNavResponse = z.infer<typeof groupNavResponse>;

export const groupItemRequest = z.strictObject({ token: groupToken() });
export type GroupItemRequest = z.input<typeof groupItemRequest>;

export const groupItemColumn = z.object({
  key: z.string(),
  name: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
});
export type GroupItemColumn = z.infer<typeof groupItemColumn>;

export const groupBus = z.object({
  /** Energised: some set is on it (parallel), or some set is on load (multi). */
  live: z.boolean(),
  /** Phase voltage and frequency of the bus; null for a multi-machine group or a dead bus. */
  voltage: z.number().nullable(),
  frequency: z.number().nullable(),
  /** What the group delivers now: the bus totals (parallel) or the sum of the sets on load (multi). */
  kw: z.number(),
  kva: z.number(),
  /** Sets on load (breaker closed) and sets in the group. */
  onLoad: z.number().int(),
  members: z.number().int(),
});
export type GroupBus = z.infer<typeof groupBus>;

export const groupMember = z.object({
  token: z.string(),
  name: z.string(),
  position: z.number().int(),
  ratedKw: z.number().nullable(),
  rights: gensetRights,
  status: z.number().int(),
  alarmnum: z.number().int(),
  online: z.boolean(),
  ts: z.number().nullable(),
  /** Latest values of the group's items and of GROUP_BUS_KEYS (scaled, in the item's unit); null: no data. */
  values: z.record(z.string(), z.number().nullable()),
  /** Texts of enumerated values of the group's items, in the request's language, by item key and value. */
  labels: z.record(z.string(), z.record(z.string(), z.string())),
});
export type GroupMember = z.infer<typeof groupMember>;

export const groupItemResponse = z.object({
  token: z.string(),
  name: z.string(),
  kind: z.enum(GROUP_KINDS),
  rights: gensetRights,
  /** The items shown for each member, in order, named in the request's language. */
  items: z.array(groupItemColumn),
  members: z.array(groupMember),
  bus: groupBus,
});
export type GroupItemResponse = z.infer<typeof groupItemResponse>;

/** Creates a group (without `token`) or replaces the name, kind, members and items of one. */
export const groupSaveRequest = z.strictObject({
  token: groupToken().optional(),
  name: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(GROUP_NAME_MAX, { error: V.tooLong }),
  kind: z.enum(GROUP_KINDS, { error: V.invalid }),
  /** The members' set tokens, in the order the group page shows them. */
  members: z
    .array(setToken(), { error: V.invalid })
    .min(1, { error: V.required })
    .max(MAX_GROUP_MEMBERS, { error: V.tooLong }),
  items: z
    .array(itemKeyField(), { error: V.invalid })
    .min(1, { error: V.required })
    .max(MAX_GROUP_ITEMS, { error: V.tooLong })
    .optional(),
});
export type GroupSaveRequest = z.input<typeof groupSaveRequest>;

export const groupSaveResponse = z.object({ token: z.string(), created: z.boolean() });

export const groupDeleteRequest = z.strictObject({ token: groupToken() });
export const groupDeleteResponse = z.object({ deleted: z.number().int() });

// ---- a command to the whole group, run on the server ----------------------------------------------------

/**
 * A set's part of a group command: waiting its turn, its command on the way, then its outcome (carried out,
 * failed at the module or controller, or refused: no rights on the set, a precondition not met).
 */
export const GROUP_COMMAND_SET_STATES = ['pending', 'sending', 'ok', 'failed', 'refused'] as const;
export type GroupCommandSetState = (typeof GROUP_COMMAND_SET_STATES)[number];

/** The command to every set of the group (a risky one with the account's password). */
export const groupCommandRequest = z.strictObject({
  token: groupToken(),
  action: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(60, { error: V.tooLong }),
  password: z.string().max(128, { error: V.tooLong }).optional(),
});
export type GroupCommandRequest = z.input<typeof groupCommandRequest>;

/** A command given to the group (`id`), or the latest one. */
export const groupCommandJobRequest = z.strictObject({
  token: groupToken(),
  id: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .positive({ error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid })
    .optional(),
});
export type GroupCommandJobRequest = z.input<typeof groupCommandJobRequest>;

export const groupCommandSet = z.object({
  token: z.string(),
  name: z.string(),
  state: z.enum(GROUP_COMMAND_SET_STATES),
  /** The outcome in the request's language; empty while the set waits or its command is on the way. */
  text: z.string(),
  updatedAt: z.number(),
});
export type GroupCommandSet = z.infer<typeof groupCommandSet>;

export const groupCommandJob = z.object({
  id: z.number().int(),
  /** The group's token and its name when the command was given. */
  group: z.string(),
  groupName: z.string(),
  kind: z.enum(GROUP_KINDS),
  command: z.string(),
  /** The command's title in the request's language. */
  title: z.string(),
  /** Who gave it (account nickname, else account). */
  by: z.string(),
  state: z.enum(['running', 'done']),
  createdAt: z.number(),
  finishedAt: z.number().nullable(),
  /** Every set of the group in the group's order. */
  sets: z.array(groupCommandSet),
});
export type GroupCommandJob = z.infer<typeof groupCommandJob>;

/** The job asked for; null when the group has had no command. */
export const groupCommandJobResponse = groupCommandJob.nullable();

// ---- the bus, from the members' values ------------------------------------------------------------------

export interface GroupReading {
  /** 0 offline: its values are old and count for nothing. */
  status: number;
  ts: number | null;
  values: Readonly<Record<string, number | null | undefined>>;
}

const num = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** Whether the set's breaker is closed (it feeds the bus or its load). */
export function breakerClosed(reading: GroupReading): boolean {
  return reading.status !== 0 && reading.values.gen_on_load === 1;
}

/**
 * The bus of a group. A parallel group's controllers measure the bus and report its totals; the newest such
 * report counts. Without one (controllers that do not measure a bus, a multi-machine group) the bus is the sum
 * of the sets on load, and its voltage and frequency those of the sets on load (parallel only).
 */
export function groupBusOf(kind: GroupKind, readings: readonly GroupReading[]): GroupBus {
  const online = readings.filter((r) => r.status !== 0);
  const onLoad = online.filter(breakerClosed);
  const base = { onLoad: onLoad.length, members: readings.length };
  if (kind === 'parallel') {
    const reporting = online
      .filter((r) => num(r.values.bus_live) && num(r.values.bus_kw))
      .sort((a, b) => (b.ts ?? 0) - (a.ts ?? 0))[0];
    if (reporting) {
      const v = reporting.values;
      const live = v.bus_live === 1;
      return {
        ...base,
        live,
        voltage: live && num(v.bus_voltage) ? v.bus_voltage : null,
        frequency: live && num(v.bus_freq) ? v.bus_freq : null,
        kw: num(v.bus_kw) ? v.bus_kw : 0,
        kva: num(v.bus_kva) ? v.bus_kva : 0,
      };
    }
  }
  const sum = (key: string) => onLoad.reduce((total, r) => total + (num(r.values[key]) ? r.values[key] : 0), 0);
  const mean = (key: string) => {
    const known = onLoad.map((r) => r.values[key]).filter(num);
    return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
  };
  return {
    ...base,
    live: onLoad.length > 0,
    voltage: kind === 'parallel' ? mean('gen_voltage_l1') : null,
    frequency: kind === 'parallel' ? mean('gen_freq') : null,
    kw: sum('gen_kw'),
    kva: sum('gen_kva'),
  };
}

/** A member's share of what the group delivers, percent; null while the group delivers nothing. */
export function shareOf(reading: GroupReading, bus: Pick<GroupBus, 'kw'>): number | null {
  if (!breakerClosed(reading)) return bus.kw > 0 ? 0 : null;
  const kw = reading.values.gen_kw;
  if (!num(kw) || bus.kw <= 0) return null;
  return Math.min(100, Math.max(0, (100 * kw) / bus.kw));
}
