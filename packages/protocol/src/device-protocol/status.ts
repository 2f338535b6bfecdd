// Reads alarms and the set status out of decoded values, using only what the protocol document says,
// so a new controller model needs a new document and no new server code.
import type { DecodedValues } from './codec.ts';
import type { AlarmLevel, Condition, ProtocolDocument } from './schema.ts';
import type { ProtocolText } from './text.ts';

/** True when the value meets the condition; a missing or "no data" value never does. */
export function evaluateCondition(condition: Condition, value: number | null | undefined): boolean {
  if (value === null || value === undefined || Number.isNaN(value)) return false;
  switch (condition.op) {
    case 'set':
      return value !== 0;
    case 'clear':
      return value === 0;
    case 'bit':
      // Bit fields above bit 30 do not fit a signed 32-bit shift; divide instead.
      return Math.floor(Math.trunc(value) / 2 ** condition.bit) % 2 !== 0;
    case 'equals':
      return value === condition.value;
    case 'in':
      return condition.values.includes(value);
    case 'notIn':
      return !condition.values.includes(value);
  }
}

export interface ActiveAlarm {
  code: string;
  level: AlarmLevel;
  title: ProtocolText;
  item: string;
}

export function evaluateAlarms(doc: ProtocolDocument, values: DecodedValues): ActiveAlarm[] {
  const active: ActiveAlarm[] = [];
  for (const alarm of doc.alarms) {
    if (evaluateCondition(alarm.condition, values[alarm.item])) {
      active.push({ code: alarm.code, level: alarm.level, title: alarm.title, item: alarm.item });
    }
  }
  return active;
}

export type ControllerModeName = 'stop' | 'manual' | 'auto' | 'test';
export type EnginePhase = 'stopped' | 'starting' | 'running' | 'cooling' | 'stopping';

/** Set status as shown in lists and the top bar; 0 (offline) is decided by the connection, not by values. */
export const SET_STATUS = { closed: 1, standby: 2, running: 3 } as const;
export type SetStatus = (typeof SET_STATUS)[keyof typeof SET_STATUS];

export interface GensetStatusSummary {
  /** 1 closed/shut down, 2 standby, 3 running (anything from preheat to the end of the stop). */
  status: SetStatus;
  phase: EnginePhase | null;
  mode: ControllerModeName | null;
  /** Engine at rated operation (running or cooling down). */
  running: boolean;
  starting: boolean;
  /** At rest in AUTO or MANUAL with no shutdown or trip latched: ready to start. */
  standby: boolean;
  onLoad: boolean | null;
  /** Any alarm of any level, from the alarm list or the controller's summary flags. */
  alarm: boolean;
  warning: boolean;
  shutdown: boolean;
  trip: boolean;
  activeAlarms: ActiveAlarm[];
}

function flag(values: DecodedValues, key: string | undefined): boolean {
  if (!key) return false;
  const value = values[key];
  return value !== null && value !== undefined && value !== 0;
}

export function deriveStatus(doc: ProtocolDocument, values: DecodedValues): GensetStatusSummary {
  const activeAlarms = evaluateAlarms(doc, values);
  const rules = doc.statusRules;
  const hasLevel = (level: AlarmLevel) => activeAlarms.some((alarm) => alarm.level === level);
  const warning = hasLevel('warning') || flag(values, rules?.alarmFlags.warning);
  const shutdown = hasLevel('shutdown') || flag(values, rules?.alarmFlags.shutdown);
  const trip = hasLevel('trip') || flag(values, rules?.alarmFlags.trip);
  const alarm = warning || shutdown || trip || activeAlarms.length > 0 || flag(values, rules?.alarmFlags.common);

  let mode: ControllerModeName | null = null;
  let phase: EnginePhase | null = null;
  let onLoad: boolean | null = null;
  if (rules) {
    const modeValue = values[rules.modeItem];
    if (modeValue !== null && modeValue !== undefined) {
      const names = ['stop', 'manual', 'auto', 'test'] as const;
      mode = names.find((name) => rules.modes[name].includes(modeValue)) ?? null;
    }
    const stateValue = values[rules.engineStateItem];
    if (stateValue !== null && stateValue !== undefined) {
      const phases = ['starting', 'running', 'cooling', 'stopping'] as const;
      phase = phases.find((name) => rules.engineStates[name].includes(stateValue)) ?? 'stopped';
    }
    if (rules.onLoadItem) {
      const onLoadValue = values[rules.onLoadItem];
      onLoad = onLoadValue === null || onLoadValue === undefined ? null : onLoadValue !== 0;
    }
  }

  const running = phase === 'running' || phase === 'cooling';
  const starting = phase === 'starting';
  const atRest = phase === 'stopped';
  // Ready to run: at rest in AUTO (starts on demand) or MANUAL (starts when told), nothing latched.
  const standby = atRest && (mode === 'auto' || mode === 'manual') && !shutdown && !trip;
  const status: SetStatus =
    phase !== null && !atRest ? SET_STATUS.running : standby ? SET_STATUS.standby : SET_STATUS.closed;
  return { status, phase, mode, running, starting, standby, onLoad, alarm, warning, shutdown, trip, activeAlarms };
}
