// A set's state as the console shows it: one of the partition's four states (protocol SET_STATES: offline,
// stopped — keyed `shutdown` — standby, running), each with a colour (a tag tone, and hex for maps and charts)
// and one word (`gensets.status.<state>`) used by every page; active alarms are an overlay shown beside the
// state (a red ring, a count), never in its place.
import { setStateOf, SET_STATES, type SetState } from '@genset/protocol';
import type { Tone } from './tone-tag.tsx';

/** A state of the partition, or `alarm` for the overlay (its colour and word in legends and filters). */
export type SetStatusKey = SetState | 'alarm';

/** The partition's states in the order pages list them. */
export const STATE_ORDER: readonly SetState[] = ['running', 'standby', 'shutdown', 'offline'];

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

/** The state of a status code (unknown codes and no data read offline). */
export function statusKey(code: number | null | undefined): SetState {
  return setStateOf(code);
}

/** The translation key of a status code's word: the one word of the state in every page. */
export function stateWordKey(code: number | null | undefined): `gensets.status.${SetState}` {
  return `gensets.status.${setStateOf(code)}`;
}

export { SET_STATES };
