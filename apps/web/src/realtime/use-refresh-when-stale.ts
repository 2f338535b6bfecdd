// An answer the realtime channel can overtake (the home summary, a page of a set list): when pushes show it
// is out of date, fetch it again, at most once per gap; a change within the gap is picked up when it ends.
import { useEffect, useRef } from 'react';
import type { LiveSet } from './store.ts';

/** Pushes that make an answer stale fetch it again at most this often. */
export const REFRESH_GAP_MS = 5_000;

/**
 * Whether a set's pushes say more than a row fetched before them: another status or alarm count, or, when
 * the row knows when its values were read, newer values.
 */
export function pushedSince(
  live: LiveSet | undefined,
  row: { status: number; alarmCount: number; lastSeen?: number | null },
): boolean {
  if (!live || live.status === null) return false;
  if (live.status !== row.status || (live.alarmnum ?? row.alarmCount) !== row.alarmCount) return true;
  return row.lastSeen !== undefined && live.ts !== null && live.ts > (row.lastSeen ?? 0);
}

export function useRefreshWhenStale(stale: boolean, refresh: () => unknown, gapMs = REFRESH_GAP_MS): void {
  const latest = useRef(refresh);
  const lastRefresh = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    latest.current = refresh;
  });
  // After every render: each push renders again, so an answer still stale after a refresh is asked again.
  useEffect(() => {
    if (!stale || pending.current) return;
    const wait = Math.max(0, lastRefresh.current + gapMs - Date.now());
    pending.current = setTimeout(() => {
      pending.current = null;
      lastRefresh.current = Date.now();
      void latest.current();
    }, wait);
  });
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
}
