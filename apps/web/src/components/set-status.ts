// A set's status as the console shows it (spec 3): 0 offline, 1 shutdown, 2 standby, 3 running, and "alarm"
// when active alarms stand; each with a colour (a tag tone, and hex for maps and charts) and a word.
import type { Tone } from './tone-tag.tsx';
export type SetStatusKey = 'offline' | 'shutdown' | 'standby' | 'running' | 'alarm';

export const STATUS_KEYS: readonly SetStatusKey[] = ['offline', 'shutdown', 'standby', 'running', 'alarm'];

const BY_CODE: Record<number, SetStatusKey> = { 0: 'offline', 1: 'shutdown', 2: 'standby', 3: 'running' };

export const STATUS_TONE: Record<SetStatusKey, Tone> = {
  offline: 'grey',
  shutdown: 'orange',
  standby: 'blue',
  running: 'green',
  alarm: 'red',
};

export const STATUS_HEX: Record<SetStatusKey, string> = {
  offline: '#8c8c8c',
  shutdown: '#d46b08',
  standby: '#1677ff',
  running: '#389e0d',
  alarm: '#cf1322',
};

/** The status word of a status code (unknown codes read as offline). */
export function statusKey(code: number | null | undefined): SetStatusKey {
  return (code !== null && code !== undefined && BY_CODE[code]) || 'offline';
}

/** The key a map or a count uses: alarm outranks the running state when the set is online. */
export function displayStatus(code: number | null | undefined, alarmCount = 0): SetStatusKey {
  const key = statusKey(code);
  return alarmCount > 0 && key !== 'offline' ? 'alarm' : key;
}
