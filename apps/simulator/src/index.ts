// Simulated controllers as real Modbus TCP servers (genset controllers and the devices of a storage station),
// for tests, the demo and benchmarks.
export {
  GensetSimulator,
  startGensetSimulator,
  isAlarmCode,
  type GensetSimulatorOptions,
  type GensetSimulatorState,
  type RunningGensetSimulator,
  type StartGensetSimulatorOptions,
} from './genset-simulator.ts';
export {
  GensetModel,
  ALARM_CODES,
  DEFAULT_SETTINGS,
  GENSET_COMMANDS,
  SETTING_KEYS,
  type ActiveAlarmState,
  type AlarmCode,
  type ControllerMode,
  type EngineState,
  type GensetCommand,
  type GensetModelOptions,
  type GensetSettings,
  type GensetSnapshot,
  type LoadProfile,
  type Position,
  type Sensor,
  type SettingKey,
} from './genset-model.ts';
export { LAYOUTS, type LayoutName } from './layouts.ts';
export {
  ParallelBus,
  SYNC_LIMITS,
  SYNC_SLIP_HZ,
  type BusMember,
  type LoadSharing,
  type ParallelBusOptions,
} from './parallel-bus.ts';
export { ModbusTcpHost, type ModbusHostOptions, type ModbusUnit } from './modbus-host.ts';
export { MODBUS_EXCEPTION, ModbusException } from './register-bank.ts';
export { startGensetFleet, type GensetFleet, type GensetFleetOptions } from './fleet.ts';
export { startControlServer, type ControlServer, type ControlServerOptions } from './control-server.ts';
export {
  EssSiteSimulator,
  startEssSite,
  ESS_DEVICES,
  ESS_UNIT_IDS,
  type AdvanceSampling,
  type EssSiteOptions,
  type EssSiteState,
  type RunningEssSite,
  type StartEssSiteOptions,
} from './ess-simulator.ts';
export {
  EssSiteModel,
  BMS_ALARMS,
  PCS_COMMANDS,
  PCS_FAULT_KINDS,
  PCS_SETTING_KEYS,
  type BmsAlarm,
  type BmsSnapshot,
  type BmsState,
  type EssSiteModelOptions,
  type EssSiteSnapshot,
  type MeterSnapshot,
  type PcsCommand,
  type PcsControlMode,
  type PcsFaultKind,
  type PcsSettingKey,
  type PcsSettings,
  type PcsSnapshot,
  type PcsState,
  type PvSnapshot,
  type PvState,
} from './ess-model.ts';
export { deviceValues as essDeviceValues, EssModbusDevice, type DeviceValues } from './ess-registers.ts';
export { clearSkyPvShare, loadShare, ZoneClock, type LocalTime } from './ess-profiles.ts';
export { startEssControlServer, type EssControlServer, type EssControlServerOptions } from './ess-control-server.ts';
