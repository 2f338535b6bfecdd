// Translated names shared by the seed register maps: the same item key carries the same name in every
// layout, which is what lets the console show any controller model alike.
import { protocolText as t, type ProtocolText } from './text.ts';

// One line per term keeps the six translations side by side for review.
// prettier-ignore
export const ITEM_NAMES = {
  mains_voltage_l1: t('Mains voltage L1-N', '市电L1相电压', '市電L1相電壓', 'Напряжение сети L1-N', 'Tensión de red L1-N', 'Şebeke gerilimi L1-N'),
  mains_voltage_l2: t('Mains voltage L2-N', '市电L2相电压', '市電L2相電壓', 'Напряжение сети L2-N', 'Tensión de red L2-N', 'Şebeke gerilimi L2-N'),
  mains_voltage_l3: t('Mains voltage L3-N', '市电L3相电压', '市電L3相電壓', 'Напряжение сети L3-N', 'Tensión de red L3-N', 'Şebeke gerilimi L3-N'),
  mains_voltage_l12: t('Mains voltage L1-L2', '市电L1-L2线电压', '市電L1-L2線電壓', 'Линейное напряжение сети L1-L2', 'Tensión de red L1-L2', 'Şebeke gerilimi L1-L2'),
  mains_voltage_l23: t('Mains voltage L2-L3', '市电L2-L3线电压', '市電L2-L3線電壓', 'Линейное напряжение сети L2-L3', 'Tensión de red L2-L3', 'Şebeke gerilimi L2-L3'),
  mains_voltage_l31: t('Mains voltage L3-L1', '市电L3-L1线电压', '市電L3-L1線電壓', 'Линейное напряжение сети L3-L1', 'Tensión de red L3-L1', 'Şebeke gerilimi L3-L1'),
  mains_freq: t('Mains frequency', '市电频率', '市電頻率', 'Частота сети', 'Frecuencia de red', 'Şebeke frekansı'),
  gen_voltage_l1: t('Generator voltage L1-N', '发电机L1相电压', '發電機L1相電壓', 'Напряжение генератора L1-N', 'Tensión del generador L1-N', 'Jeneratör gerilimi L1-N'),
  gen_voltage_l2: t('Generator voltage L2-N', '发电机L2相电压', '發電機L2相電壓', 'Напряжение генератора L2-N', 'Tensión del generador L2-N', 'Jeneratör gerilimi L2-N'),
  gen_voltage_l3: t('Generator voltage L3-N', '发电机L3相电压', '發電機L3相電壓', 'Напряжение генератора L3-N', 'Tensión del generador L3-N', 'Jeneratör gerilimi L3-N'),
  gen_voltage_l12: t('Generator voltage L1-L2', '发电机L1-L2线电压', '發電機L1-L2線電壓', 'Линейное напряжение генератора L1-L2', 'Tensión del generador L1-L2', 'Jeneratör gerilimi L1-L2'),
  gen_voltage_l23: t('Generator voltage L2-L3', '发电机L2-L3线电压', '發電機L2-L3線電壓', 'Линейное напряжение генератора L2-L3', 'Tensión del generador L2-L3', 'Jeneratör gerilimi L2-L3'),
  gen_voltage_l31: t('Generator voltage L3-L1', '发电机L3-L1线电压', '發電機L3-L1線電壓', 'Линейное напряжение генератора L3-L1', 'Tensión del generador L3-L1', 'Jeneratör gerilimi L3-L1'),
  gen_freq: t('Generator frequency', '发电机频率', '發電機頻率', 'Частота генератора', 'Frecuencia del generador', 'Jeneratör frekansı'),
  gen_current_l1: t('Generator current L1', '发电机L1相电流', '發電機L1相電流', 'Ток генератора L1', 'Corriente del generador L1', 'Jeneratör akımı L1'),
  gen_current_l2: t('Generator current L2', '发电机L2相电流', '發電機L2相電流', 'Ток генератора L2', 'Corriente del generador L2', 'Jeneratör akımı L2'),
  gen_current_l3: t('Generator current L3', '发电机L3相电流', '發電機L3相電流', 'Ток генератора L3', 'Corriente del generador L3', 'Jeneratör akımı L3'),
  gen_kw: t('Active power', '有功功率', '有功功率', 'Активная мощность', 'Potencia activa', 'Aktif güç'),
  gen_kvar: t('Reactive power', '无功功率', '無功功率', 'Реактивная мощность', 'Potencia reactiva', 'Reaktif güç'),
  gen_kva: t('Apparent power', '视在功率', '視在功率', 'Полная мощность', 'Potencia aparente', 'Görünür güç'),
  power_factor: t('Power factor', '功率因数', '功率因數', 'Коэффициент мощности', 'Factor de potencia', 'Güç faktörü'),
  engine_rpm: t('Engine speed', '发动机转速', '引擎轉速', 'Частота вращения двигателя', 'Velocidad del motor', 'Motor devri'),
  coolant_temp: t('Coolant temperature', '冷却液温度', '冷卻液溫度', 'Температура охлаждающей жидкости', 'Temperatura del refrigerante', 'Soğutma suyu sıcaklığı'),
  oil_pressure: t('Oil pressure', '机油压力', '機油壓力', 'Давление масла', 'Presión de aceite', 'Yağ basıncı'),
  fuel_level: t('Fuel level', '燃油液位', '燃油液位', 'Уровень топлива', 'Nivel de combustible', 'Yakıt seviyesi'),
  battery_voltage: t('Battery voltage', '电池电压', '電池電壓', 'Напряжение АКБ', 'Tensión de batería', 'Akü gerilimi'),
  charger_voltage: t('Charging alternator voltage (D+)', '充电发电机电压(D+)', '充電發電機電壓(D+)', 'Напряжение зарядного генератора (D+)', 'Tensión del alternador de carga (D+)', 'Şarj alternatörü gerilimi (D+)'),
  run_hours: t('Total run hours', '累计运行小时', '累計運轉小時', 'Наработка, часы', 'Horas de funcionamiento', 'Toplam çalışma saati'),
  run_minutes: t('Total run minutes', '累计运行分钟', '累計運轉分鐘', 'Наработка, минуты', 'Minutos de funcionamiento', 'Toplam çalışma dakikası'),
  starts: t('Number of starts', '启动次数', '啟動次數', 'Количество пусков', 'Número de arranques', 'Çalıştırma sayısı'),
  kwh_total: t('Total energy', '累计电能', '累計電能', 'Выработанная энергия', 'Energía total', 'Toplam enerji'),
  maintenance_hours: t('Hours to next maintenance', '距下次保养小时', '距下次保養小時', 'Часов до ТО', 'Horas hasta el mantenimiento', 'Bakıma kalan saat'),
  engine_state: t('Genset state', '机组状态', '機組狀態', 'Состояние агрегата', 'Estado del grupo electrógeno', 'Jeneratör seti durumu'),
  mode: t('Controller mode', '控制器模式', '控制器模式', 'Режим контроллера', 'Modo del controlador', 'Kontrol cihazı modu'),
  latitude: t('Latitude', '纬度', '緯度', 'Широта', 'Latitud', 'Enlem'),
  longitude: t('Longitude', '经度', '經度', 'Долгота', 'Longitud', 'Boylam'),
  gen_on_load: t('Generator on load', '发电合闸', '發電合閘', 'Генератор под нагрузкой', 'Generador en carga', 'Jeneratör yükte'),
  mains_on_load: t('Mains on load', '市电合闸', '市電合閘', 'Сеть под нагрузкой', 'Red en carga', 'Şebeke yükte'),
  mains_normal: t('Mains normal', '市电正常', '市電正常', 'Сеть в норме', 'Red normal', 'Şebeke normal'),
  gen_normal: t('Generator normal', '发电正常', '發電正常', 'Генератор в норме', 'Generador normal', 'Jeneratör normal'),
  remote_lock: t('Remote control locked', '远程控制锁定', '遠端控制鎖定', 'Дистанционное управление заблокировано', 'Control remoto bloqueado', 'Uzaktan kontrol kilitli'),
  input_emergency_stop: t('Emergency stop input', '紧急停机输入', '緊急停機輸入', 'Вход аварийного останова', 'Entrada de parada de emergencia', 'Acil durdurma girişi'),
  input_remote_lock: t('Remote lock input', '远程锁定输入', '遠端鎖定輸入', 'Вход блокировки дистанционного управления', 'Entrada de bloqueo remoto', 'Uzaktan kilit girişi'),
  common_alarm: t('Common alarm', '公共报警', '公共警報', 'Общая авария', 'Alarma común', 'Genel alarm'),
  common_warning: t('Common warning', '公共警告', '公共警告', 'Общее предупреждение', 'Advertencia común', 'Genel uyarı'),
  common_shutdown: t('Common shutdown alarm', '公共停机报警', '公共停機警報', 'Общий аварийный останов', 'Alarma de parada común', 'Genel durdurma alarmı'),
  common_trip: t('Common electrical trip', '公共电气跳闸', '公共電氣跳閘', 'Общее электрическое отключение', 'Disparo eléctrico común', 'Genel elektriksel açma'),
  mode_auto: t('Auto mode', '自动模式', '自動模式', 'Автоматический режим', 'Modo automático', 'Otomatik mod'),
  mode_manual: t('Manual mode', '手动模式', '手動模式', 'Ручной режим', 'Modo manual', 'Manuel mod'),
  mode_stop: t('Stop mode', '停机模式', '停機模式', 'Режим останова', 'Modo parada', 'Durdurma modu'),
  mode_test: t('Test mode', '试机模式', '試機模式', 'Тестовый режим', 'Modo prueba', 'Test modu'),
  bus_voltage: t('Bus voltage', '母排电压', '母排電壓', 'Напряжение на шинах', 'Tensión de barras', 'Bara gerilimi'),
  bus_freq: t('Bus frequency', '母排频率', '母排頻率', 'Частота на шинах', 'Frecuencia de barras', 'Bara frekansı'),
  bus_kw: t('Bus total active power', '母排总有功功率', '母排總有功功率', 'Суммарная активная мощность на шинах', 'Potencia activa total de barras', 'Bara toplam aktif gücü'),
  bus_kva: t('Bus total apparent power', '母排总视在功率', '母排總視在功率', 'Суммарная полная мощность на шинах', 'Potencia aparente total de barras', 'Bara toplam görünür gücü'),
  load_share: t('Share of bus load', '负载分配比例', '負載分配比例', 'Доля нагрузки шин', 'Reparto de la carga de barras', 'Bara yükündeki pay'),
  bus_live: t('Bus live', '母排有电', '母排有電', 'Шины под напряжением', 'Barras con tensión', 'Bara enerjili'),
  synchronising: t('Synchronising', '正在同步', '正在同步', 'Синхронизация', 'Sincronizando', 'Senkronize ediliyor'),
  shutdown_alarms: t('Shutdown alarm bits', '停机报警位', '停機警報位', 'Биты аварийных остановов', 'Bits de alarmas de parada', 'Durdurma alarm bitleri'),
  warning_alarms: t('Warning alarm bits', '警告报警位', '警告警報位', 'Биты предупреждений', 'Bits de advertencias', 'Uyarı alarm bitleri'),
  trip_alarms: t('Electrical trip alarm bits', '电气跳闸报警位', '電氣跳閘警報位', 'Биты электрических отключений', 'Bits de disparos eléctricos', 'Elektriksel açma alarm bitleri'),
} satisfies Record<string, ProtocolText>;

export type AlarmCode = keyof typeof ALARM_TITLES;

// prettier-ignore
export const ALARM_TITLES = {
  emergency_stop: t('Emergency stop', '紧急停机', '緊急停機', 'Аварийный останов', 'Parada de emergencia', 'Acil durdurma'),
  low_oil_pressure_warning: t('Low oil pressure warning', '低油压警告', '低油壓警告', 'Предупреждение: низкое давление масла', 'Advertencia de baja presión de aceite', 'Düşük yağ basıncı uyarısı'),
  low_oil_pressure_shutdown: t('Low oil pressure shutdown', '低油压停机', '低油壓停機', 'Останов: низкое давление масла', 'Parada por baja presión de aceite', 'Düşük yağ basıncı nedeniyle durdurma'),
  high_coolant_temp_warning: t('High coolant temperature warning', '高水温警告', '高水溫警告', 'Предупреждение: высокая температура охлаждающей жидкости', 'Advertencia de alta temperatura del refrigerante', 'Yüksek soğutma suyu sıcaklığı uyarısı'),
  high_coolant_temp_shutdown: t('High coolant temperature shutdown', '高水温停机', '高水溫停機', 'Останов: высокая температура охлаждающей жидкости', 'Parada por alta temperatura del refrigerante', 'Yüksek soğutma suyu sıcaklığı nedeniyle durdurma'),
  low_fuel_warning: t('Low fuel level warning', '低燃油位警告', '低燃油位警告', 'Предупреждение: низкий уровень топлива', 'Advertencia de bajo nivel de combustible', 'Düşük yakıt seviyesi uyarısı'),
  low_fuel_shutdown: t('Low fuel level shutdown', '低燃油位停机', '低燃油位停機', 'Останов: низкий уровень топлива', 'Parada por bajo nivel de combustible', 'Düşük yakıt seviyesi nedeniyle durdurma'),
  over_speed: t('Over speed shutdown', '超速停机', '超速停機', 'Останов: превышение оборотов', 'Parada por sobrevelocidad', 'Aşırı devir nedeniyle durdurma'),
  under_speed: t('Under speed shutdown', '欠速停机', '欠速停機', 'Останов: низкие обороты', 'Parada por baja velocidad', 'Düşük devir nedeniyle durdurma'),
  gen_over_voltage: t('Generator over voltage', '发电过压', '發電過壓', 'Перенапряжение генератора', 'Sobretensión del generador', 'Jeneratör aşırı gerilimi'),
  gen_under_voltage: t('Generator under voltage', '发电欠压', '發電欠壓', 'Пониженное напряжение генератора', 'Subtensión del generador', 'Jeneratör düşük gerilimi'),
  gen_over_frequency: t('Generator over frequency', '发电过频', '發電過頻', 'Повышенная частота генератора', 'Sobrefrecuencia del generador', 'Jeneratör aşırı frekansı'),
  gen_under_frequency: t('Generator under frequency', '发电欠频', '發電欠頻', 'Пониженная частота генератора', 'Subfrecuencia del generador', 'Jeneratör düşük frekansı'),
  overload: t('Generator overload trip', '发电过载跳闸', '發電過載跳閘', 'Отключение: перегрузка генератора', 'Disparo por sobrecarga del generador', 'Jeneratör aşırı yük açması'),
  battery_low: t('Battery under voltage', '电池欠压', '電池欠壓', 'Низкое напряжение АКБ', 'Baja tensión de batería', 'Düşük akü gerilimi'),
  charge_fail: t('Charge alternator failure', '充电失败', '充電失敗', 'Отказ зарядного генератора', 'Fallo del alternador de carga', 'Şarj alternatörü arızası'),
  fail_to_start: t('Fail to start', '启动失败', '啟動失敗', 'Не удалось запустить', 'Fallo de arranque', 'Çalıştırma başarısız'),
  maintenance_due: t('Maintenance due', '保养到期', '保養到期', 'Требуется техобслуживание', 'Mantenimiento pendiente', 'Bakım zamanı geldi'),
} satisfies Record<string, ProtocolText>;

/** The level of each alarm code, the same in every seed layout. */
export const ALARM_LEVELS: Record<AlarmCode, 'warning' | 'shutdown' | 'trip'> = {
  emergency_stop: 'shutdown',
  over_speed: 'shutdown',
  under_speed: 'shutdown',
  high_coolant_temp_shutdown: 'shutdown',
  low_oil_pressure_shutdown: 'shutdown',
  gen_over_voltage: 'shutdown',
  gen_under_voltage: 'shutdown',
  gen_over_frequency: 'shutdown',
  gen_under_frequency: 'shutdown',
  fail_to_start: 'shutdown',
  low_fuel_shutdown: 'shutdown',
  high_coolant_temp_warning: 'warning',
  low_oil_pressure_warning: 'warning',
  low_fuel_warning: 'warning',
  battery_low: 'warning',
  charge_fail: 'warning',
  maintenance_due: 'warning',
  overload: 'trip',
};

// prettier-ignore
export const COMMAND_TITLES = {
  start: t('Start', '启动', '啟動', 'Пуск', 'Arrancar', 'Çalıştır'),
  stop: t('Stop', '停机', '停機', 'Останов', 'Parar', 'Durdur'),
  test: t('Test mode', '试机模式', '試機模式', 'Тестовый режим', 'Modo prueba', 'Test modu'),
  auto: t('Auto mode', '自动模式', '自動模式', 'Автоматический режим', 'Modo automático', 'Otomatik mod'),
  manual: t('Manual mode', '手动模式', '手動模式', 'Ручной режим', 'Modo manual', 'Manuel mod'),
  gen_breaker: t('Generator breaker close/open', '发电合闸/分闸', '發電合閘/分閘', 'Автомат генератора: вкл./откл.', 'Interruptor del generador: cerrar/abrir', 'Jeneratör şalteri: kapat/aç'),
  mains_breaker: t('Mains breaker close/open', '市电合闸/分闸', '市電合閘/分閘', 'Автомат сети: вкл./откл.', 'Interruptor de red: cerrar/abrir', 'Şebeke şalteri: kapat/aç'),
  fault_reset: t('Fault reset', '故障复位', '故障復位', 'Сброс аварий', 'Restablecer fallos', 'Arıza sıfırlama'),
} satisfies Record<string, ProtocolText>;

export const REFUSAL_REASONS = {
  remoteLock: t(
    'Remote control is locked at the controller',
    '控制器已锁定远程控制',
    '控制器已鎖定遠端控制',
    'Дистанционное управление заблокировано на контроллере',
    'El control remoto está bloqueado en el controlador',
    'Uzaktan kontrol, kontrol cihazında kilitli',
  ),
  needsManualOrTest: t(
    'Select manual or test mode first',
    '请先切换到手动或试机模式',
    '請先切換到手動或試機模式',
    'Сначала выберите ручной или тестовый режим',
    'Seleccione primero el modo manual o de prueba',
    'Önce manuel veya test modunu seçin',
  ),
  needsManual: t(
    'Breakers can be switched in manual mode only',
    '仅在手动模式下可操作开关',
    '僅在手動模式下可操作開關',
    'Автоматами можно управлять только в ручном режиме',
    'Los interruptores solo se maniobran en modo manual',
    'Şalterler yalnızca manuel modda kumanda edilebilir',
  ),
} satisfies Record<string, ProtocolText>;

// prettier-ignore
export const CONFIG_NAMES = {
  crank_attempts: t('Crank attempts', '启动尝试次数', '啟動嘗試次數', 'Число попыток пуска', 'Intentos de arranque', 'Marş deneme sayısı'),
  crank_time_s: t('Crank time', '启动马达时间', '啟動馬達時間', 'Время прокрутки стартером', 'Tiempo de giro del arrancador', 'Marş süresi'),
  crank_rest_time_s: t('Crank rest time', '启动间隔时间', '啟動間隔時間', 'Пауза между попытками пуска', 'Pausa entre intentos de arranque', 'Marş denemeleri arası bekleme'),
  preheat_time_s: t('Preheat time', '预热时间', '預熱時間', 'Время предпускового подогрева', 'Tiempo de precalentamiento', 'Ön ısıtma süresi'),
  safety_on_time_s: t('Safety on delay', '安全运行延时', '安全運轉延時', 'Задержка включения защит', 'Retardo de activación de protecciones', 'Koruma devreye alma gecikmesi'),
  warm_up_time_s: t('Warming up time', '暖机时间', '暖機時間', 'Время прогрева', 'Tiempo de calentamiento', 'Isınma süresi'),
  cooling_time_s: t('Cooling time', '散热时间', '散熱時間', 'Время охлаждения', 'Tiempo de enfriamiento', 'Soğuma süresi'),
  mains_fail_delay_s: t('Mains failure start delay', '市电异常开机延时', '市電異常開機延時', 'Задержка пуска при отказе сети', 'Retardo de arranque por fallo de red', 'Şebeke kesintisinde çalıştırma gecikmesi'),
  mains_return_delay_s: t('Mains return delay', '市电恢复延时', '市電恢復延時', 'Задержка возврата на сеть', 'Retardo de retorno de red', 'Şebeke dönüş gecikmesi'),
  low_fuel_warning_pct: t('Low fuel warning level', '低燃油位警告值', '低燃油位警告值', 'Уровень топлива для предупреждения', 'Nivel de advertencia de combustible bajo', 'Düşük yakıt uyarı seviyesi'),
  low_fuel_shutdown_pct: t('Low fuel shutdown level', '低燃油位停机值', '低燃油位停機值', 'Уровень топлива для останова', 'Nivel de parada por combustible bajo', 'Düşük yakıt durdurma seviyesi'),
  high_coolant_warning_c: t('High coolant temperature warning', '高水温警告值', '高水溫警告值', 'Температура ОЖ для предупреждения', 'Temperatura de advertencia del refrigerante', 'Soğutma suyu sıcaklığı uyarı eşiği'),
  high_coolant_shutdown_c: t('High coolant temperature shutdown', '高水温停机值', '高水溫停機值', 'Температура ОЖ для останова', 'Temperatura de parada del refrigerante', 'Soğutma suyu sıcaklığı durdurma eşiği'),
  low_oil_warning_kpa: t('Low oil pressure warning', '低油压警告值', '低油壓警告值', 'Давление масла для предупреждения', 'Presión de aceite de advertencia', 'Yağ basıncı uyarı eşiği'),
  low_oil_shutdown_kpa: t('Low oil pressure shutdown', '低油压停机值', '低油壓停機值', 'Давление масла для останова', 'Presión de aceite de parada', 'Yağ basıncı durdurma eşiği'),
  over_speed_shutdown_rpm: t('Over speed shutdown', '超速停机值', '超速停機值', 'Обороты для останова по превышению', 'Velocidad de parada por sobrevelocidad', 'Aşırı devir durdurma eşiği'),
  battery_low_warning_v: t('Battery under voltage warning', '电池欠压警告值', '電池欠壓警告值', 'Напряжение АКБ для предупреждения', 'Tensión de advertencia de batería baja', 'Düşük akü gerilimi uyarı eşiği'),
  rated_kw: t('Rated power', '额定功率', '額定功率', 'Номинальная мощность', 'Potencia nominal', 'Nominal güç'),
  rated_voltage: t('Rated voltage (L-N)', '额定相电压', '額定相電壓', 'Номинальное фазное напряжение', 'Tensión nominal (fase-neutro)', 'Nominal gerilim (faz-nötr)'),
  rated_frequency: t('Rated frequency', '额定频率', '額定頻率', 'Номинальная частота', 'Frecuencia nominal', 'Nominal frekans'),
  maintenance_interval_h: t('Maintenance interval', '保养周期', '保養週期', 'Интервал техобслуживания', 'Intervalo de mantenimiento', 'Bakım aralığı'),
  mains_fail_auto_start: t('Start on mains failure', '市电异常自动启动', '市電異常自動啟動', 'Пуск при отказе сети', 'Arranque por fallo de red', 'Şebeke kesintisinde çalıştırma'),
  idle_start: t('Start at idle speed', '怠速启动', '怠速啟動', 'Пуск на холостых оборотах', 'Arranque en ralentí', 'Rölantide çalıştırma'),
  panel_language: t('Panel language', '面板语言', '面板語言', 'Язык панели', 'Idioma del panel', 'Panel dili'),
} satisfies Record<string, ProtocolText>;

// prettier-ignore
export const MENU_NAMES = {
  engine: t('Engine', '发动机', '引擎', 'Двигатель', 'Motor', 'Motor'),
  engine_start: t('Start sequence', '启动设置', '啟動設定', 'Пуск', 'Secuencia de arranque', 'Çalıştırma sırası'),
  engine_stop: t('Stop sequence', '停机设置', '停機設定', 'Останов', 'Secuencia de parada', 'Durdurma sırası'),
  protection: t('Protection', '保护设置', '保護設定', 'Защиты', 'Protecciones', 'Korumalar'),
  generator: t('Generator', '发电机', '發電機', 'Генератор', 'Generador', 'Jeneratör'),
  mains: t('Mains', '市电', '市電', 'Сеть', 'Red', 'Şebeke'),
  maintenance: t('Maintenance', '保养', '保養', 'Техобслуживание', 'Mantenimiento', 'Bakım'),
  options: t('Controller options', '控制器选项', '控制器選項', 'Параметры контроллера', 'Opciones del controlador', 'Kontrol cihazı seçenekleri'),
} satisfies Record<string, ProtocolText>;

// prettier-ignore
export const MODE_LABELS = {
  stop: t('Stop', '停机', '停機', 'Стоп', 'Parada', 'Durdurma'),
  manual: t('Manual', '手动', '手動', 'Ручной', 'Manual', 'Manuel'),
  auto: t('Auto', '自动', '自動', 'Авто', 'Automático', 'Otomatik'),
  test: t('Test', '试机', '試機', 'Тест', 'Prueba', 'Test'),
  testOnLoad: t('Test on load', '带载试机', '帶載試機', 'Тест под нагрузкой', 'Prueba con carga', 'Yüklü test'),
  testOffLoad: t('Test off load', '空载试机', '空載試機', 'Тест без нагрузки', 'Prueba sin carga', 'Yüksüz test'),
  autoManualRestore: t('Auto, manual restore', '自动(手动恢复)', '自動(手動恢復)', 'Авто с ручным возвратом', 'Automático con retorno manual', 'Otomatik, manuel dönüş'),
} satisfies Record<string, ProtocolText>;

/** The configuration menus of both seed layouts. */
export const SEED_CONFIG_MENUS = [
  { key: 'engine', name: MENU_NAMES.engine },
  { key: 'engine_start', name: MENU_NAMES.engine_start, parent: 'engine' },
  { key: 'engine_stop', name: MENU_NAMES.engine_stop, parent: 'engine' },
  { key: 'protection', name: MENU_NAMES.protection },
  { key: 'generator', name: MENU_NAMES.generator },
  { key: 'mains', name: MENU_NAMES.mains },
  { key: 'maintenance', name: MENU_NAMES.maintenance },
  { key: 'options', name: MENU_NAMES.options },
];

/** The dropdowns shared by both seed layouts. */
export const SEED_OPTION_LISTS = [
  {
    key: 'rated_frequency',
    name: t('Rated frequency', '额定频率', '額定頻率', 'Номинальная частота', 'Frecuencia nominal', 'Nominal frekans'),
    options: [
      { value: 50, label: t('50 Hz', '50 Hz', '50 Hz', '50 Гц', '50 Hz', '50 Hz') },
      { value: 60, label: t('60 Hz', '60 Hz', '60 Hz', '60 Гц', '60 Hz', '60 Hz') },
    ],
  },
  {
    key: 'switch',
    name: t(
      'Disabled or enabled',
      '禁用或启用',
      '停用或啟用',
      'Выключено или включено',
      'Desactivado o activado',
      'Devre dışı veya etkin',
    ),
    options: [
      { value: 0, label: t('Disabled', '禁用', '停用', 'Выключено', 'Desactivado', 'Devre dışı') },
      { value: 1, label: t('Enabled', '启用', '啟用', 'Включено', 'Activado', 'Etkin') },
    ],
  },
  {
    key: 'panel_language',
    name: t('Panel language', '面板语言', '面板語言', 'Язык панели', 'Idioma del panel', 'Panel dili'),
    options: [
      { value: 0, label: t('English', '英语', '英語', 'Английский', 'Inglés', 'İngilizce') },
      { value: 1, label: t('Chinese', '中文', '中文', 'Китайский', 'Chino', 'Çince') },
      { value: 2, label: t('Russian', '俄语', '俄語', 'Русский', 'Ruso', 'Rusça') },
      { value: 3, label: t('Spanish', '西班牙语', '西班牙語', 'Испанский', 'Español', 'İspanyolca') },
    ],
  },
];

/** The switches register of both seed layouts: one setting per bit (or pair of bits), the other bits reserved. */
export const SEED_SWITCH_BITS = {
  mains_fail_auto_start: { start: 0, count: 1 },
  idle_start: { start: 1, count: 1 },
  panel_language: { start: 4, count: 2 },
} as const;

/** What the module-status screen shows about the cloud module of both seed layouts. */
// prettier-ignore
export const SEED_MODULE_ITEMS = [
  { key: 'signal_rssi', source: 'signal.rssi' as const, unit: 'dBm', name: t('Signal strength', '信号强度', '訊號強度', 'Уровень сигнала', 'Intensidad de señal', 'Sinyal gücü') },
  { key: 'signal_csq', source: 'signal.csq' as const, name: t('Signal quality (CSQ)', '信号质量(CSQ)', '訊號品質(CSQ)', 'Качество сигнала (CSQ)', 'Calidad de señal (CSQ)', 'Sinyal kalitesi (CSQ)') },
  { key: 'sim_iccid', source: 'hello.iccid' as const, name: t('SIM card (ICCID)', 'SIM 卡号(ICCID)', 'SIM 卡號(ICCID)', 'SIM-карта (ICCID)', 'Tarjeta SIM (ICCID)', 'SIM kart (ICCID)') },
  { key: 'sim_rx', source: 'sim.rxBytes' as const, unit: 'B', name: t('SIM data received', 'SIM 下行流量', 'SIM 下行流量', 'SIM: принято данных', 'SIM: datos recibidos', 'SIM: alınan veri') },
  { key: 'sim_tx', source: 'sim.txBytes' as const, unit: 'B', name: t('SIM data sent', 'SIM 上行流量', 'SIM 上行流量', 'SIM: передано данных', 'SIM: datos enviados', 'SIM: gönderilen veri') },
  { key: 'gps_lat', source: 'gps.lat' as const, unit: '°', decimals: 6, name: t('GPS latitude', 'GPS 纬度', 'GPS 緯度', 'GPS: широта', 'GPS: latitud', 'GPS enlemi') },
  { key: 'gps_lon', source: 'gps.lon' as const, unit: '°', decimals: 6, name: t('GPS longitude', 'GPS 经度', 'GPS 經度', 'GPS: долгота', 'GPS: longitud', 'GPS boylamı') },
  { key: 'gps_speed', source: 'gps.speed' as const, unit: 'km/h', decimals: 1, name: t('GPS speed', 'GPS 速度', 'GPS 速度', 'GPS: скорость', 'GPS: velocidad', 'GPS hızı') },
  { key: 'input_1', source: 'inputs' as const, input: 'in1', name: t('Module input 1', '模块输入 1', '模組輸入 1', 'Вход модуля 1', 'Entrada del módulo 1', 'Modül girişi 1') },
  { key: 'input_2', source: 'inputs' as const, input: 'in2', name: t('Module input 2', '模块输入 2', '模組輸入 2', 'Вход модуля 2', 'Entrada del módulo 2', 'Modül girişi 2') },
  { key: 'firmware', source: 'hello.firmware' as const, name: t('Module firmware', '模块固件版本', '模組韌體版本', 'Прошивка модуля', 'Firmware del módulo', 'Modül yazılımı') },
  { key: 'module_model', source: 'hello.model' as const, name: t('Module model', '模块型号', '模組型號', 'Модель модуля', 'Modelo del módulo', 'Modül modeli') },
  { key: 'uptime', source: 'heartbeat.uptimeS' as const, unit: 's', name: t('Module uptime', '模块运行时间', '模組運行時間', 'Время работы модуля', 'Tiempo en marcha del módulo', 'Modül çalışma süresi') },
];
