// The roles of a station's measurements and setpoints that the edge strategies read and write.

/**
 * What a strategy reads and writes, by role. A protocol item or configuration parameter carries its role
 * (`emsRole`), so the server can build a tactic's coordinates from the station's documents.
 */
export const EMS_ROLES = [
  /** Meter: active power at the point of connection, kW (import > 0). Read. */
  'gridPowerKw',
  /** PCS: active power now, kW (discharge > 0). Read. */
  'pcsPowerKw',
  /** PCS: the power setpoint, kW (discharge > 0). Written every cycle (holding register). */
  'pcsSetpointKw',
  /** PCS: rated power, kW. Read. */
  'pcsRatingKw',
  /** PCS: fault flag (non-zero: faulted). Read. */
  'pcsFault',
  /** BMS: state of charge, %. Read. */
  'soc',
  /** BMS: the largest charge power it allows now, kW (≥ 0). Read. */
  'bmsChargeLimitKw',
  /** BMS: the largest discharge power it allows now, kW (≥ 0). Read. */
  'bmsDischargeLimitKw',
  /** BMS: fault flag (non-zero: faulted). Read. */
  'bmsFault',
  /** PV inverter: active power, kW (≥ 0). Read. Optional. */
  'pvPowerKw',
  /** PV inverter: output limit, % of its rating. Written when reverse-power protection must curtail PV. Optional. */
  'pvLimitPct',
] as const;
export type EmsRole = (typeof EMS_ROLES)[number];

/** The roles every tactic needs; the others are optional. */
export const EMS_REQUIRED_ROLES = [
  'gridPowerKw',
  'pcsPowerKw',
  'pcsSetpointKw',
  'pcsRatingKw',
  'pcsFault',
  'soc',
  'bmsChargeLimitKw',
  'bmsDischargeLimitKw',
  'bmsFault',
] as const satisfies readonly EmsRole[];

/** The roles the module writes (holding registers, fc 6 or 16). */
export const EMS_WRITTEN_ROLES = ['pcsSetpointKw', 'pvLimitPct'] as const satisfies readonly EmsRole[];
