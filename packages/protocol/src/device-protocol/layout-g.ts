// Seed register map "layout G", in the style of the publicly documented GenComm standard: register = page × 256
// + offset, 32-bit values high word first, bit-field alarm registers, and commands as a key plus its complement.
import type { DataItem, ProtocolDocumentInput } from './schema.ts';
import { protocolText as t } from './text.ts';
import { parseProtocolDocument } from './validate.ts';
import {
  ALARM_LEVELS,
  ALARM_TITLES,
  COMMAND_TITLES,
  CONFIG_NAMES,
  ITEM_NAMES,
  MODE_LABELS,
  REFUSAL_REASONS,
  SEED_CONFIG_MENUS,
  SEED_MODULE_ITEMS,
  SEED_OPTION_LISTS,
  SEED_SWITCH_BITS,
  type AlarmCode,
} from './vocabulary.ts';

type ItemInput = ProtocolDocumentInput['items'][number];
type ConfigInput = NonNullable<ProtocolDocumentInput['configParams']>[number];
type ItemKey = keyof typeof ITEM_NAMES;

export function gencommRegister(page: number, offset: number): number {
  return page * 256 + offset;
}

const PAGE_STATUS = 3;
const PAGE_INSTRUMENTS = 4;
const PAGE_POWER = 6;
const PAGE_COUNTERS = 7;
const PAGE_ALARMS = 8;
const PAGE_BUS = 9;
const PAGE_LOCATION = 10;
const PAGE_CONTROL = 16;
const PAGE_CONFIG = 40;

// GenComm sentinels: unimplemented, over range, under range, transducer fault, bad data.
const NO_DATA_U16 = [65535, 65534, 65533, 65532, 65531];
const NO_DATA_S16 = [32767, 32766, 32765, 32764, 32763];
const NO_DATA_32 = [4294967295, 4294967294, 4294967293, 4294967292, 4294967291];

function register(
  key: ItemKey,
  page: number,
  offset: number,
  type: DataItem['type'],
  group: DataItem['group'],
  extra: Partial<ItemInput> = {},
): ItemInput {
  return { key, name: ITEM_NAMES[key], fc: 3, address: gencommRegister(page, offset), type, group, ...extra };
}

function flagBit(key: ItemKey, page: number, offset: number, bit: number, group: DataItem['group']): ItemInput {
  return { key, name: ITEM_NAMES[key], fc: 3, address: gencommRegister(page, offset), type: 'bit', bit, group };
}

/** System control mode register values. */
export const LAYOUT_G_MODES = { stop: 0, auto: 1, manual: 2, test: 3, autoManualRestore: 4, testOffLoad: 6 } as const;

/** Engine operating state register; coarser than a front panel, several steps share one value. */
// prettier-ignore
export const LAYOUT_G_ENGINE_STATES = [
  { value: 0, label: t('Stopped', '停机', '停機', 'Остановлен', 'Parado', 'Durdu') },
  { value: 1, label: t('Pre-start', '启动准备', '啟動準備', 'Подготовка к пуску', 'Preparación del arranque', 'Çalıştırma hazırlığı') },
  { value: 2, label: t('Cranking', '启动马达运转', '啟動馬達運轉', 'Прокрутка стартером', 'Arranque en curso', 'Marş basılıyor') },
  { value: 3, label: t('Warming up', '暖机', '暖機', 'Прогрев', 'Calentamiento', 'Isınma') },
  { value: 4, label: t('Running', '运行', '運轉', 'Работает', 'En marcha', 'Çalışıyor') },
  { value: 5, label: t('Cooling down', '散热', '散熱', 'Охлаждение', 'Enfriamiento', 'Soğuma') },
  { value: 6, label: t('Stopping', '停机中', '停機中', 'Останов', 'Parando', 'Durduruluyor') },
];

/** Bit of each alarm in the page-8 alarm registers. */
export const LAYOUT_G_ALARM_BITS: Record<
  AlarmCode,
  { item: 'shutdown_alarms' | 'warning_alarms' | 'trip_alarms'; bit: number }
> = {
  emergency_stop: { item: 'shutdown_alarms', bit: 0 },
  low_oil_pressure_shutdown: { item: 'shutdown_alarms', bit: 1 },
  high_coolant_temp_shutdown: { item: 'shutdown_alarms', bit: 2 },
  over_speed: { item: 'shutdown_alarms', bit: 3 },
  under_speed: { item: 'shutdown_alarms', bit: 4 },
  gen_over_voltage: { item: 'shutdown_alarms', bit: 5 },
  gen_under_voltage: { item: 'shutdown_alarms', bit: 6 },
  gen_over_frequency: { item: 'shutdown_alarms', bit: 7 },
  gen_under_frequency: { item: 'shutdown_alarms', bit: 8 },
  fail_to_start: { item: 'shutdown_alarms', bit: 9 },
  low_fuel_shutdown: { item: 'shutdown_alarms', bit: 10 },
  low_oil_pressure_warning: { item: 'warning_alarms', bit: 0 },
  high_coolant_temp_warning: { item: 'warning_alarms', bit: 1 },
  low_fuel_warning: { item: 'warning_alarms', bit: 2 },
  battery_low: { item: 'warning_alarms', bit: 3 },
  charge_fail: { item: 'warning_alarms', bit: 4 },
  maintenance_due: { item: 'warning_alarms', bit: 5 },
  overload: { item: 'trip_alarms', bit: 0 },
};

/** The system-control key register; its complement (65535 − key) goes in the next register, same write. */
export const LAYOUT_G_CONTROL_REGISTER = gencommRegister(PAGE_CONTROL, 8);
export const LAYOUT_G_CONTROL_KEYS = {
  stop: 35700,
  auto: 35701,
  manual: 35702,
  test: 35703,
  start: 35705,
  fault_reset: 35707,
  gen_breaker: 35708,
  mains_breaker: 35709,
} as const;

const remoteLockRefusal = {
  item: 'remote_lock',
  refuseWhen: { op: 'set' as const },
  reason: REFUSAL_REASONS.remoteLock,
};
const risky = new Set(['start', 'stop', 'test', 'gen_breaker', 'mains_breaker']);

const frequencies = SEED_OPTION_LISTS[0]!;
const switches = SEED_OPTION_LISTS[1]!;
const languages = SEED_OPTION_LISTS[2]!;

/**
 * Configuration parameters in page 40, one after the other; GenComm writes always use fc 16. The last register
 * holds switches at single bits and the panel language at bits 4–5.
 */
function configParams(): ConfigInput[] {
  let offset = 0;
  const next = (param: Omit<ConfigInput, 'address' | 'writeFc'>): ConfigInput => {
    const address = gencommRegister(PAGE_CONFIG, offset);
    offset += param.type === 'u32' || param.type === 's32' || param.type === 'float32' ? 2 : 1;
    return { ...param, address, writeFc: 16 };
  };
  // prettier-ignore
  return [
    next({ key: 'crank_attempts', name: CONFIG_NAMES.crank_attempts, type: 'u16', min: 1, max: 10, menu: 'engine_start' }),
    next({ key: 'crank_time_s', name: CONFIG_NAMES.crank_time_s, type: 'u16', unit: 's', min: 3, max: 60, menu: 'engine_start' }),
    next({ key: 'crank_rest_time_s', name: CONFIG_NAMES.crank_rest_time_s, type: 'u16', unit: 's', min: 3, max: 60, menu: 'engine_start' }),
    next({ key: 'preheat_time_s', name: CONFIG_NAMES.preheat_time_s, type: 'u16', unit: 's', min: 0, max: 300, menu: 'engine_start' }),
    next({ key: 'safety_on_time_s', name: CONFIG_NAMES.safety_on_time_s, type: 'u16', unit: 's', min: 1, max: 60, menu: 'engine_start' }),
    next({ key: 'warm_up_time_s', name: CONFIG_NAMES.warm_up_time_s, type: 'u16', unit: 's', min: 0, max: 3600, menu: 'engine_start' }),
    next({ key: 'cooling_time_s', name: CONFIG_NAMES.cooling_time_s, type: 'u16', unit: 's', min: 0, max: 3600, menu: 'engine_stop' }),
    next({ key: 'mains_fail_delay_s', name: CONFIG_NAMES.mains_fail_delay_s, type: 'u16', unit: 's', min: 0, max: 3600, menu: 'mains' }),
    next({ key: 'mains_return_delay_s', name: CONFIG_NAMES.mains_return_delay_s, type: 'u16', unit: 's', min: 0, max: 3600, menu: 'mains' }),
    next({ key: 'low_fuel_warning_pct', name: CONFIG_NAMES.low_fuel_warning_pct, type: 'u16', unit: '%', min: 0, max: 100, menu: 'protection' }),
    next({ key: 'low_fuel_shutdown_pct', name: CONFIG_NAMES.low_fuel_shutdown_pct, type: 'u16', unit: '%', min: 0, max: 100, menu: 'protection' }),
    next({ key: 'high_coolant_warning_c', name: CONFIG_NAMES.high_coolant_warning_c, type: 's16', unit: '°C', min: 60, max: 150, menu: 'protection' }),
    next({ key: 'high_coolant_shutdown_c', name: CONFIG_NAMES.high_coolant_shutdown_c, type: 's16', unit: '°C', min: 60, max: 150, menu: 'protection' }),
    next({ key: 'low_oil_warning_kpa', name: CONFIG_NAMES.low_oil_warning_kpa, type: 'u16', unit: 'kPa', min: 0, max: 1000, menu: 'protection' }),
    next({ key: 'low_oil_shutdown_kpa', name: CONFIG_NAMES.low_oil_shutdown_kpa, type: 'u16', unit: 'kPa', min: 0, max: 1000, menu: 'protection' }),
    next({ key: 'over_speed_shutdown_rpm', name: CONFIG_NAMES.over_speed_shutdown_rpm, type: 'u16', unit: 'r/min', min: 1000, max: 4500, menu: 'protection' }),
    next({ key: 'battery_low_warning_v', name: CONFIG_NAMES.battery_low_warning_v, type: 'u16', scale: 0.1, decimals: 1, unit: 'V', min: 8, max: 30, menu: 'protection' }),
    next({ key: 'rated_kw', name: CONFIG_NAMES.rated_kw, type: 'u32', scale: 0.1, decimals: 1, unit: 'kW', min: 5, max: 3000, menu: 'generator' }),
    next({ key: 'rated_voltage', name: CONFIG_NAMES.rated_voltage, type: 'u16', scale: 0.1, decimals: 1, unit: 'V', min: 100, max: 400, menu: 'generator' }),
    next({
      key: 'rated_frequency', name: CONFIG_NAMES.rated_frequency, type: 'u16', scale: 0.1, decimals: 1, unit: 'Hz', min: 50, max: 60, menu: 'generator',
      optionList: frequencies.key,
      options: frequencies.options,
    }),
    next({ key: 'maintenance_interval_h', name: CONFIG_NAMES.maintenance_interval_h, type: 'u16', unit: 'h', min: 10, max: 5000, menu: 'maintenance' }),
    ...switchesRegister(gencommRegister(PAGE_CONFIG, offset)),
  ];
}

/** The switches register: several parameters at bits of one register. */
function switchesRegister(address: number): ConfigInput[] {
  const common = { address, type: 'u16' as const, min: 0, menu: 'options', writeFc: 16 as const };
  return [
    {
      ...common,
      key: 'mains_fail_auto_start',
      name: CONFIG_NAMES.mains_fail_auto_start,
      max: 1,
      bits: SEED_SWITCH_BITS.mains_fail_auto_start,
      optionList: switches.key,
      options: switches.options,
    },
    {
      ...common,
      key: 'idle_start',
      name: CONFIG_NAMES.idle_start,
      max: 1,
      bits: SEED_SWITCH_BITS.idle_start,
      optionList: switches.key,
      options: switches.options,
    },
    {
      ...common,
      key: 'panel_language',
      name: CONFIG_NAMES.panel_language,
      max: 3,
      bits: SEED_SWITCH_BITS.panel_language,
      optionList: languages.key,
      options: languages.options,
    },
  ];
}

const config = configParams();
const configEnd = Math.max(...config.map((param) => param.address + (param.type === 'u32' ? 2 : 1)));
const alarmCodes = Object.keys(LAYOUT_G_ALARM_BITS) as AlarmCode[];

const source: ProtocolDocumentInput = {
  key: 'genset-layout-g',
  name: t(
    'Genset controller, layout G (GenComm style)',
    '机组控制器 G 型寄存器表(GenComm 风格)',
    '機組控制器 G 型暫存器表(GenComm 風格)',
    'Контроллер ДГУ, карта регистров G (в стиле GenComm)',
    'Controlador de grupo electrógeno, mapa G (estilo GenComm)',
    'Jeneratör kontrol cihazı, G kayıt haritası (GenComm tarzı)',
  ),
  version: 1,
  layout: 'G',
  items: [
    register('mode', PAGE_STATUS, 4, 'u16', 'status', {
      enum: [
        { value: LAYOUT_G_MODES.stop, label: MODE_LABELS.stop },
        { value: LAYOUT_G_MODES.auto, label: MODE_LABELS.auto },
        { value: LAYOUT_G_MODES.manual, label: MODE_LABELS.manual },
        { value: LAYOUT_G_MODES.test, label: MODE_LABELS.testOnLoad },
        { value: LAYOUT_G_MODES.autoManualRestore, label: MODE_LABELS.autoManualRestore },
        { value: LAYOUT_G_MODES.testOffLoad, label: MODE_LABELS.testOffLoad },
      ],
      realtime: true,
    }),
    flagBit('common_warning', PAGE_STATUS, 6, 11, 'status'),
    flagBit('common_trip', PAGE_STATUS, 6, 12, 'status'),
    flagBit('common_shutdown', PAGE_STATUS, 6, 13, 'status'),
    register('engine_state', PAGE_STATUS, 8, 'u16', 'status', { enum: LAYOUT_G_ENGINE_STATES, realtime: true }),
    flagBit('mains_normal', PAGE_STATUS, 9, 0, 'mains'),
    flagBit('gen_normal', PAGE_STATUS, 9, 1, 'generator'),
    flagBit('mains_on_load', PAGE_STATUS, 9, 2, 'mains'),
    flagBit('gen_on_load', PAGE_STATUS, 9, 3, 'generator'),
    flagBit('remote_lock', PAGE_STATUS, 9, 4, 'status'),
    flagBit('input_emergency_stop', PAGE_STATUS, 9, 5, 'status'),

    register('oil_pressure', PAGE_INSTRUMENTS, 0, 'u16', 'engine', {
      unit: 'kPa',
      noData: NO_DATA_U16,
      realtime: true,
    }),
    register('coolant_temp', PAGE_INSTRUMENTS, 1, 's16', 'engine', { unit: '°C', noData: NO_DATA_S16, realtime: true }),
    register('fuel_level', PAGE_INSTRUMENTS, 3, 'u16', 'engine', { unit: '%', noData: NO_DATA_U16, realtime: true }),
    register('charger_voltage', PAGE_INSTRUMENTS, 4, 'u16', 'battery', {
      scale: 0.1,
      decimals: 1,
      unit: 'V',
      noData: NO_DATA_U16,
    }),
    register('battery_voltage', PAGE_INSTRUMENTS, 5, 'u16', 'battery', {
      scale: 0.1,
      decimals: 1,
      unit: 'V',
      noData: NO_DATA_U16,
      realtime: true,
    }),
    register('engine_rpm', PAGE_INSTRUMENTS, 6, 'u16', 'engine', {
      unit: 'r/min',
      noData: NO_DATA_U16,
      realtime: true,
    }),
    register('gen_freq', PAGE_INSTRUMENTS, 7, 'u16', 'generator', {
      scale: 0.1,
      decimals: 1,
      unit: 'Hz',
      noData: NO_DATA_U16,
      realtime: true,
    }),
    ...(
      [
        'gen_voltage_l1',
        'gen_voltage_l2',
        'gen_voltage_l3',
        'gen_voltage_l12',
        'gen_voltage_l23',
        'gen_voltage_l31',
      ] as const
    ).map((key, index) =>
      register(key, PAGE_INSTRUMENTS, 8 + index * 2, 'u32', 'generator', {
        scale: 0.1,
        decimals: 1,
        unit: 'V',
        noData: NO_DATA_32,
        realtime: index < 3,
      }),
    ),
    ...(['gen_current_l1', 'gen_current_l2', 'gen_current_l3'] as const).map((key, index) =>
      register(key, PAGE_INSTRUMENTS, 20 + index * 2, 'u32', 'generator', {
        scale: 0.1,
        decimals: 1,
        unit: 'A',
        noData: NO_DATA_32,
        realtime: true,
      }),
    ),
    register('mains_freq', PAGE_INSTRUMENTS, 26, 'u16', 'mains', {
      scale: 0.1,
      decimals: 1,
      unit: 'Hz',
      noData: NO_DATA_U16,
      realtime: true,
    }),
    ...(
      [
        'mains_voltage_l1',
        'mains_voltage_l2',
        'mains_voltage_l3',
        'mains_voltage_l12',
        'mains_voltage_l23',
        'mains_voltage_l31',
      ] as const
    ).map((key, index) =>
      register(key, PAGE_INSTRUMENTS, 28 + index * 2, 'u32', 'mains', {
        scale: 0.1,
        decimals: 1,
        unit: 'V',
        noData: NO_DATA_32,
        realtime: index < 3,
      }),
    ),

    // Power in watts, var and VA, as GenComm carries it; shown in k-units.
    register('gen_kw', PAGE_POWER, 0, 's32', 'generator', { scale: 0.001, decimals: 1, unit: 'kW', realtime: true }),
    register('gen_kvar', PAGE_POWER, 2, 's32', 'generator', { scale: 0.001, decimals: 1, unit: 'kvar' }),
    register('gen_kva', PAGE_POWER, 4, 'u32', 'generator', { scale: 0.001, decimals: 1, unit: 'kVA' }),
    register('power_factor', PAGE_POWER, 6, 's16', 'generator', { scale: 0.01, decimals: 2, realtime: true }),

    register('run_hours', PAGE_COUNTERS, 0, 'u32', 'counters', { unit: 'h', realtime: true }),
    register('run_minutes', PAGE_COUNTERS, 2, 'u16', 'counters', { unit: 'min' }),
    register('starts', PAGE_COUNTERS, 4, 'u32', 'counters', { realtime: true }),
    register('kwh_total', PAGE_COUNTERS, 6, 'u32', 'counters', {
      scale: 0.1,
      decimals: 1,
      unit: 'kWh',
      realtime: true,
    }),
    // Time to the next service in seconds, negative once overdue; shown in hours.
    register('maintenance_hours', PAGE_COUNTERS, 8, 's32', 'maintenance', {
      scale: 1 / 3600,
      unit: 'h',
      realtime: true,
    }),

    {
      key: 'shutdown_alarms',
      name: ITEM_NAMES.shutdown_alarms,
      fc: 3,
      address: gencommRegister(PAGE_ALARMS, 0),
      type: 'u16',
      group: 'status',
    },
    {
      key: 'warning_alarms',
      name: ITEM_NAMES.warning_alarms,
      fc: 3,
      address: gencommRegister(PAGE_ALARMS, 1),
      type: 'u16',
      group: 'status',
    },
    {
      key: 'trip_alarms',
      name: ITEM_NAMES.trip_alarms,
      fc: 3,
      address: gencommRegister(PAGE_ALARMS, 2),
      type: 'u16',
      group: 'status',
    },

    // The bus of a parallel group, as a paralleling controller measures it; "unimplemented" on a set without one.
    register('bus_voltage', PAGE_BUS, 0, 'u32', 'generator', {
      scale: 0.1,
      decimals: 1,
      unit: 'V',
      noData: NO_DATA_32,
    }),
    register('bus_freq', PAGE_BUS, 2, 'u16', 'generator', { scale: 0.1, decimals: 1, unit: 'Hz', noData: NO_DATA_U16 }),
    register('load_share', PAGE_BUS, 3, 'u16', 'generator', {
      scale: 0.1,
      decimals: 1,
      unit: '%',
      noData: NO_DATA_U16,
    }),
    register('bus_kw', PAGE_BUS, 4, 's32', 'generator', {
      scale: 0.001,
      decimals: 1,
      unit: 'kW',
      noData: [2147483647],
    }),
    register('bus_kva', PAGE_BUS, 6, 'u32', 'generator', {
      scale: 0.001,
      decimals: 1,
      unit: 'kVA',
      noData: NO_DATA_32,
    }),
    flagBit('bus_live', PAGE_BUS, 8, 0, 'generator'),
    flagBit('synchronising', PAGE_BUS, 8, 1, 'generator'),

    register('latitude', PAGE_LOCATION, 0, 's32', 'location', {
      scale: 1e-6,
      decimals: 6,
      unit: '°',
      noData: [2147483647],
    }),
    register('longitude', PAGE_LOCATION, 2, 's32', 'location', {
      scale: 1e-6,
      decimals: 6,
      unit: '°',
      noData: [2147483647],
    }),
  ],
  alarms: alarmCodes.map((code) => ({
    code,
    item: LAYOUT_G_ALARM_BITS[code].item,
    condition: { op: 'bit' as const, bit: LAYOUT_G_ALARM_BITS[code].bit },
    level: ALARM_LEVELS[code],
    title: ALARM_TITLES[code],
  })),
  commands: (Object.keys(LAYOUT_G_CONTROL_KEYS) as (keyof typeof LAYOUT_G_CONTROL_KEYS)[]).map((key) => ({
    key,
    title: COMMAND_TITLES[key],
    writes: [{ fc: 16 as const, address: LAYOUT_G_CONTROL_REGISTER, key: LAYOUT_G_CONTROL_KEYS[key] }],
    risky: risky.has(key),
    preconditions: [
      remoteLockRefusal,
      ...(key === 'start'
        ? [
            {
              item: 'mode',
              refuseWhen: {
                op: 'notIn' as const,
                values: [LAYOUT_G_MODES.manual, LAYOUT_G_MODES.test, LAYOUT_G_MODES.testOffLoad],
              },
              reason: REFUSAL_REASONS.needsManualOrTest,
            },
          ]
        : []),
      ...(key === 'gen_breaker' || key === 'mains_breaker'
        ? [
            {
              item: 'mode',
              refuseWhen: { op: 'notIn' as const, values: [LAYOUT_G_MODES.manual] },
              reason: REFUSAL_REASONS.needsManual,
            },
          ]
        : []),
    ],
  })),
  moduleItems: SEED_MODULE_ITEMS,
  configParams: config,
  configMenus: SEED_CONFIG_MENUS,
  optionLists: SEED_OPTION_LISTS,
  configReadBlocks: [
    { fc: 3, start: gencommRegister(PAGE_CONFIG, 0), count: configEnd - gencommRegister(PAGE_CONFIG, 0) },
  ],
  statusRules: {
    modeItem: 'mode',
    modes: {
      stop: [LAYOUT_G_MODES.stop],
      manual: [LAYOUT_G_MODES.manual],
      auto: [LAYOUT_G_MODES.auto, LAYOUT_G_MODES.autoManualRestore],
      test: [LAYOUT_G_MODES.test, LAYOUT_G_MODES.testOffLoad],
    },
    engineStateItem: 'engine_state',
    engineStates: { starting: [1, 2, 3], running: [4], cooling: [5], stopping: [6] },
    onLoadItem: 'gen_on_load',
    alarmFlags: { warning: 'common_warning', shutdown: 'common_shutdown', trip: 'common_trip' },
  },
};

export const layoutG = parseProtocolDocument(source);
