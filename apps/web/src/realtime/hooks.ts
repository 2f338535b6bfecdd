// React hooks over the shared realtime connection: one set watched closely, or many followed at once.
import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { watchSets } from './client.ts';
import type { ConnectionState } from './connection.ts';
import type { SitePush } from './messages.ts';
import { useRealtimeStore, type LiveSet, type RealtimeState } from './store.ts';

export interface RealtimeOptions {
  /** Retry when the connection drops (default true; the maintenance tab passes false, spec 4). */
  reconnect?: boolean;
  /** false: watch nothing for now. */
  enabled?: boolean;
}

export interface FleetRealtimeOptions extends RealtimeOptions {
  /** The sets are the members of this group: they report at the online rate while the page is open. */
  group?: string;
}

export interface SetRealtime {
  /** What the server pushed for this set; undefined until its first push. */
  live: LiveSet | undefined;
  connection: ConnectionState;
  /** The socket is open: pushes arrive. Show "offline" otherwise. */
  online: boolean;
}

export function useRealtimeConnection(): ConnectionState {
  return useRealtimeStore((s) => s.connection);
}

/** Watches one set closely: its module reports at the online rate while the page is open. */
export function useSetRealtime(token: string | null | undefined, options: RealtimeOptions = {}): SetRealtime {
  return useWatchedOne(token, options, (s, key) => s.sets[key]);
}

/** Watches the set or station `token`; `pick` reads its last push from the store. */
function useWatchedOne<T>(
  token: string | null | undefined,
  options: RealtimeOptions,
  pick: (state: RealtimeState, token: string) => T | undefined,
): { live: T | undefined; connection: ConnectionState; online: boolean } {
  const reconnect = options.reconnect ?? true;
  const enabled = (options.enabled ?? true) && Boolean(token);
  useEffect(() => {
    if (!enabled || !token) return;
    return watchSets({ token, reconnect });
  }, [token, reconnect, enabled]);
  const live = useRealtimeStore((s) => (enabled && token ? pick(s, token) : undefined));
  const connection = useRealtimeConnection();
  return { live, connection, online: connection === 'open' };
}

export interface FleetRealtime {
  /** Pushes so far by set token (sets without one yet are absent). */
  sets: Record<string, LiveSet>;
  connection: ConnectionState;
  online: boolean;
}

/** Follows many sets (at most 100 are sent to the server) without raising their modules' rates. */
export function useFleetRealtime(tokens: readonly string[], options: FleetRealtimeOptions = {}): FleetRealtime {
  const reconnect = options.reconnect ?? true;
  const group = options.group;
  const key = [...new Set(tokens.filter(Boolean))].join(',');
  const enabled = (options.enabled ?? true) && key.length > 0;
  const list = useMemo(() => (key ? key.split(',') : []), [key]);
  useEffect(() => {
    if (!enabled) return;
    return watchSets({ tokens: list, reconnect, ...(group ? { group } : {}) });
  }, [list, reconnect, enabled, group]);
  const sets = useRealtimeStore(
    useShallow((s) => {
      const picked: Record<string, LiveSet> = {};
      if (!enabled) return picked;
      for (const token of list) {
        const set = s.sets[token];
        if (set) picked[token] = set;
      }
      return picked;
    }),
  );
  const connection = useRealtimeConnection();
  return { sets, connection, online: connection === 'open' };
}

export interface SiteRealtime {
  /** The station's last push; undefined until the first (the server sends one as soon as it accepts the watch). */
  live: SitePush | undefined;
  connection: ConnectionState;
  online: boolean;
}

/** Watches one station: its sets report at the online rate and every change of its overview is pushed. */
export function useSiteRealtime(token: string | null | undefined, options: RealtimeOptions = {}): SiteRealtime {
  return useWatchedOne(token, options, (s, key) => s.sites[key]);
}
