// Every data item of a set with its latest value: names, units, decimals and enumeration labels from
// /realTimeData/monitorList, values kept live by the realtime pushes. A value whose label is not known yet
// (the mode changed to one not seen before) fetches the list once more to learn it.
import { useEffect, useMemo, useRef } from 'react';
import type { MonitorItem } from '@genset/protocol';
import { useSetRealtime, type LiveAlarm } from '../../realtime/index.ts';
import { useMonitorList } from './api.ts';

export interface LiveItem extends MonitorItem {
  /** The value came from a push (else from the list call). */
  live: boolean;
}

export interface LiveItems {
  items: LiveItem[];
  byKey: Map<string, LiveItem>;
  status: number | null;
  alarmnum: number | null;
  /** Reading time of the values shown. */
  ts: number | null;
  alarms: LiveAlarm[] | null;
  online: boolean;
  connection: ReturnType<typeof useSetRealtime>['connection'];
  isPending: boolean;
  error: Error | null;
  refetch: () => void;
}

/** Items that carry on/off states (bits of the protocol). */
export function isOnOff(item: Pick<MonitorItem, 'type' | 'label'>): boolean {
  return item.type === 'bit' && item.label === null;
}

/** Labels of enumerated values seen so far, by set, item and value (they do not change while a page lives). */
const labelCache = new Map<string, Map<string, Map<number, string>>>();

function learnLabels(token: string, items: readonly MonitorItem[]): Map<string, Map<number, string>> {
  let bySet = labelCache.get(token);
  if (!bySet) labelCache.set(token, (bySet = new Map()));
  for (const item of items) {
    if (item.value === null || item.label === null) continue;
    let known = bySet.get(item.key);
    if (!known) bySet.set(item.key, (known = new Map()));
    known.set(item.value, item.label);
  }
  return bySet;
}

export function useLiveItems(token: string, options: { reconnect?: boolean } = {}): LiveItems {
  const list = useMonitorList(token);
  const { live, online, connection } = useSetRealtime(token, { reconnect: options.reconnect ?? true });
  const asked = useRef(new Set<string>());
  const data = list.data;
  // labels seen in any answer of the list call, by item and value
  const labels = useMemo(() => learnLabels(token, data?.items ?? []), [token, data]);

  const merged = useMemo(() => {
    const values = live?.values;
    return (data?.items ?? []).map((item): LiveItem => {
      if (!values || !(item.key in values)) return { ...item, live: false };
      const value = values[item.key] ?? null;
      const label = value === null ? null : (labels.get(item.key)?.get(value) ?? null);
      return { ...item, value, label, live: true };
    });
  }, [data, labels, live?.values]);

  // an enumerated value without a known label, or a state item that had no reading when the list was
  // fetched (it may be enumerated): ask the list again
  const listed = useMemo(() => new Map((data?.items ?? []).map((item) => [item.key, item])), [data]);
  const unknown = merged.find(
    (item) =>
      item.live &&
      item.value !== null &&
      item.label === null &&
      (labels.has(item.key) ||
        (item.group === 'status' && item.type !== 'bit' && listed.get(item.key)?.value === null)),
  );
  const unknownKey = unknown ? `${unknown.key}:${unknown.value}` : '';
  const { refetch } = list;
  useEffect(() => {
    if (!unknownKey || asked.current.has(unknownKey)) return;
    asked.current.add(unknownKey);
    void refetch();
  }, [unknownKey, refetch]);

  const byKey = useMemo(() => new Map(merged.map((item) => [item.key, item])), [merged]);
  return {
    items: merged,
    byKey,
    status: live?.status ?? data?.status ?? null,
    alarmnum: live?.alarmnum ?? data?.alarmnum ?? null,
    ts: live?.ts || data?.ts || null,
    alarms: live?.alarms ?? null,
    online,
    connection,
    isPending: list.isPending,
    error: list.error,
    refetch: () => void list.refetch(),
  };
}
