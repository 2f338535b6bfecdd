// What the realtime channel said last about each watched set, and the state of the connection. Written only
// by the shared connection (client.ts); read through the hooks.
import { create } from 'zustand';
import type { ConnectionState } from './connection.ts';
import type { LiveAlarm, RealtimePush, SitePush } from './messages.ts';

export interface LiveSet {
  token: string;
  /** 0 offline, 1 stopped, 2 standby, 3 running; null until the first monitor push. */
  status: number | null;
  alarmnum: number | null;
  /** The controller's reading time of `values`, ms since the epoch. */
  ts: number | null;
  /** Latest value of every data item by key (scaled, in the item's unit); null: no data. */
  values: Record<string, number | null>;
  /** Open alarms; null until the first alarm push. */
  alarms: LiveAlarm[] | null;
  /** Why the server refused to watch this set. */
  error: string | null;
}

export interface RealtimeState {
  connection: ConnectionState;
  sets: Record<string, LiveSet>;
  /** What the server said it cannot reach (database, broker, redis) on the open connection; empty: nothing. */
  serverDown: string[];
  /** The person's unread notices as last pushed (null: nothing pushed yet), and a count of pushes. */
  notices: { unread: number | null; pushes: number };
  /** Firmware upgrades that moved: a count of pushes (the upgrade lists refresh on each). */
  ota: { pushes: number };
  /** The last push of each watched station, by station token. */
  sites: Record<string, SitePush>;
}

export const useRealtimeStore = create<RealtimeState>(() => ({
  connection: 'idle',
  sets: {},
  serverDown: [],
  notices: { unread: null, pushes: 0 },
  ota: { pushes: 0 },
  sites: {},
}));

function empty(token: string): LiveSet {
  return { token, status: null, alarmnum: null, ts: null, values: {}, alarms: null, error: null };
}

/**
 * Applies pushes in their order as one change of the store: what watches it renders once for all of them. The
 * sets and stations that changed get new objects, the others keep theirs (their watchers do not render).
 */
export function applyPushes(pushes: readonly RealtimePush[]): void {
  if (pushes.length === 0) return;
  useRealtimeStore.setState((state) => {
    const next: Partial<RealtimeState> = {};
    let sets: Record<string, LiveSet> | undefined;
    let sites: Record<string, SitePush> | undefined;
    let notices = state.notices;
    let ota = state.ota;
    for (const push of pushes) {
      switch (push.method) {
        case 'health':
          next.serverDown = push.down;
          break;
        case 'notice':
          next.notices = notices = { unread: push.unread, pushes: notices.pushes + 1 };
          break;
        case 'ota':
          next.ota = ota = { pushes: ota.pushes + 1 };
          break;
        case 'site':
          (sites ??= { ...state.sites })[push.token] = push;
          break;
        case 'error':
          sets ??= { ...state.sets };
          for (const token of push.tokens) sets[token] = { ...(sets[token] ?? empty(token)), error: push.msg };
          break;
        default: {
          sets ??= { ...state.sets };
          const prev = sets[push.token] ?? empty(push.token);
          sets[push.token] =
            push.method === 'monitor'
              ? { ...prev, status: push.status, alarmnum: push.alarmnum, ts: push.ts, values: push.values, error: null }
              : { ...prev, alarmnum: push.alarmnum, alarms: push.list, error: null };
        }
      }
    }
    if (sets) next.sets = sets;
    if (sites) next.sites = sites;
    return next;
  });
}

export function applyPush(push: RealtimePush): void {
  applyPushes([push]);
}

/**
 * Pushes come in bursts (a page that watches twenty sets is sent twenty states at once, a fleet reports within the
 * same second): each of them alone would render every page watching the store again, the whole list each time.
 * They are gathered for at most this long and applied together.
 */
export const PUSH_BATCH_MS = 16;
let pending: RealtimePush[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;

/** Queues a push from the connection; it is applied with the others of its burst within PUSH_BATCH_MS. */
export function queuePush(push: RealtimePush): void {
  pending.push(push);
  flushTimer ??= setTimeout(flushPushes, PUSH_BATCH_MS);
}

/** Applies the queued pushes now (before anything that must come after them). */
export function flushPushes(): void {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  const batch = pending;
  pending = [];
  applyPushes(batch);
}

export function setConnectionState(connection: ConnectionState): void {
  // what came before the connection changed is applied before it
  flushPushes();
  // what a server said holds for its connection only: a new one is told again
  useRealtimeStore.setState(connection === 'open' ? { connection } : { connection, serverDown: [] });
}

/** Drops what was received for sets nobody watches any more, so a later visit starts from fresh pushes. */
export function keepOnly(watched: ReadonlySet<string>): void {
  flushPushes();
  const { sets, sites } = useRealtimeStore.getState();
  const staleSites = Object.keys(sites).filter((token) => !watched.has(token));
  if (staleSites.length) {
    const next = { ...sites };
    for (const token of staleSites) delete next[token];
    useRealtimeStore.setState({ sites: next });
  }
  const stale = Object.keys(sets).filter((token) => !watched.has(token));
  if (stale.length === 0) return;
  const next = { ...sets };
  for (const token of stale) delete next[token];
  useRealtimeStore.setState({ sets: next });
}
