// SIM cards of the cloud modules (spec: "query traffic of the SIM card", `/iotcard/getinfo`): a card is named
// by its ICCID; the module reports it with its IMSI and its own cumulative cellular byte counters, from which
// the server keeps the bytes used per day (the set's calendar) and per billing month. A card may have a plan:
// its size, the day of the month its billing month starts on, and the share of it past which the set's people
// are told (once per billing month, and again when the plan is used up).
import { z } from 'zod';
import { setToken } from './devices.ts';
import { V } from './rules.ts';

/** 1 MB of a plan, as carriers count it. */
export const SIM_MB_BYTES = 1_048_576;
/** The largest plan one can enter: 10 TB a month. */
export const SIM_PLAN_MAX_MB = 10_000_000;
/** Billing months start on a day that every month has. */
export const SIM_START_DAY_MAX = 28;
/** Months of history `/iotcard/getinfo` answers. */
export const SIM_HISTORY_MONTHS = 12;
export const SIM_DEFAULT_ALARM_SHARE = 80;
/** Where the figures come from: the module's own counters (built in), or a carrier's API. */
export const SIM_USAGE_SOURCES = ['module', 'carrier'] as const;
export type SimUsageSource = (typeof SIM_USAGE_SOURCES)[number];

/** An ICCID: 18 to 22 characters, digits (the last one may be F, as some cards print it). */
export const iccidField = () =>
  z
    .string({ error: V.invalid })
    .trim()
    .regex(/^\d{17,21}[\dFf]$/, { error: V.invalid });

/** A billing month, YYYY-MM. */
export const simMonth = () => z.string({ error: V.invalid }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: V.invalid });

/** A set's card (by the set's token) or a card by its number; `month`: which billing month (default: now). */
export const iotcardInfoRequest = z
  .strictObject({
    token: setToken().optional(),
    iccid: iccidField().optional(),
    month: simMonth().optional(),
  })
  .refine((v) => v.token !== undefined || v.iccid !== undefined, { error: V.required, path: ['token'] });
export type IotcardInfoRequest = z.input<typeof iotcardInfoRequest>;

export const simPlan = z.object({
  /** Size of the plan in MB (1 MB = 1,048,576 bytes). */
  sizeMb: z.number(),
  /** Day of the month (1–28) each billing month starts on. */
  startDay: z.number().int(),
  /** Share of the plan (per cent) past which the set's people are told. */
  alarmShare: z.number().int(),
});
export type SimPlan = z.infer<typeof simPlan>;

export const iotcardSetPlanRequest = z.strictObject({
  token: setToken(),
  sizeMb: z.number({ error: V.required }).positive({ error: V.invalid }).max(SIM_PLAN_MAX_MB, { error: V.invalid }),
  startDay: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(SIM_START_DAY_MAX, { error: V.invalid })
    .default(1),
  alarmShare: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(100, { error: V.invalid })
    .default(SIM_DEFAULT_ALARM_SHARE),
});
export type IotcardSetPlanRequest = z.input<typeof iotcardSetPlanRequest>;

export const simDayUsage = z.object({ day: z.string(), rxBytes: z.number(), txBytes: z.number() });
export const simMonthUsage = z.object({ month: z.string(), bytes: z.number() });

export const iotcardInfoResponse = z.object({
  /** The set the card serves (the first one of its module, when it serves several). */
  token: z.string(),
  setName: z.string(),
  /** Null: the set's module has not reported a card (yet). */
  iccid: z.string().nullable(),
  imsi: z.string().nullable(),
  source: z.enum(SIM_USAGE_SOURCES),
  plan: simPlan.nullable(),
  /** The billing month shown: its name and first and last day (the set's calendar). */
  month: z.string(),
  from: z.string(),
  to: z.string(),
  /** Bytes used in that month, and as MB. */
  usedBytes: z.number(),
  usedMb: z.number(),
  /** MB left of the plan (never below 0), and the share used (0–1, may pass 1); null without a plan. */
  leftMb: z.number().nullable(),
  share: z.number().nullable(),
  /** When the module last reported its counters (its own time), and its signal then. */
  lastReportAt: z.number().nullable(),
  signal: z.object({ rssi: z.number(), csq: z.number().nullable() }).nullable(),
  /** Every day of the month up to today (or its end), zero where nothing was used. */
  days: z.array(simDayUsage),
  /** The last 12 billing months, oldest first, ending with the month shown. */
  months: z.array(simMonthUsage),
  /** Whether the caller may set the plan (manage rights on the set). */
  canEdit: z.boolean(),
});
export type IotcardInfoResponse = z.infer<typeof iotcardInfoResponse>;

export const iotcardSetPlanResponse = simPlan.extend({ iccid: z.string() });
export type IotcardSetPlanResponse = z.infer<typeof iotcardSetPlanResponse>;
