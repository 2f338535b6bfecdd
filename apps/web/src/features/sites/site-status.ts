// A station's state (contract SITE_STATUSES): 0 offline, 1 stopped, 2 standby, 3 charging, 4 discharging; each
// with a tag tone, a colour for drawings and a word (never colour alone).
import { SITE_STATUSES, type SiteStatusName } from '@genset/protocol';
import type { Tone } from '../../components/tone-tag.tsx';

export const SITE_STATUS_TONE: Record<SiteStatusName, Tone> = {
  offline: 'grey',
  stopped: 'orange',
  standby: 'blue',
  charging: 'cyan',
  discharging: 'green',
};

export const SITE_STATUS_HEX: Record<SiteStatusName, string> = {
  offline: '#8c8c8c',
  stopped: '#d46b08',
  standby: '#1677ff',
  charging: '#08979c',
  discharging: '#389e0d',
};

/** The state of a status code (unknown codes read as offline). */
export function siteStatusName(code: number | null | undefined): SiteStatusName {
  return (code !== null && code !== undefined ? SITE_STATUSES[code] : undefined) ?? 'offline';
}
