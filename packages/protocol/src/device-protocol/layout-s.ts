// Seed register map "layout S", in the style of the publicly described SmartGen HGM61xx maps: measurements in
// holding registers from 0, status and alarm coils, 32-bit counters low word first, commands as single-coil writes.
import type { DataItem, ProtocolDocumentInput } from './schema.ts';
import { protocolText as t, type ProtocolText } from './text.ts';
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
type ItemKey = keyof typeof ITEM_NAMES;

function register(
  key: ItemKey,
  address: number,
  type: DataItem['type'],
  group: DataItem['group'],
  extra: Partial<ItemInput> = {},
): ItemInput {
  return { key, name: ITEM_NAMES[key], fc: 3, address, type, group, ...extra };
}

function coil(key: string, name: ProtocolText, address: number, group: DataItem['group'] = 'status'): ItemInput {
  return { key, name, fc: 1, address, type: 'bit', group };
}

/** Mode register values of this layout. */
export const LAYOUT_S_MODES = { auto: 0, manual: 1, stop: 2, test: 3 } as const;

/** Genset state register (0–15), as the controller's front panel names it. */
// prettier-ignore
export const LAYOUT_S_ENGINE_STATES = [
  { value: 0, label: t('Standby', '待机', '待機', 'Ожидание', 'En espera', 'Beklemede') },
  { value: 1, label: t('Start delay', '开机延时', '開機延時', 'Задержка пуска', 'Retardo de arranque', 'Çalıştırma gecikmesi') },
  { value: 2, label: t('Preheat', '预热', '預熱', 'Предпусковой подогрев', 'Precalentamiento', 'Ön ısıtma') },
  { value: 3, label: t('Cranking', '启动马达运转', '啟動馬達運轉', 'Прокрутка стартером', 'Arranque en curso', 'Marş basılıyor') },
  { value: 4, label: t('Crank rest', '启动间隔', '啟動間隔', 'Пауза между пусками', 'Pausa entre arranques', 'Marş arası bekleme') },
  { value: 5, label: t('Safety on delay', '安全运行延时', '安全運轉延時', 'Задержка включения защит', 'Retardo de protecciones', 'Koruma gecikmesi') },
  { value: 6, label: t('Start idle', '怠速运行', '怠速運轉', 'Холостой ход после пуска', 'Ralentí de arranque', 'Çalıştırma rölantisi') },
  { value: 7, label: t('Warming up', '暖机', '暖機', 'Прогрев', 'Calentamiento', 'Isınma') },
  { value: 8, label: t('Normal running', '正常运行', '正常運轉', 'Работа без нагрузки', 'Funcionamiento normal', 'Normal çalışma') },
  { value: 9, label: t('On load', '带载运行', '帶載運轉', 'Работа под нагрузкой', 'En carga', 'Yükte çalışma') },
  { value: 10, label: t('Cooling', '散热', '散熱', 'Охлаждение', 'Enfriamiento', 'Soğuma') },
  { value: 11, label: t('Stop idle', '停机怠速', '停機怠速', 'Холостой ход перед остановом', 'Ralentí de parada', 'Durdurma rölantisi') },
  { value: 12, label: t('Stopping', '得电停机', '得電停機', 'Останов', 'Parando', 'Durduruluyor') },
  { value: 13, label: t('Wait for stop', '等待停稳', '等待停穩', 'Ожидание остановки', 'Esperando parada', 'Durma bekleniyor') },
  { value: 14, label: t('Fail to stop', '停机失败', '停機失敗', 'Не удалось остановить', 'Fallo de parada', 'Durdurma başarısız') },
  { value: 15, label: t('Alarm shutdown', '报警停机', '警報停機', 'Аварийный останов', 'Parada por alarma', 'Alarm nedeniyle durdu') },
];

/** Coil of each alarm; shutdowns from 16, warnings from 32, electrical trips from 48. */
export const LAYOUT_S_ALARM_COILS: Record<AlarmCode, number> = {
  emergency_stop: 16,
  over_speed: 17,
  under_speed: 18,
  high_coolant_temp_shutdown: 19,
  low_oil_pressure_shutdown: 20,
  gen_over_voltage: 21,
  gen_under_voltage: 22,
  gen_over_frequency: 23,
  gen_under_frequency: 24,
  fail_to_start: 25,
  low_fuel_shutdown: 26,
  high_coolant_temp_warning: 32,
  low_oil_pressure_warning: 33,
  low_fuel_warning: 34,
  battery_low: 35,
  charge_fail: 36,
  maintenance_due: 37,
  overload: 48,
};

const alarmCodes = Object.keys(LAYOUT_S_ALARM_COILS) as AlarmCode[];

/** Command coils: writing 1 (0xFF00) presses the button. */
export const LAYOUT_S_COMMAND_COILS = {
  start: 256,
  stop: 257,
  test: 258,
  auto: 259,
  manual: 260,
  gen_breaker: 261,
  mains_breaker: 262,
  fault_reset: 263,
} as const;

const CONFIG_BASE = 4096;
const remoteLockRefusal = {
  item: 'remote_lock',
  refuseWhen: { op: 'set' as const },
  reason: REFUSAL_REASONS.remoteLock,
};
const risky = new Set(['start', 'stop', 'test', 'gen_breaker', 'mains_breaker']);

type ConfigInput = NonNullable<ProtocolDocumentInput['configParams']>[number];
type ConfigKey = keyof typeof CONFIG_NAMES;

const frequencies = SEED_OPTION_LISTS[0]!;
const switches = SEED_OPTION_LISTS[1]!;
const languages = SEED_OPTION_LISTS[2]!;

/**
 * Configuration parameters: one holding register each from 4096, written with fc 6; register 4117 holds
 * switches at single bits and the panel language at bits 4–5.
 */
function configParams(): ConfigInput[] {
  const setting = (
    key: ConfigKey,
    offset: number,
    unit: string,
    min: number,
    max: number,
    menu: string,
    extra: Partial<ConfigInput> = {},
  ): ConfigInput => ({
    key,
    name: CONFIG_NAMES[key],
    address: CONFIG_BASE + offset,
    type: 'u16',
    unit,
    min,
    max,
    menu,
    ...extra,
  });
  // prettier-ignore
  return [
    setting('crank_attempts', 0, '', 1, 10, 'engine_start'),
    setting('crank_time_s', 1, 's', 3, 60, 'engine_start'),
    setting('crank_rest_time_s', 2, 's', 3, 60, 'engine_start'),
    setting('preheat_time_s', 3, 's', 0, 300, 'engine_start'),
    setting('safety_on_time_s', 4, 's', 1, 60, 'engine_start'),
    setting('warm_up_time_s', 5, 's', 0, 3600, 'engine_start'),
    setting('cooling_time_s', 6, 's', 0, 3600, 'engine_stop'),
    setting('mains_fail_delay_s', 7, 's', 0, 3600, 'mains'),
    setting('mains_return_delay_s', 8, 's', 0, 3600, 'mains'),
    setting('low_fuel_warning_pct', 9, '%', 0, 100, 'protection'),
    setting('low_fuel_shutdown_pct', 10, '%', 0, 100, 'protection'),
    setting('high_coolant_warning_c', 11, '°C', 60, 150, 'protection', { type: 's16' }),
    setting('high_coolant_shutdown_c', 12, '°C', 60, 150, 'protection', { type: 's16' }),
    setting('low_oil_warning_kpa', 13, 'kPa', 0, 1000, 'protection'),
    setting('low_oil_shutdown_kpa', 14, 'kPa', 0, 1000, 'protection'),
    setting('over_speed_shutdown_rpm', 15, 'r/min', 1000, 4500, 'protection'),
    setting('battery_low_warning_v', 16, 'V', 8, 30, 'protection', { scale: 0.1, decimals: 1 }),
    setting('rated_kw', 17, 'kW', 5, 3000, 'generator'),
    setting('rated_voltage', 18, 'V', 100, 400, 'generator'),
    setting('rated_frequency', 19, 'Hz', 50, 60, 'generator', {
      optionList: frequencies.key,
      options: frequencies.options,
    }),
    setting('maintenance_interval_h', 20, 'h', 10, 5000, 'maintenance'),
    setting('mains_fail_auto_start', 21, '', 0, 1, 'options', {
      bits: SEED_SWITCH_BITS.mains_fail_auto_start, optionList: switches.key, options: switches.options,
    }),
    setting('idle_start', 21, '', 0, 1, 'options', {
      bits: SEED_SWITCH_BITS.idle_start, optionList: switches.key, options: switches.options,
    }),
    setting('panel_language', 21, '', 0, 3, 'options', {
      bits: SEED_SWITCH_BITS.panel_language, optionList: languages.key, options: languages.options,
    }),
  ];
}

const source: ProtocolDocumentInput = {
  key: 'genset-layout-s',
  name: t(
    'Genset controller, layout S (HGM61xx style)',
    '机组控制器 S 型寄存器表(HGM61xx 风格)',
    '機組控制器 S 型暫存器表(HGM61xx 風格)',
    'Контроллер ДГУ, карта регистров S (в стиле HGM61xx)',
    'Controlador de grupo electrógeno, mapa S (estilo HGM61xx)',
    'Jeneratör kontrol cihazı, S kayıt haritası (HGM61xx tarzı)',
  ),
  version: 1,
  layout: 'S',
  items: [
    register('mains_voltage_l1', 0, 'u16', 'mains', { unit: 'V', realtime: true }),
    register('mains_voltage_l2', 1, 'u16', 'mains', { unit: 'V', realtime: true }),
    register('mains_voltage_l3', 2, 'u16', 'mains', { unit: 'V', realtime: true }),
    register('mains_voltage_l12', 3, 'u16', 'mains', { unit: 'V' }),
    register('mains_voltage_l23', 4, 'u16', 'mains', { unit: 'V' }),
    register('mains_voltage_l31', 5, 'u16', 'mains', { unit: 'V' }),
    register('mains_freq', 6, 'u16', 'mains', { scale: 0.01, decimals: 2, unit: 'Hz', realtime: true }),
    register('gen_voltage_l1', 7, 'u16', 'generator', { unit: 'V', realtime: true }),
    register('gen_voltage_l2', 8, 'u16', 'generator', { unit: 'V', realtime: true }),
    register('gen_voltage_l3', 9, 'u16', 'generator', { unit: 'V', realtime: true }),
    register('gen_voltage_l12', 10, 'u16', 'generator', { unit: 'V' }),
    register('gen_voltage_l23', 11, 'u16', 'generator', { unit: 'V' }),
    register('gen_voltage_l31', 12, 'u16', 'generator', { unit: 'V' }),
    register('gen_freq', 13, 'u16', 'generator', { scale: 0.01, decimals: 2, unit: 'Hz', realtime: true }),
    register('gen_current_l1', 14, 'u16', 'generator', { scale: 0.1, decimals: 1, unit: 'A', realtime: true }),
    register('gen_current_l2', 15, 'u16', 'generator', { scale: 0.1, decimals: 1, unit: 'A', realtime: true }),
    register('gen_current_l3', 16, 'u16', 'generator', { scale: 0.1, decimals: 1, unit: 'A', realtime: true }),
    // 32767 / 65535 is what the controller shows as "---" when a sender is open circuit.
    register('coolant_temp', 17, 's16', 'engine', { unit: '°C', noData: [32767], realtime: true }),
    register('oil_pressure', 18, 'u16', 'engine', { unit: 'kPa', noData: [65535], realtime: true }),
    register('fuel_level', 19, 'u16', 'engine', { unit: '%', noData: [65535], realtime: true }),
    register('engine_rpm', 20, 'u16', 'engine', { unit: 'r/min', realtime: true }),
    register('battery_voltage', 21, 'u16', 'battery', { scale: 0.1, decimals: 1, unit: 'V', realtime: true }),
    register('charger_voltage', 22, 'u16', 'battery', { scale: 0.1, decimals: 1, unit: 'V' }),
    register('gen_kw', 23, 's16', 'generator', { scale: 0.1, decimals: 1, unit: 'kW', realtime: true }),
    register('gen_kvar', 24, 's16', 'generator', { scale: 0.1, decimals: 1, unit: 'kvar' }),
    register('gen_kva', 25, 'u16', 'generator', { scale: 0.1, decimals: 1, unit: 'kVA' }),
    register('power_factor', 26, 's16', 'generator', { scale: 0.01, decimals: 2, realtime: true }),
    // Signed: an overdue service counts below zero.
    register('maintenance_hours', 27, 's16', 'maintenance', { unit: 'h', realtime: true }),
    register('engine_state', 28, 'u16', 'status', { enum: LAYOUT_S_ENGINE_STATES, realtime: true }),
    register('mode', 29, 'u16', 'status', {
      enum: [
        { value: LAYOUT_S_MODES.auto, label: MODE_LABELS.auto },
        { value: LAYOUT_S_MODES.manual, label: MODE_LABELS.manual },
        { value: LAYOUT_S_MODES.stop, label: MODE_LABELS.stop },
        { value: LAYOUT_S_MODES.test, label: MODE_LABELS.test },
      ],
      realtime: true,
    }),
    register('run_hours', 32, 'u32', 'counters', { wordOrder: 'lo-hi', unit: 'h', realtime: true }),
    register('run_minutes', 34, 'u16', 'counters', { unit: 'min' }),
    register('starts', 35, 'u32', 'counters', { wordOrder: 'lo-hi', realtime: true }),
    register('kwh_total', 37, 'u32', 'counters', { wordOrder: 'lo-hi', unit: 'kWh', realtime: true }),
    // The bus of a parallel group, as a paralleling controller measures it; "---" on a set without one.
    register('bus_voltage', 40, 'u16', 'generator', { unit: 'V', noData: [65535] }),
    register('bus_freq', 41, 'u16', 'generator', { scale: 0.01, decimals: 2, unit: 'Hz', noData: [65535] }),
    register('bus_kw', 42, 'u32', 'generator', {
      wordOrder: 'lo-hi',
      scale: 0.1,
      decimals: 1,
      unit: 'kW',
      noData: [4294967295],
    }),
    register('bus_kva', 44, 'u32', 'generator', {
      wordOrder: 'lo-hi',
      scale: 0.1,
      decimals: 1,
      unit: 'kVA',
      noData: [4294967295],
    }),
    register('load_share', 46, 'u16', 'generator', { scale: 0.1, decimals: 1, unit: '%', noData: [65535] }),
    // 0x7FFFFFFF: no GPS fix yet.
    register('latitude', 48, 's32', 'location', {
      wordOrder: 'lo-hi',
      scale: 1e-6,
      decimals: 6,
      unit: '°',
      noData: [2147483647],
    }),
    register('longitude', 50, 's32', 'location', {
      wordOrder: 'lo-hi',
      scale: 1e-6,
      decimals: 6,
      unit: '°',
      noData: [2147483647],
    }),

    coil('common_alarm', ITEM_NAMES.common_alarm, 0),
    coil('common_warning', ITEM_NAMES.common_warning, 1),
    coil('common_shutdown', ITEM_NAMES.common_shutdown, 2),
    coil('common_trip', ITEM_NAMES.common_trip, 3),
    coil('remote_lock', ITEM_NAMES.remote_lock, 4),
    coil('mains_normal', ITEM_NAMES.mains_normal, 5, 'mains'),
    coil('gen_normal', ITEM_NAMES.gen_normal, 6, 'generator'),
    coil('mains_on_load', ITEM_NAMES.mains_on_load, 7, 'mains'),
    coil('gen_on_load', ITEM_NAMES.gen_on_load, 8, 'generator'),
    coil('mode_auto', ITEM_NAMES.mode_auto, 9),
    coil('mode_manual', ITEM_NAMES.mode_manual, 10),
    coil('mode_stop', ITEM_NAMES.mode_stop, 11),
    coil('mode_test', ITEM_NAMES.mode_test, 12),
    coil('bus_live', ITEM_NAMES.bus_live, 13, 'generator'),
    coil('synchronising', ITEM_NAMES.synchronising, 14, 'generator'),
    ...alarmCodes.map((code) => coil(`alarm_${code}`, ALARM_TITLES[code], LAYOUT_S_ALARM_COILS[code])),

    {
      key: 'input_emergency_stop',
      name: ITEM_NAMES.input_emergency_stop,
      fc: 2,
      address: 0,
      type: 'bit',
      group: 'status',
    },
    { key: 'input_remote_lock', name: ITEM_NAMES.input_remote_lock, fc: 2, address: 1, type: 'bit', group: 'status' },
  ],
  alarms: alarmCodes.map((code) => ({
    code,
    item: `alarm_${code}`,
    condition: { op: 'set' as const },
    level: ALARM_LEVELS[code],
    title: ALARM_TITLES[code],
  })),
  commands: (Object.keys(LAYOUT_S_COMMAND_COILS) as (keyof typeof LAYOUT_S_COMMAND_COILS)[]).map((key) => ({
    key,
    title: COMMAND_TITLES[key],
    writes: [{ fc: 5 as const, address: LAYOUT_S_COMMAND_COILS[key], value: 1 as const }],
    risky: risky.has(key),
    preconditions: [
      remoteLockRefusal,
      ...(key === 'start'
        ? [
            {
              item: 'mode',
              refuseWhen: { op: 'notIn' as const, values: [LAYOUT_S_MODES.manual, LAYOUT_S_MODES.test] },
              reason: REFUSAL_REASONS.needsManualOrTest,
            },
          ]
        : []),
      ...(key === 'gen_breaker' || key === 'mains_breaker'
        ? [
            {
              item: 'mode',
              refuseWhen: { op: 'notIn' as const, values: [LAYOUT_S_MODES.manual] },
              reason: REFUSAL_REASONS.needsManual,
            },
          ]
        : []),
    ],
  })),
  moduleItems: SEED_MODULE_ITEMS,
  configParams: configParams(),
  configMenus: SEED_CONFIG_MENUS,
  optionLists: SEED_OPTION_LISTS,
  configReadBlocks: [{ fc: 3, start: CONFIG_BASE, count: 22 }],
  statusRules: {
    modeItem: 'mode',
    modes: {
      stop: [LAYOUT_S_MODES.stop],
      manual: [LAYOUT_S_MODES.manual],
      auto: [LAYOUT_S_MODES.auto],
      test: [LAYOUT_S_MODES.test],
    },
    engineStateItem: 'engine_state',
    engineStates: { starting: [1, 2, 3, 4, 5, 6, 7], running: [8, 9], cooling: [10], stopping: [11, 12, 13, 14] },
    onLoadItem: 'gen_on_load',
    alarmFlags: { common: 'common_alarm', warning: 'common_warning', shutdown: 'common_shutdown', trip: 'common_trip' },
  },
};

export const layoutS = parseProtocolDocument(source);
