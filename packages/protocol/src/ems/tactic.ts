// The tactic: what the cloud tells a station's cloud module to run (OpenEMS-style edge control). The module
// runs the EMS cycle itself (read meter, BMS and PCS → decide → write the PCS setpoint, about once a second)
// and stays generic: the tactic names, for each role the strategy needs, the register it lives in, taken from
// the station's protocol documents. Power signs: battery power and setpoint > 0 discharge, < 0 charge; grid
// power > 0 imports from the grid, < 0 exports to it.
import { z } from 'zod';
import { modbusUnitAddress, modemPortName } from '../mqtt/fields.ts';
import { dataTypeSchema, wordOrderSchema } from '../device-protocol/schema.ts';
import { priceTemplateBody } from './tariff.ts';
import { EMS_REQUIRED_ROLES, EMS_ROLES, type EmsRole } from './roles.ts';

export * from './roles.ts';

/** Where a role's value lives: the controller (port, unit address) and the register, with its decoding. */
export const emsRoleCoordinate = z.strictObject({
  port: modemPortName(),
  address: modbusUnitAddress(),
  /** 3 holding, 4 input registers; written roles are holding registers. */
  fc: z.literal([3, 4]),
  register: z.int().min(0).max(0xffff),
  type: dataTypeSchema.exclude(['bit']),
  wordOrder: wordOrderSchema.optional(),
  scale: z.number().refine((v) => v !== 0 && Number.isFinite(v)),
  offset: z.number().default(0),
});
export type EmsRoleCoordinate = z.infer<typeof emsRoleCoordinate>;

export const EMS_STRATEGIES = [
  /** Peak shaving / valley filling by the price template: charge in valley (and flat), discharge in sharp and peak. */
  'timeOfUse',
  /** Demand control as the strategy: discharge above the demand limit, recharge below it (never above it). */
  'peakShaving',
  /** Flexible capacity expansion: the battery covers load above the transformer's capacity. */
  'capacityExpansion',
  /** The battery stays at 0 kW (limits and demand-response events still apply). */
  'idle',
] as const;
export type EmsStrategy = (typeof EMS_STRATEGIES)[number];

export const emsStrategyParams = z.strictObject({
  /** capacityExpansion: the transformer's capacity, kW; the battery covers import above it. */
  transformerKw: z.number().min(0).max(1_000_000).optional(),
  /** peakShaving: recharge only while import stays this far (kW) under the demand limit. */
  rechargeHeadroomKw: z.number().min(0).max(1_000_000).optional(),
});
export type EmsStrategyParams = z.infer<typeof emsStrategyParams>;

export const EMS_CYCLE_MS_DEFAULT = 1000;
/** A meter reading older than this makes the cycle stop the battery (setpoint 0) and raise an alarm. */
export const EMS_STALE_MS = 3000;
/** The PCS's own watchdog: a setpoint not refreshed for this long falls to 0. */
export const PCS_WATCHDOG_MS = 10_000;

/** A tactic: versioned by the cloud (1, 2, …, per station); the module keeps the last one it accepted. */
export const emsTactic = z.strictObject({
  version: z.int().min(1),
  strategy: z.enum(EMS_STRATEGIES),
  params: emsStrategyParams.default({}),
  /** The price template version in force (its periods, cut-offs, limits). */
  template: priceTemplateBody,
  /** The station's time zone: periods are its wall clock. */
  timeZone: z.string().min(1).max(64),
  roles: z.partialRecord(z.enum(EMS_ROLES), emsRoleCoordinate),
  cycleMs: z.int().min(200).max(60_000).default(EMS_CYCLE_MS_DEFAULT),
});
export type EmsTactic = z.infer<typeof emsTactic>;
export type EmsTacticInput = z.input<typeof emsTactic>;

/** The first required role a tactic's coordinates lack, or null. */
export function missingEmsRole(roles: Partial<Record<EmsRole, unknown>>): EmsRole | null {
  for (const role of EMS_REQUIRED_ROLES) if (!roles[role]) return role;
  return null;
}

/**
 * A demand-response event: from `startTs` to `endTs` the battery delivers `kw` (discharge > 0, charge < 0)
 * whatever the strategy says, within the safety limits; then the strategy in force resumes.
 */
export const emsDemandResponse = z
  .strictObject({
    id: z.string().min(1).max(64),
    startTs: z.int().min(0),
    endTs: z.int().min(0),
    kw: z.number().min(-1_000_000).max(1_000_000),
  })
  .refine((e) => e.endTs > e.startTs, { path: ['endTs'], message: 'validation.invalid' });
export type EmsDemandResponse = z.infer<typeof emsDemandResponse>;

/** Why the cycle holds the battery at 0 kW, when it does. */
export const EMS_SAFE_REASONS = ['pcsFault', 'bmsFault', 'meterStale', 'linkLost', 'noTactic'] as const;
export type EmsSafeReason = (typeof EMS_SAFE_REASONS)[number];

/**
 * What the module says of its EMS in every `event` (and in its `hello`): the tactic version it runs, the
 * decision of its last cycle, and the reason when it holds the battery safe.
 */
export const emsStatus = z.strictObject({
  version: z.int().min(0),
  strategy: z.enum(EMS_STRATEGIES).optional(),
  /** The setpoint the last cycle wrote, kW. */
  setpointKw: z.number(),
  /** What limited it, if anything: the BMS, the PCS rating, an SOC cut-off, reverse power or the demand limit. */
  limitedBy: z.enum(['bms', 'rating', 'soc', 'reversePower', 'demandLimit', 'pvCurtailed']).optional(),
  safe: z.enum(EMS_SAFE_REASONS).optional(),
  /** The demand-response event being delivered. */
  demandResponse: z.string().max(64).optional(),
  ts: z.int().min(0),
});
export type EmsStatus = z.infer<typeof emsStatus>;
