// The messages of the realtime channel (/ws, design API.md "Realtime WebSocket"): the heartbeat the console
// sends and the pushes it reads. Pushes are checked field by field; anything else is dropped.

/** Sent at once and every 120 s: the set the page watches (`token`) and any further sets (`tokens`). */
export interface HeartbeatMessage {
  method: 'wshb';
  token: string;
  utoken: string;
  language: string;
  /** Further sets to follow (at most MAX_WATCHED_TOKENS); only `token` switches its module to the online rate. */
  tokens?: string[];
  /** A group whose page is open: every member's module reports at the online rate. */
  group?: string;
}

/** The server accepts at most this many sets in `tokens`. */
export const MAX_WATCHED_TOKENS = 100;

export interface LiveAlarm {
  id: number;
  code: string;
  level: string;
  title: string;
  /** Start time, ms since the epoch. */
  start: number;
  end: number | null;
}

export interface MonitorPush {
  method: 'monitor';
  token: string;
  status: number;
  alarmnum: number;
  /** The controller's reading time, ms since the epoch (0 when nothing was read yet). */
  ts: number;
  values: Record<string, number | null>;
}

export interface AlarmPush {
  method: 'alarm';
  token: string;
  alarmnum: number;
  list: LiveAlarm[];
}

export interface ErrorPush {
  method: 'error';
  code: number;
  msg: string;
  /** The sets the server refused (unknown, or not visible to this user). */
  tokens: string[];
}

/** What the server cannot reach now (its database, the MQTT broker, Redis); empty once everything answers. */
export interface HealthPush {
  method: 'health';
  down: string[];
}

/** The signed-in person has new notices, or read some on another device: their unread count now. */
export interface NoticePush {
  method: 'notice';
  unread: number;
}

/** A firmware upgrade of the person's company moved (its state, progress or reason). */
export interface OtaPush {
  method: 'ota';
  jobId: number;
  state: string;
}

/**
 * A watched station's overview, status and alarm count (design: `{method: 'site', data}`, the station named in
 * data.token). Powers in kW (grid > 0 imports, battery > 0 discharges); null: no reading.
 */
export interface SitePush {
  method: 'site';
  token: string;
  alarmNum: number;
  status: number;
  gridKw: number | null;
  pvKw: number | null;
  batteryKw: number | null;
  loadKw: number | null;
  soc: number | null;
  ts: number | null;
  todayChargeKwh: number;
  todayDischargeKwh: number;
  todayIncome: number;
  runningVersion: number | null;
  safe: string | null;
}

export type RealtimePush = MonitorPush | AlarmPush | ErrorPush | HealthPush | NoticePush | OtaPush | SitePush;

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isToken = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function values(raw: unknown): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  if (!isObject(raw)) return out;
  for (const [key, value] of Object.entries(raw)) out[key] = isNumber(value) ? value : null;
  return out;
}

function alarm(raw: unknown): LiveAlarm | null {
  if (!isObject(raw) || !isNumber(raw.id) || typeof raw.code !== 'string') return null;
  return {
    id: raw.id,
    code: raw.code,
    level: typeof raw.level === 'string' ? raw.level : '',
    title: typeof raw.title === 'string' ? raw.title : raw.code,
    start: isNumber(raw.start) ? raw.start : 0,
    end: isNumber(raw.end) ? raw.end : null,
  };
}

const orNull = (value: unknown): number | null => (isNumber(value) ? value : null);
const orZero = (value: unknown): number => (isNumber(value) ? value : 0);

function sitePush(data: Loose): SitePush | null {
  if (!isToken(data.token)) return null;
  return {
    method: 'site',
    token: data.token,
    alarmNum: orZero(data.alarmNum),
    status: orZero(data.status),
    gridKw: orNull(data.gridKw),
    pvKw: orNull(data.pvKw),
    batteryKw: orNull(data.batteryKw),
    loadKw: orNull(data.loadKw),
    soc: orNull(data.soc),
    ts: orNull(data.ts),
    todayChargeKwh: orZero(data.todayChargeKwh),
    todayDischargeKwh: orZero(data.todayDischargeKwh),
    todayIncome: orZero(data.todayIncome),
    runningVersion: orNull(data.runningVersion),
    safe: typeof data.safe === 'string' ? data.safe : null,
  };
}

/** The push in a frame, or null for anything the console does not understand (and a push without a token). */
export function parsePush(text: string): RealtimePush | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(raw)) return null;
  if (raw.method === 'monitor' && isToken(raw.token) && isObject(raw.data)) {
    const data = raw.data;
    return {
      method: 'monitor',
      token: raw.token,
      status: isNumber(data.status) ? data.status : 0,
      alarmnum: isNumber(data.alarmnum) ? data.alarmnum : 0,
      ts: isNumber(data.ts) ? data.ts : 0,
      values: values(data.values),
    };
  }
  if (raw.method === 'alarm' && isToken(raw.token)) {
    const list = Array.isArray(raw.list) ? raw.list.map(alarm).filter((a): a is LiveAlarm => a !== null) : [];
    return { method: 'alarm', token: raw.token, alarmnum: isNumber(raw.alarmnum) ? raw.alarmnum : list.length, list };
  }
  if (raw.method === 'site' && isObject(raw.data)) return sitePush(raw.data);
  if (raw.method === 'health' && Array.isArray(raw.down)) {
    return { method: 'health', down: raw.down.filter((d): d is string => typeof d === 'string') };
  }
  if (raw.method === 'notice' && isNumber(raw.unread)) {
    return { method: 'notice', unread: Math.max(0, Math.floor(raw.unread)) };
  }
  if (raw.method === 'ota' && isObject(raw.job) && isNumber(raw.job.id)) {
    return { method: 'ota', jobId: raw.job.id, state: typeof raw.job.state === 'string' ? raw.job.state : '' };
  }
  if (raw.method === 'error') {
    const tokens = Array.isArray(raw.tokens) ? raw.tokens.filter(isToken) : isToken(raw.token) ? [raw.token] : [];
    return {
      method: 'error',
      code: isNumber(raw.code) ? raw.code : 0,
      msg: typeof raw.msg === 'string' ? raw.msg : '',
      tokens,
    };
  }
  return null;
}
