// Seed register maps "layout E": the devices of an energy-storage station behind one Modbus TCP gateway — the
// power conversion system (PCS), the battery management system (BMS), the grid meter at the point of connection
// and a PV inverter. Measurements are 16- and 32-bit integers (high word first); the values the station's
// module writes every cycle (PCS setpoint, PV output limit) are holding registers carrying their EMS role.
// Signs follow ems/roles.ts: battery power > 0 discharges, grid power > 0 imports.
import type { DataItem, ProtocolDocument, ProtocolDocumentInput } from './schema.ts';
import { protocolText as t, type ProtocolText } from './text.ts';
import { parseProtocolDocument } from './validate.ts';
import { SEED_MODULE_ITEMS } from './vocabulary.ts';

type ItemInput = ProtocolDocumentInput['items'][number];
type AlarmInput = NonNullable<ProtocolDocumentInput['alarms']>[number];
type CommandInput = NonNullable<ProtocolDocumentInput['commands']>[number];

/** An input register (fc 4) or, with `fc: 3` in extra, a holding register. */
function input(
  key: string,
  name: ProtocolText,
  address: number,
  type: DataItem['type'],
  group: DataItem['group'],
  extra: Partial<ItemInput> = {},
): ItemInput {
  return { key, name, fc: 4, address, type, group, ...extra };
}

const kw32 = { scale: 0.1, decimals: 1, unit: 'kW' } as const;
const kwh32 = { scale: 0.1, decimals: 1, unit: 'kWh' } as const;

// One line per term keeps the six translations side by side for review.
// prettier-ignore
const WORDS = {
  operatingState: t('Operating state', '运行状态', '運轉狀態', 'Рабочее состояние', 'Estado de funcionamiento', 'Çalışma durumu'),
  stopped: t('Stopped', '停机', '停機', 'Остановлен', 'Parado', 'Durdu'),
  standby: t('Standby', '待机', '待機', 'Ожидание', 'En espera', 'Beklemede'),
  charging: t('Charging', '充电', '充電', 'Заряд', 'Cargando', 'Şarj ediliyor'),
  discharging: t('Discharging', '放电', '放電', 'Разряд', 'Descargando', 'Deşarj ediliyor'),
  fault: t('Fault', '故障', '故障', 'Авария', 'Fallo', 'Arıza'),
  faultFlag: t('Fault flag (0: none)', '故障标志(0:无)', '故障旗標(0:無)', 'Признак аварии (0: нет)', 'Indicador de fallo (0: ninguno)', 'Arıza bayrağı (0: yok)'),
  alarmWord: t('Alarm word', '告警字', '告警字', 'Слово аварий', 'Palabra de alarmas', 'Alarm sözcüğü'),
  ratedPower: t('Rated power', '额定功率', '額定功率', 'Номинальная мощность', 'Potencia nominal', 'Nominal güç'),
  reactivePower: t('Reactive power', '无功功率', '無功功率', 'Реактивная мощность', 'Potencia reactiva', 'Reaktif güç'),
  powerFactor: t('Power factor', '功率因数', '功率因數', 'Коэффициент мощности', 'Factor de potencia', 'Güç faktörü'),
  frequency: t('Frequency', '频率', '頻率', 'Частота', 'Frecuencia', 'Frekans'),
};

// ---- PCS --------------------------------------------------------------------------------------------------

/** PCS operating state register values. */
export const LAYOUT_E_PCS_STATES = { stop: 0, standby: 1, charging: 2, discharging: 3, fault: 4 } as const;
/** PCS fault code register values. */
export const LAYOUT_E_PCS_FAULT_CODES = { none: 0, internal: 1, overTemperature: 2, gridAbnormal: 3 } as const;
/** Bits of the PCS alarm word. */
export const LAYOUT_E_PCS_ALARM_BITS = {
  internal: 0,
  overTemperature: 1,
  gridAbnormal: 2,
  watchdogExpired: 3,
} as const;
/** PCS control mode register values: in local control the PCS takes no setpoint or command over Modbus. */
export const LAYOUT_E_PCS_CONTROL_MODES = { remote: 0, local: 1 } as const;
/** The PCS's holding registers: the setpoint (s32, two registers), the command register and the mode register. */
export const LAYOUT_E_PCS_REGISTERS = { setpoint: 100, command: 110, controlMode: 111, config: 200 } as const;
/** Values written to the command register. */
export const LAYOUT_E_PCS_COMMANDS = { start: 1, stop: 2, fault_reset: 3 } as const;

// prettier-ignore
const PCS_STATE_LABELS = [
  { value: LAYOUT_E_PCS_STATES.stop, label: WORDS.stopped },
  { value: LAYOUT_E_PCS_STATES.standby, label: WORDS.standby },
  { value: LAYOUT_E_PCS_STATES.charging, label: WORDS.charging },
  { value: LAYOUT_E_PCS_STATES.discharging, label: WORDS.discharging },
  { value: LAYOUT_E_PCS_STATES.fault, label: WORDS.fault },
];

// prettier-ignore
const PCS_FAULT_CODE_LABELS = [
  { value: LAYOUT_E_PCS_FAULT_CODES.none, label: t('No fault', '无故障', '無故障', 'Нет аварии', 'Sin fallo', 'Arıza yok') },
  { value: LAYOUT_E_PCS_FAULT_CODES.internal, label: t('Internal fault', '内部故障', '內部故障', 'Внутренняя неисправность', 'Fallo interno', 'Dahili arıza') },
  { value: LAYOUT_E_PCS_FAULT_CODES.overTemperature, label: t('Over-temperature', '过温', '過溫', 'Перегрев', 'Sobretemperatura', 'Aşırı sıcaklık') },
  { value: LAYOUT_E_PCS_FAULT_CODES.gridAbnormal, label: t('Grid abnormal', '电网异常', '電網異常', 'Нарушение параметров сети', 'Anomalía de red', 'Şebeke anormalliği') },
];

// prettier-ignore
const PCS_CONTROL_MODE_LABELS = [
  { value: LAYOUT_E_PCS_CONTROL_MODES.remote, label: t('Remote control', '远程控制', '遠端控制', 'Дистанционное управление', 'Control remoto', 'Uzaktan kontrol') },
  { value: LAYOUT_E_PCS_CONTROL_MODES.local, label: t('Local control', '本地控制', '本機控制', 'Местное управление', 'Control local', 'Yerel kontrol') },
];

// prettier-ignore
const PCS_NAMES = {
  active_power: t('Active power (discharge +)', '有功功率(放电为正)', '有功功率(放電為正)', 'Активная мощность (разряд +)', 'Potencia activa (descarga +)', 'Aktif güç (deşarj +)'),
  dc_voltage: t('DC voltage', '直流电压', '直流電壓', 'Напряжение постоянного тока', 'Tensión de CC', 'DC gerilimi'),
  dc_current: t('DC current (discharge +)', '直流电流(放电为正)', '直流電流(放電為正)', 'Постоянный ток (разряд +)', 'Corriente de CC (descarga +)', 'DC akımı (deşarj +)'),
  ac_voltage_ab: t('AC voltage L1-L2', '交流线电压 AB', '交流線電壓 AB', 'Линейное напряжение L1-L2', 'Tensión de CA L1-L2', 'AC gerilimi L1-L2'),
  ac_voltage_bc: t('AC voltage L2-L3', '交流线电压 BC', '交流線電壓 BC', 'Линейное напряжение L2-L3', 'Tensión de CA L2-L3', 'AC gerilimi L2-L3'),
  ac_voltage_ca: t('AC voltage L3-L1', '交流线电压 CA', '交流線電壓 CA', 'Линейное напряжение L3-L1', 'Tensión de CA L3-L1', 'AC gerilimi L3-L1'),
  ac_current_a: t('AC current L1', '交流电流 A 相', '交流電流 A 相', 'Переменный ток L1', 'Corriente de CA L1', 'AC akımı L1'),
  ac_current_b: t('AC current L2', '交流电流 B 相', '交流電流 B 相', 'Переменный ток L2', 'Corriente de CA L2', 'AC akımı L2'),
  ac_current_c: t('AC current L3', '交流电流 C 相', '交流電流 C 相', 'Переменный ток L3', 'Corriente de CA L3', 'AC akımı L3'),
  ac_frequency: t('Grid frequency', '电网频率', '電網頻率', 'Частота сети', 'Frecuencia de red', 'Şebeke frekansı'),
  module_temp: t('Power module temperature', '功率模块温度', '功率模組溫度', 'Температура силового модуля', 'Temperatura del módulo de potencia', 'Güç modülü sıcaklığı'),
  fault_code: t('Fault code', '故障代码', '故障代碼', 'Код аварии', 'Código de fallo', 'Arıza kodu'),
  charge_energy: t('Total charged energy', '累计充电量', '累計充電量', 'Всего заряжено', 'Energía cargada total', 'Toplam şarj enerjisi'),
  discharge_energy: t('Total discharged energy', '累计放电量', '累計放電量', 'Всего разряжено', 'Energía descargada total', 'Toplam deşarj enerjisi'),
  power_setpoint: t('Active power setpoint (discharge +)', '有功功率设定(放电为正)', '有功功率設定(放電為正)', 'Уставка активной мощности (разряд +)', 'Consigna de potencia activa (descarga +)', 'Aktif güç ayar değeri (deşarj +)'),
  control_mode: t('Control mode', '控制模式', '控制模式', 'Режим управления', 'Modo de control', 'Kontrol modu'),
  // configuration
  ramp_rate: t('Power ramp rate', '功率爬坡速率', '功率爬升速率', 'Скорость изменения мощности', 'Rampa de potencia', 'Güç rampa hızı'),
  watchdog_time: t('Communication watchdog (0: off)', '通信看门狗时间(0:关闭)', '通訊看門狗時間(0:關閉)', 'Сторожевой таймер связи (0: выкл.)', 'Vigilancia de comunicación (0: desactivada)', 'İletişim bekçi süresi (0: kapalı)'),
  max_charge_power: t('Maximum charge power', '最大充电功率', '最大充電功率', 'Максимальная мощность заряда', 'Potencia máxima de carga', 'Azami şarj gücü'),
  max_discharge_power: t('Maximum discharge power', '最大放电功率', '最大放電功率', 'Максимальная мощность разряда', 'Potencia máxima de descarga', 'Azami deşarj gücü'),
};

// prettier-ignore
const PCS_ALARM_TITLES = {
  pcs_fault: t('PCS fault (stopped)', '变流器故障(已停机)', '變流器故障(已停機)', 'Авария PCS (остановлен)', 'Fallo del PCS (detenido)', 'PCS arızası (durdu)'),
  over_temperature: t('PCS over-temperature', '变流器过温', '變流器過溫', 'Перегрев PCS', 'Sobretemperatura del PCS', 'PCS aşırı sıcaklık'),
  grid_abnormal: t('Grid abnormal (PCS disconnected)', '电网异常(变流器脱网)', '電網異常(變流器脫網)', 'Нарушение параметров сети (PCS отключён)', 'Anomalía de red (PCS desconectado)', 'Şebeke anormalliği (PCS ayrıldı)'),
  watchdog_expired: t('Communication watchdog expired (setpoint reset to 0)', '通信看门狗超时(功率设定归零)', '通訊看門狗逾時(功率設定歸零)', 'Сработал сторожевой таймер связи (уставка сброшена в 0)', 'Vigilancia de comunicación vencida (consigna a 0)', 'İletişim bekçi süresi doldu (ayar değeri sıfırlandı)'),
};

// prettier-ignore
const PCS_COMMAND_TITLES = {
  start: t('Start (grid-connected)', '开机(并网)', '開機(併網)', 'Пуск (с подключением к сети)', 'Arrancar (conectado a red)', 'Başlat (şebekeye bağlı)'),
  stop: t('Stop', '停机', '停機', 'Останов', 'Parar', 'Durdur'),
  fault_reset: t('Fault reset', '故障复位', '故障復位', 'Сброс аварии', 'Restablecer fallo', 'Arıza sıfırlama'),
  mode_remote: t('Switch to remote control', '切换为远程控制', '切換為遠端控制', 'Перейти на дистанционное управление', 'Pasar a control remoto', 'Uzaktan kontrole geç'),
  mode_local: t('Switch to local control', '切换为本地控制', '切換為本機控制', 'Перейти на местное управление', 'Pasar a control local', 'Yerel kontrole geç'),
};

// prettier-ignore
const PCS_REFUSALS = {
  local: t('The PCS is under local control', '变流器处于本地控制', '變流器處於本機控制', 'PCS в режиме местного управления', 'El PCS está en control local', 'PCS yerel kontrolde'),
  faulted: t('Reset the fault first', '请先复位故障', '請先復位故障', 'Сначала сбросьте аварию', 'Primero restablezca el fallo', 'Önce arızayı sıfırlayın'),
};

// prettier-ignore
const PCS_MENUS = {
  power_control: t('Power control', '功率控制', '功率控制', 'Управление мощностью', 'Control de potencia', 'Güç kontrolü'),
  communication: t('Communication', '通信', '通訊', 'Связь', 'Comunicación', 'İletişim'),
};

const localRefusal = {
  item: 'control_mode',
  refuseWhen: { op: 'equals' as const, value: LAYOUT_E_PCS_CONTROL_MODES.local },
  reason: PCS_REFUSALS.local,
};

function pcsCommand(key: keyof typeof LAYOUT_E_PCS_COMMANDS): CommandInput {
  return {
    key,
    title: PCS_COMMAND_TITLES[key],
    writes: [{ fc: 6, address: LAYOUT_E_PCS_REGISTERS.command, value: LAYOUT_E_PCS_COMMANDS[key] }],
    risky: key !== 'fault_reset',
    preconditions: [
      localRefusal,
      ...(key === 'start'
        ? [{ item: 'pcs_fault', refuseWhen: { op: 'set' as const }, reason: PCS_REFUSALS.faulted }]
        : []),
    ],
  };
}

const pcsSource: ProtocolDocumentInput = {
  key: 'layout-e-pcs',
  name: t(
    'Power conversion system (PCS), layout E',
    '储能变流器(PCS)E 型寄存器表',
    '儲能變流器(PCS)E 型暫存器表',
    'Преобразователь накопителя (PCS), карта регистров E',
    'Sistema de conversión de potencia (PCS), mapa E',
    'Güç dönüştürme sistemi (PCS), E kayıt haritası',
  ),
  version: 1,
  layout: 'E',
  items: [
    input('pcs_state', WORDS.operatingState, 0, 'u16', 'status', { enum: PCS_STATE_LABELS, realtime: true }),
    input('active_power', PCS_NAMES.active_power, 2, 's32', 'pcs', { ...kw32, realtime: true, emsRole: 'pcsPowerKw' }),
    input('dc_voltage', PCS_NAMES.dc_voltage, 4, 'u16', 'pcs', { scale: 0.1, decimals: 1, unit: 'V', realtime: true }),
    input('dc_current', PCS_NAMES.dc_current, 5, 's16', 'pcs', { scale: 0.1, decimals: 1, unit: 'A', realtime: true }),
    input('ac_voltage_ab', PCS_NAMES.ac_voltage_ab, 6, 'u16', 'pcs', { scale: 0.1, decimals: 1, unit: 'V' }),
    input('ac_voltage_bc', PCS_NAMES.ac_voltage_bc, 7, 'u16', 'pcs', { scale: 0.1, decimals: 1, unit: 'V' }),
    input('ac_voltage_ca', PCS_NAMES.ac_voltage_ca, 8, 'u16', 'pcs', { scale: 0.1, decimals: 1, unit: 'V' }),
    input('ac_current_a', PCS_NAMES.ac_current_a, 9, 'u16', 'pcs', { scale: 0.1, decimals: 1, unit: 'A' }),
    input('ac_current_b', PCS_NAMES.ac_current_b, 10, 'u16', 'pcs', { scale: 0.1, decimals: 1, unit: 'A' }),
    input('ac_current_c', PCS_NAMES.ac_current_c, 11, 'u16', 'pcs', { scale: 0.1, decimals: 1, unit: 'A' }),
    input('ac_frequency', PCS_NAMES.ac_frequency, 12, 'u16', 'pcs', {
      scale: 0.01,
      decimals: 2,
      unit: 'Hz',
      realtime: true,
    }),
    // 32767: the sensor is open circuit.
    input('module_temp', PCS_NAMES.module_temp, 13, 's16', 'pcs', {
      scale: 0.1,
      decimals: 1,
      unit: '°C',
      noData: [32767],
      realtime: true,
    }),
    input('pcs_fault', WORDS.faultFlag, 14, 'u16', 'status', { realtime: true, emsRole: 'pcsFault' }),
    input('fault_code', PCS_NAMES.fault_code, 15, 'u16', 'status', { enum: PCS_FAULT_CODE_LABELS }),
    input('alarm_bits', WORDS.alarmWord, 16, 'u16', 'status'),
    input('rated_power', WORDS.ratedPower, 17, 'u32', 'pcs', { ...kw32, emsRole: 'pcsRatingKw' }),
    input('charge_energy', PCS_NAMES.charge_energy, 19, 'u32', 'counters', { ...kwh32, realtime: true }),
    input('discharge_energy', PCS_NAMES.discharge_energy, 21, 'u32', 'counters', { ...kwh32, realtime: true }),
    input('power_setpoint', PCS_NAMES.power_setpoint, LAYOUT_E_PCS_REGISTERS.setpoint, 's32', 'pcs', {
      ...kw32,
      fc: 3,
      realtime: true,
      emsRole: 'pcsSetpointKw',
    }),
    input('control_mode', PCS_NAMES.control_mode, LAYOUT_E_PCS_REGISTERS.controlMode, 'u16', 'status', {
      fc: 3,
      enum: PCS_CONTROL_MODE_LABELS,
      realtime: true,
    }),
  ],
  alarms: [
    {
      code: 'pcs_fault',
      item: 'pcs_fault',
      condition: { op: 'set' },
      level: 'shutdown',
      title: PCS_ALARM_TITLES.pcs_fault,
    },
    {
      code: 'over_temperature',
      item: 'alarm_bits',
      condition: { op: 'bit', bit: LAYOUT_E_PCS_ALARM_BITS.overTemperature },
      level: 'warning',
      title: PCS_ALARM_TITLES.over_temperature,
    },
    {
      code: 'grid_abnormal',
      item: 'alarm_bits',
      condition: { op: 'bit', bit: LAYOUT_E_PCS_ALARM_BITS.gridAbnormal },
      level: 'trip',
      title: PCS_ALARM_TITLES.grid_abnormal,
    },
    {
      code: 'watchdog_expired',
      item: 'alarm_bits',
      condition: { op: 'bit', bit: LAYOUT_E_PCS_ALARM_BITS.watchdogExpired },
      level: 'warning',
      title: PCS_ALARM_TITLES.watchdog_expired,
    },
  ] satisfies AlarmInput[],
  commands: [
    pcsCommand('start'),
    pcsCommand('stop'),
    pcsCommand('fault_reset'),
    // Switching back to remote must stay possible from afar, so neither mode command has a precondition.
    {
      key: 'mode_remote',
      title: PCS_COMMAND_TITLES.mode_remote,
      writes: [{ fc: 6, address: LAYOUT_E_PCS_REGISTERS.controlMode, value: LAYOUT_E_PCS_CONTROL_MODES.remote }],
    },
    {
      key: 'mode_local',
      title: PCS_COMMAND_TITLES.mode_local,
      writes: [{ fc: 6, address: LAYOUT_E_PCS_REGISTERS.controlMode, value: LAYOUT_E_PCS_CONTROL_MODES.local }],
      risky: true,
    },
  ],
  moduleItems: SEED_MODULE_ITEMS,
  configParams: [
    {
      key: 'ramp_rate',
      name: PCS_NAMES.ramp_rate,
      address: LAYOUT_E_PCS_REGISTERS.config,
      type: 'u16',
      unit: 'kW/s',
      min: 1,
      max: 60_000,
      menu: 'power_control',
    },
    {
      key: 'watchdog_time',
      name: PCS_NAMES.watchdog_time,
      address: LAYOUT_E_PCS_REGISTERS.config + 1,
      type: 'u16',
      unit: 's',
      min: 0,
      max: 600,
      menu: 'communication',
    },
    {
      key: 'max_charge_power',
      name: PCS_NAMES.max_charge_power,
      address: LAYOUT_E_PCS_REGISTERS.config + 2,
      type: 'u32',
      ...kw32,
      min: 0,
      max: 1_000_000,
      menu: 'power_control',
    },
    {
      key: 'max_discharge_power',
      name: PCS_NAMES.max_discharge_power,
      address: LAYOUT_E_PCS_REGISTERS.config + 4,
      type: 'u32',
      ...kw32,
      min: 0,
      max: 1_000_000,
      menu: 'power_control',
    },
  ],
  configMenus: [
    { key: 'power_control', name: PCS_MENUS.power_control },
    { key: 'communication', name: PCS_MENUS.communication },
  ],
  configReadBlocks: [{ fc: 3, start: LAYOUT_E_PCS_REGISTERS.config, count: 6 }],
  // A PCS has no controller mode; its operating state stands in for it, so that stopped and faulted read as
  // "stop" (closed), standby as ready (standby), and charging or discharging as running.
  statusRules: {
    modeItem: 'pcs_state',
    modes: {
      stop: [LAYOUT_E_PCS_STATES.stop, LAYOUT_E_PCS_STATES.fault],
      manual: [],
      auto: [LAYOUT_E_PCS_STATES.standby, LAYOUT_E_PCS_STATES.charging, LAYOUT_E_PCS_STATES.discharging],
      test: [],
    },
    engineStateItem: 'pcs_state',
    engineStates: {
      starting: [],
      running: [LAYOUT_E_PCS_STATES.charging, LAYOUT_E_PCS_STATES.discharging],
      cooling: [],
      stopping: [],
    },
    alarmFlags: { shutdown: 'pcs_fault' },
  },
};

// ---- BMS --------------------------------------------------------------------------------------------------

/** BMS system state register values. */
export const LAYOUT_E_BMS_STATES = { open: 0, idle: 1, charging: 2, discharging: 3, fault: 4 } as const;
/** Bits of the BMS alarm word. */
export const LAYOUT_E_BMS_ALARM_BITS = {
  cell_over_voltage: 0,
  cell_under_voltage: 1,
  over_temperature: 2,
  under_temperature: 3,
  insulation: 4,
  communication: 5,
} as const;
export type LayoutEBmsAlarm = keyof typeof LAYOUT_E_BMS_ALARM_BITS;

// prettier-ignore
const BMS_STATE_LABELS = [
  { value: LAYOUT_E_BMS_STATES.open, label: t('Contactors open', '主接触器断开', '主接觸器斷開', 'Контакторы разомкнуты', 'Contactores abiertos', 'Kontaktörler açık') },
  { value: LAYOUT_E_BMS_STATES.idle, label: t('Idle', '静置', '靜置', 'Покой', 'En reposo', 'Boşta') },
  { value: LAYOUT_E_BMS_STATES.charging, label: WORDS.charging },
  { value: LAYOUT_E_BMS_STATES.discharging, label: WORDS.discharging },
  { value: LAYOUT_E_BMS_STATES.fault, label: WORDS.fault },
];

// prettier-ignore
const BMS_NAMES = {
  bms_state: t('System state', '系统状态', '系統狀態', 'Состояние системы', 'Estado del sistema', 'Sistem durumu'),
  soc: t('State of charge (SOC)', '荷电状态(SOC)', '荷電狀態(SOC)', 'Степень заряда (SOC)', 'Estado de carga (SOC)', 'Şarj durumu (SOC)'),
  soh: t('State of health (SOH)', '健康状态(SOH)', '健康狀態(SOH)', 'Остаточный ресурс (SOH)', 'Estado de salud (SOH)', 'Sağlık durumu (SOH)'),
  pack_voltage: t('Battery voltage', '电池组总电压', '電池組總電壓', 'Напряжение батареи', 'Tensión de la batería', 'Batarya gerilimi'),
  pack_current: t('Battery current (discharge +)', '电池组电流(放电为正)', '電池組電流(放電為正)', 'Ток батареи (разряд +)', 'Corriente de la batería (descarga +)', 'Batarya akımı (deşarj +)'),
  max_cell_voltage: t('Highest cell voltage', '最高单体电压', '最高單體電壓', 'Максимальное напряжение ячейки', 'Tensión de celda máxima', 'En yüksek hücre gerilimi'),
  max_cell_voltage_id: t('Cell with the highest voltage', '最高单体电压编号', '最高單體電壓編號', 'Номер ячейки с максимальным напряжением', 'Celda de tensión máxima', 'En yüksek gerilimli hücre no.'),
  min_cell_voltage: t('Lowest cell voltage', '最低单体电压', '最低單體電壓', 'Минимальное напряжение ячейки', 'Tensión de celda mínima', 'En düşük hücre gerilimi'),
  min_cell_voltage_id: t('Cell with the lowest voltage', '最低单体电压编号', '最低單體電壓編號', 'Номер ячейки с минимальным напряжением', 'Celda de tensión mínima', 'En düşük gerilimli hücre no.'),
  max_cell_temp: t('Highest cell temperature', '最高单体温度', '最高單體溫度', 'Максимальная температура ячейки', 'Temperatura de celda máxima', 'En yüksek hücre sıcaklığı'),
  max_cell_temp_id: t('Cell with the highest temperature', '最高单体温度编号', '最高單體溫度編號', 'Номер ячейки с максимальной температурой', 'Celda de temperatura máxima', 'En sıcak hücre no.'),
  min_cell_temp: t('Lowest cell temperature', '最低单体温度', '最低單體溫度', 'Минимальная температура ячейки', 'Temperatura de celda mínima', 'En düşük hücre sıcaklığı'),
  min_cell_temp_id: t('Cell with the lowest temperature', '最低单体温度编号', '最低單體溫度編號', 'Номер ячейки с минимальной температурой', 'Celda de temperatura mínima', 'En soğuk hücre no.'),
  charge_power_limit: t('Allowed charge power', '允许充电功率', '允許充電功率', 'Допустимая мощность заряда', 'Potencia de carga admisible', 'İzin verilen şarj gücü'),
  discharge_power_limit: t('Allowed discharge power', '允许放电功率', '允許放電功率', 'Допустимая мощность разряда', 'Potencia de descarga admisible', 'İzin verilen deşarj gücü'),
  rated_capacity: t('Rated capacity', '额定容量', '額定容量', 'Номинальная ёмкость', 'Capacidad nominal', 'Nominal kapasite'),
  remaining_energy: t('Remaining energy', '剩余电量', '剩餘電量', 'Остаток энергии', 'Energía restante', 'Kalan enerji'),
};

// prettier-ignore
const BMS_ALARM_TITLES: Record<LayoutEBmsAlarm | 'bms_fault', ProtocolText> = {
  bms_fault: t('BMS fault (contactors open)', '电池管理系统故障(接触器断开)', '電池管理系統故障(接觸器斷開)', 'Авария BMS (контакторы разомкнуты)', 'Fallo del BMS (contactores abiertos)', 'BMS arızası (kontaktörler açık)'),
  cell_over_voltage: t('Cell over-voltage', '单体过压', '單體過壓', 'Перенапряжение ячейки', 'Sobretensión de celda', 'Hücre aşırı gerilimi'),
  cell_under_voltage: t('Cell under-voltage', '单体欠压', '單體欠壓', 'Пониженное напряжение ячейки', 'Subtensión de celda', 'Hücre düşük gerilimi'),
  over_temperature: t('Cell over-temperature', '电池过温', '電池過溫', 'Перегрев ячеек', 'Sobretemperatura de celdas', 'Hücre aşırı sıcaklığı'),
  under_temperature: t('Cell under-temperature', '电池低温', '電池低溫', 'Переохлаждение ячеек', 'Temperatura de celdas demasiado baja', 'Hücre düşük sıcaklığı'),
  insulation: t('Insulation fault', '绝缘故障', '絕緣故障', 'Нарушение изоляции', 'Fallo de aislamiento', 'Yalıtım arızası'),
  communication: t('Internal communication lost', '内部通信中断', '內部通訊中斷', 'Потеря внутренней связи', 'Comunicación interna perdida', 'Dahili iletişim kesildi'),
};

/** Levels of the BMS alarm bits: it protects itself by cutting a limit first, and opens its contactors on insulation loss. */
const BMS_ALARM_LEVELS: Record<LayoutEBmsAlarm, AlarmInput['level']> = {
  cell_over_voltage: 'warning',
  cell_under_voltage: 'warning',
  over_temperature: 'warning',
  under_temperature: 'warning',
  insulation: 'shutdown',
  communication: 'warning',
};

const cellV = { unit: 'mV', realtime: true } as const;
const cellT: Partial<ItemInput> = { scale: 0.1, decimals: 1, unit: '°C', noData: [32767], realtime: true };

const bmsSource: ProtocolDocumentInput = {
  key: 'layout-e-bms',
  name: t(
    'Battery management system (BMS), layout E',
    '电池管理系统(BMS)E 型寄存器表',
    '電池管理系統(BMS)E 型暫存器表',
    'Система управления батареей (BMS), карта регистров E',
    'Sistema de gestión de baterías (BMS), mapa E',
    'Batarya yönetim sistemi (BMS), E kayıt haritası',
  ),
  version: 1,
  layout: 'E',
  items: [
    input('bms_state', BMS_NAMES.bms_state, 0, 'u16', 'status', { enum: BMS_STATE_LABELS, realtime: true }),
    input('soc', BMS_NAMES.soc, 1, 'u16', 'bms', {
      scale: 0.1,
      decimals: 1,
      unit: '%',
      realtime: true,
      emsRole: 'soc',
    }),
    input('soh', BMS_NAMES.soh, 2, 'u16', 'bms', { scale: 0.1, decimals: 1, unit: '%', realtime: true }),
    input('pack_voltage', BMS_NAMES.pack_voltage, 3, 'u16', 'bms', {
      scale: 0.1,
      decimals: 1,
      unit: 'V',
      realtime: true,
    }),
    input('pack_current', BMS_NAMES.pack_current, 4, 's16', 'bms', {
      scale: 0.1,
      decimals: 1,
      unit: 'A',
      realtime: true,
    }),
    input('max_cell_voltage', BMS_NAMES.max_cell_voltage, 5, 'u16', 'bms', cellV),
    input('max_cell_voltage_id', BMS_NAMES.max_cell_voltage_id, 6, 'u16', 'bms'),
    input('min_cell_voltage', BMS_NAMES.min_cell_voltage, 7, 'u16', 'bms', cellV),
    input('min_cell_voltage_id', BMS_NAMES.min_cell_voltage_id, 8, 'u16', 'bms'),
    input('max_cell_temp', BMS_NAMES.max_cell_temp, 9, 's16', 'bms', cellT),
    input('max_cell_temp_id', BMS_NAMES.max_cell_temp_id, 10, 'u16', 'bms'),
    input('min_cell_temp', BMS_NAMES.min_cell_temp, 11, 's16', 'bms', cellT),
    input('min_cell_temp_id', BMS_NAMES.min_cell_temp_id, 12, 'u16', 'bms'),
    input('charge_power_limit', BMS_NAMES.charge_power_limit, 13, 'u32', 'bms', {
      ...kw32,
      realtime: true,
      emsRole: 'bmsChargeLimitKw',
    }),
    input('discharge_power_limit', BMS_NAMES.discharge_power_limit, 15, 'u32', 'bms', {
      ...kw32,
      realtime: true,
      emsRole: 'bmsDischargeLimitKw',
    }),
    input('rated_capacity', BMS_NAMES.rated_capacity, 17, 'u32', 'bms', kwh32),
    input('remaining_energy', BMS_NAMES.remaining_energy, 19, 'u32', 'bms', { ...kwh32, realtime: true }),
    input('bms_fault', WORDS.faultFlag, 21, 'u16', 'status', { realtime: true, emsRole: 'bmsFault' }),
    input('alarm_bits', WORDS.alarmWord, 22, 'u16', 'status'),
  ],
  alarms: [
    {
      code: 'bms_fault',
      item: 'bms_fault',
      condition: { op: 'set' },
      level: 'shutdown',
      title: BMS_ALARM_TITLES.bms_fault,
    },
    ...(Object.keys(LAYOUT_E_BMS_ALARM_BITS) as LayoutEBmsAlarm[]).map((code): AlarmInput => ({
      code,
      item: 'alarm_bits',
      condition: { op: 'bit', bit: LAYOUT_E_BMS_ALARM_BITS[code] },
      level: BMS_ALARM_LEVELS[code],
      title: BMS_ALARM_TITLES[code],
    })),
  ],
  moduleItems: SEED_MODULE_ITEMS,
  // As for the PCS, the system state stands in for a mode: contactors open or faulted read as "stop" (closed),
  // idle as ready (standby), charging or discharging as running.
  statusRules: {
    modeItem: 'bms_state',
    modes: {
      stop: [LAYOUT_E_BMS_STATES.open, LAYOUT_E_BMS_STATES.fault],
      manual: [],
      auto: [LAYOUT_E_BMS_STATES.idle, LAYOUT_E_BMS_STATES.charging, LAYOUT_E_BMS_STATES.discharging],
      test: [],
    },
    engineStateItem: 'bms_state',
    engineStates: {
      starting: [],
      running: [LAYOUT_E_BMS_STATES.charging, LAYOUT_E_BMS_STATES.discharging],
      cooling: [],
      stopping: [],
    },
    alarmFlags: { shutdown: 'bms_fault' },
  },
};

// ---- grid meter -------------------------------------------------------------------------------------------

// prettier-ignore
const METER_NAMES = {
  voltage_a: t('Voltage L1-N', 'A 相电压', 'A 相電壓', 'Напряжение L1-N', 'Tensión L1-N', 'Gerilim L1-N'),
  voltage_b: t('Voltage L2-N', 'B 相电压', 'B 相電壓', 'Напряжение L2-N', 'Tensión L2-N', 'Gerilim L2-N'),
  voltage_c: t('Voltage L3-N', 'C 相电压', 'C 相電壓', 'Напряжение L3-N', 'Tensión L3-N', 'Gerilim L3-N'),
  current_a: t('Current L1', 'A 相电流', 'A 相電流', 'Ток L1', 'Corriente L1', 'Akım L1'),
  current_b: t('Current L2', 'B 相电流', 'B 相電流', 'Ток L2', 'Corriente L2', 'Akım L2'),
  current_c: t('Current L3', 'C 相电流', 'C 相電流', 'Ток L3', 'Corriente L3', 'Akım L3'),
  grid_power: t('Active power at the connection point (import +)', '关口有功功率(购电为正)', '關口有功功率(購電為正)', 'Активная мощность в точке присоединения (потребление +)', 'Potencia activa en el punto de conexión (importación +)', 'Bağlantı noktası aktif gücü (alım +)'),
  import_energy: t('Imported energy (total)', '正向有功总电能(购电)', '正向有功總電能(購電)', 'Потреблённая из сети энергия (всего)', 'Energía importada (total)', 'Şebekeden alınan enerji (toplam)'),
  export_energy: t('Exported energy (total)', '反向有功总电能(上网)', '反向有功總電能(上網)', 'Отданная в сеть энергия (всего)', 'Energía exportada (total)', 'Şebekeye verilen enerji (toplam)'),
};

const meterSource: ProtocolDocumentInput = {
  key: 'layout-e-meter',
  name: t(
    'Grid meter at the point of connection, layout E',
    '并网点关口电表 E 型寄存器表',
    '併網點關口電表 E 型暫存器表',
    'Счётчик в точке присоединения к сети, карта регистров E',
    'Contador de red en el punto de conexión, mapa E',
    'Şebeke bağlantı noktası sayacı, E kayıt haritası',
  ),
  version: 1,
  layout: 'E',
  items: [
    input('voltage_a', METER_NAMES.voltage_a, 0, 'u16', 'meter', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: 'V',
      realtime: true,
    }),
    input('voltage_b', METER_NAMES.voltage_b, 1, 'u16', 'meter', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: 'V',
      realtime: true,
    }),
    input('voltage_c', METER_NAMES.voltage_c, 2, 'u16', 'meter', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: 'V',
      realtime: true,
    }),
    input('current_a', METER_NAMES.current_a, 3, 'u16', 'meter', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: 'A',
      realtime: true,
    }),
    input('current_b', METER_NAMES.current_b, 4, 'u16', 'meter', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: 'A',
      realtime: true,
    }),
    input('current_c', METER_NAMES.current_c, 5, 'u16', 'meter', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: 'A',
      realtime: true,
    }),
    input('frequency', WORDS.frequency, 6, 'u16', 'meter', {
      fc: 3,
      scale: 0.01,
      decimals: 2,
      unit: 'Hz',
      realtime: true,
    }),
    // Signed with the active power: negative while exporting.
    input('power_factor', WORDS.powerFactor, 7, 's16', 'meter', { fc: 3, scale: 0.001, decimals: 3, realtime: true }),
    input('grid_power', METER_NAMES.grid_power, 8, 's32', 'meter', {
      ...kw32,
      fc: 3,
      realtime: true,
      emsRole: 'gridPowerKw',
    }),
    input('reactive_power', WORDS.reactivePower, 10, 's32', 'meter', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: 'kvar',
    }),
    input('import_energy', METER_NAMES.import_energy, 12, 'u32', 'counters', { ...kwh32, fc: 3, realtime: true }),
    input('export_energy', METER_NAMES.export_energy, 14, 'u32', 'counters', { ...kwh32, fc: 3, realtime: true }),
  ],
  moduleItems: SEED_MODULE_ITEMS,
  // No statusRules: a meter has no operating state to run, stand by or stop; it only measures.
};

// ---- PV inverter ------------------------------------------------------------------------------------------

/** PV inverter state register values. */
export const LAYOUT_E_PV_STATES = { waiting: 0, running: 1, derated: 2, fault: 3, shutdown: 4 } as const;
/** The PV inverter's holding registers: the output limit and the on/off register. */
export const LAYOUT_E_PV_REGISTERS = { limit: 100, command: 110 } as const;
export const LAYOUT_E_PV_COMMANDS = { power_on: 1, power_off: 2 } as const;

// prettier-ignore
const PV_STATE_LABELS = [
  { value: LAYOUT_E_PV_STATES.waiting, label: t('Waiting (no sun)', '等待(无光照)', '等待(無日照)', 'Ожидание (нет солнца)', 'En espera (sin sol)', 'Bekliyor (güneş yok)') },
  { value: LAYOUT_E_PV_STATES.running, label: t('Generating (MPPT)', '并网发电(MPPT)', '併網發電(MPPT)', 'Генерация (MPPT)', 'Generando (MPPT)', 'Üretimde (MPPT)') },
  { value: LAYOUT_E_PV_STATES.derated, label: t('Output limited', '限功率运行', '限功率運轉', 'Мощность ограничена', 'Potencia limitada', 'Çıkış sınırlı') },
  { value: LAYOUT_E_PV_STATES.fault, label: WORDS.fault },
  { value: LAYOUT_E_PV_STATES.shutdown, label: t('Shut down', '关机', '關機', 'Выключен', 'Apagado', 'Kapalı') },
];

// prettier-ignore
const PV_NAMES = {
  pv_power: t('PV active power', '光伏有功功率', '太陽能有功功率', 'Активная мощность солнечной станции', 'Potencia activa fotovoltaica', 'FV aktif güç'),
  daily_yield: t('Energy yield today', '日发电量', '日發電量', 'Выработка за сутки', 'Producción de hoy', 'Bugünkü üretim'),
  total_yield: t('Total energy yield', '累计发电量', '累計發電量', 'Суммарная выработка', 'Producción total', 'Toplam üretim'),
  power_limit: t('Output limit (% of rated power)', '有功功率限制(额定百分比)', '有功功率限制(額定百分比)', 'Ограничение мощности (% от номинала)', 'Límite de potencia (% de la nominal)', 'Çıkış sınırı (nominal gücün %)'),
};

// prettier-ignore
const PV_TEXTS = {
  fault: t('PV inverter fault', '光伏逆变器故障', '太陽能逆變器故障', 'Авария солнечного инвертора', 'Fallo del inversor fotovoltaico', 'FV invertör arızası'),
  power_on: t('Power on', '开机', '開機', 'Включить', 'Encender', 'Aç'),
  power_off: t('Shut down', '关机', '關機', 'Выключить', 'Apagar', 'Kapat'),
};

const pvSource: ProtocolDocumentInput = {
  key: 'layout-e-pv',
  name: t(
    'PV inverter, layout E',
    '光伏逆变器 E 型寄存器表',
    '太陽能逆變器 E 型暫存器表',
    'Солнечный инвертор, карта регистров E',
    'Inversor fotovoltaico, mapa E',
    'Fotovoltaik invertör, E kayıt haritası',
  ),
  version: 1,
  layout: 'E',
  items: [
    input('pv_state', WORDS.operatingState, 0, 'u16', 'status', { enum: PV_STATE_LABELS, realtime: true }),
    input('pv_power', PV_NAMES.pv_power, 1, 'u32', 'pv', { ...kw32, realtime: true, emsRole: 'pvPowerKw' }),
    input('daily_yield', PV_NAMES.daily_yield, 3, 'u32', 'counters', { ...kwh32, realtime: true }),
    input('total_yield', PV_NAMES.total_yield, 5, 'u32', 'counters', { ...kwh32, realtime: true }),
    input('rated_power', WORDS.ratedPower, 7, 'u32', 'pv', kw32),
    input('power_limit', PV_NAMES.power_limit, LAYOUT_E_PV_REGISTERS.limit, 'u16', 'pv', {
      fc: 3,
      scale: 0.1,
      decimals: 1,
      unit: '%',
      realtime: true,
      emsRole: 'pvLimitPct',
    }),
  ],
  alarms: [
    {
      code: 'pv_fault',
      item: 'pv_state',
      condition: { op: 'equals', value: LAYOUT_E_PV_STATES.fault },
      level: 'shutdown',
      title: PV_TEXTS.fault,
    },
  ],
  commands: (Object.keys(LAYOUT_E_PV_COMMANDS) as (keyof typeof LAYOUT_E_PV_COMMANDS)[]).map((key) => ({
    key,
    title: PV_TEXTS[key],
    writes: [{ fc: 6 as const, address: LAYOUT_E_PV_REGISTERS.command, value: LAYOUT_E_PV_COMMANDS[key] }],
    risky: true,
  })),
  moduleItems: SEED_MODULE_ITEMS,
  // Waiting for the sun reads as standby; generating (limited or not) as running; faulted or shut down as closed.
  statusRules: {
    modeItem: 'pv_state',
    modes: {
      stop: [LAYOUT_E_PV_STATES.fault, LAYOUT_E_PV_STATES.shutdown],
      manual: [],
      auto: [LAYOUT_E_PV_STATES.waiting, LAYOUT_E_PV_STATES.running, LAYOUT_E_PV_STATES.derated],
      test: [],
    },
    engineStateItem: 'pv_state',
    engineStates: {
      starting: [],
      running: [LAYOUT_E_PV_STATES.running, LAYOUT_E_PV_STATES.derated],
      cooling: [],
      stopping: [],
    },
  },
};

export const layoutEPcs = parseProtocolDocument(pcsSource);
export const layoutEBms = parseProtocolDocument(bmsSource);
export const layoutEMeter = parseProtocolDocument(meterSource);
export const layoutEPv = parseProtocolDocument(pvSource);

/** The layout E documents by device of the station. */
export const LAYOUT_E_DOCUMENTS = {
  pcs: layoutEPcs,
  bms: layoutEBms,
  meter: layoutEMeter,
  pv: layoutEPv,
} as const satisfies Record<string, ProtocolDocument>;
export type LayoutEDevice = keyof typeof LAYOUT_E_DOCUMENTS;
