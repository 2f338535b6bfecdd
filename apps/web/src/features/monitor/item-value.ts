// The text of one reading: the enumeration's label, "yes"/"no" for on/off states, else the number with the
// protocol's decimals and unit.
import type { TFunction } from 'i18next';
import { formatWithUnit, NO_READING } from './format.ts';
import { isOnOff, type LiveItem } from './live-items.ts';

export function itemText(item: LiveItem, t: TFunction): string {
  if (item.value === null) return NO_READING;
  if (item.label !== null) return item.label;
  if (isOnOff(item)) return t(item.value ? 'live.yes' : 'live.no');
  return formatWithUnit(item.value, item.decimals, item.unit);
}

/** The order in which groups of items are shown. */
export const GROUP_ORDER = ['engine', 'generator', 'mains', 'battery', 'counters', 'maintenance', 'status', 'location'];

export function groupRank(group: string): number {
  const index = GROUP_ORDER.indexOf(group);
  return index === -1 ? GROUP_ORDER.length : index;
}
