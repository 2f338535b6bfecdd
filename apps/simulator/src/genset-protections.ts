// The controller's protections: the physical faults behind each alarm code, and for each alarm the condition
// that must hold for a delay, in the engine states where it is armed, before the alarm is raised. What a raised
// alarm does (a warning follows its condition; a shutdown or trip latches) is in genset-model.ts.
import type { GensetModel } from './genset-model.ts';
import type { AlarmCode, EngineState } from './genset-types.ts';

/** Physical faults behind each alarm code; several alarm codes share one cause (warning, then shutdown). */
export type Fault =
  | 'emergency_stop'
  | 'low_oil_pressure'
  | 'cooling_failure'
  | 'fuel_leak'
  | 'governor_runaway'
  | 'governor_sluggish'
  | 'avr_high'
  | 'avr_low'
  | 'governor_fast'
  | 'governor_slow'
  | 'overload'
  | 'weak_battery'
  | 'charge_alternator'
  | 'no_fuel_delivery';

export const FAULT_OF_ALARM: Record<AlarmCode, Fault | 'maintenance'> = {
  emergency_stop: 'emergency_stop',
  low_oil_pressure_warning: 'low_oil_pressure',
  low_oil_pressure_shutdown: 'low_oil_pressure',
  high_coolant_temp_warning: 'cooling_failure',
  high_coolant_temp_shutdown: 'cooling_failure',
  low_fuel_warning: 'fuel_leak',
  low_fuel_shutdown: 'fuel_leak',
  over_speed: 'governor_runaway',
  under_speed: 'governor_sluggish',
  gen_over_voltage: 'avr_high',
  gen_under_voltage: 'avr_low',
  gen_over_frequency: 'governor_fast',
  gen_under_frequency: 'governor_slow',
  overload: 'overload',
  battery_low: 'weak_battery',
  charge_fail: 'charge_alternator',
  fail_to_start: 'no_fuel_delivery',
  maintenance_due: 'maintenance',
};

const STATES_AFTER_SAFETY_ON: readonly EngineState[] = ['start_idle', 'warm_up', 'running', 'on_load', 'cooling'];
const STATES_AT_RATED_SPEED: readonly EngineState[] = ['warm_up', 'running', 'on_load', 'cooling'];
export const STATES_RUNNING: readonly EngineState[] = ['safety_on', ...STATES_AFTER_SAFETY_ON];

/** A protection: a condition that must hold for a delay before it raises its alarm. */
interface Protection {
  code: AlarmCode;
  delayS: number;
  /** Whether the protection is active in the present state (e.g. oil pressure only after safety-on). */
  armed: (model: GensetModel) => boolean;
  tripped: (model: GensetModel) => boolean;
}

export const PROTECTIONS: readonly Protection[] = [
  { code: 'emergency_stop', delayS: 0, armed: () => true, tripped: (m) => m.hasFault('emergency_stop') },
  {
    code: 'over_speed',
    delayS: 0.5,
    armed: () => true,
    tripped: (m) => m.rpm > m.settings.over_speed_shutdown_rpm,
  },
  {
    code: 'under_speed',
    delayS: 5,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.rpm < 0.85 * m.ratedRpm,
  },
  {
    code: 'gen_over_voltage',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genVoltage > 1.15 * m.settings.rated_voltage,
  },
  {
    code: 'gen_under_voltage',
    delayS: 5,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genVoltage < 0.8 * m.settings.rated_voltage,
  },
  {
    code: 'gen_over_frequency',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genFrequency > 1.1 * m.settings.rated_frequency,
  },
  {
    code: 'gen_under_frequency',
    delayS: 5,
    armed: (m) => m.isIn(STATES_AT_RATED_SPEED),
    tripped: (m) => m.genFrequency < 0.9 * m.settings.rated_frequency,
  },
  {
    code: 'overload',
    delayS: 5,
    armed: (m) => m.genBreakerClosed,
    tripped: (m) => m.genKw > 1.1 * m.settings.rated_kw,
  },
  {
    code: 'low_oil_pressure_warning',
    delayS: 2,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('oil_pressure'),
    tripped: (m) => m.oilPressureKpa < m.settings.low_oil_warning_kpa,
  },
  {
    code: 'low_oil_pressure_shutdown',
    delayS: 2,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('oil_pressure'),
    tripped: (m) => m.oilPressureKpa < m.settings.low_oil_shutdown_kpa,
  },
  {
    code: 'high_coolant_temp_warning',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('coolant_temp'),
    tripped: (m) => m.coolantC > m.settings.high_coolant_warning_c,
  },
  {
    code: 'high_coolant_temp_shutdown',
    delayS: 3,
    armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON) && !m.isSensorOpen('coolant_temp'),
    tripped: (m) => m.coolantC > m.settings.high_coolant_shutdown_c,
  },
  {
    code: 'low_fuel_warning',
    delayS: 5,
    armed: (m) => !m.isSensorOpen('fuel_level'),
    tripped: (m) => m.fuelPercent < m.settings.low_fuel_warning_pct,
  },
  {
    code: 'low_fuel_shutdown',
    delayS: 5,
    armed: (m) => !m.isSensorOpen('fuel_level'),
    tripped: (m) => m.fuelPercent < m.settings.low_fuel_shutdown_pct,
  },
  {
    code: 'battery_low',
    delayS: 10,
    // The starter pulls the battery down on purpose; only a battery that stays low is a fault.
    armed: (m) => m.engineState !== 'crank',
    tripped: (m) => m.batteryV < m.settings.battery_low_warning_v,
  },
  { code: 'charge_fail', delayS: 5, armed: (m) => m.isIn(STATES_AFTER_SAFETY_ON), tripped: (m) => m.chargerV < 8 },
  { code: 'maintenance_due', delayS: 0, armed: () => true, tripped: (m) => m.maintenanceHoursLeft <= 0 },
];
