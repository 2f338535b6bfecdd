// The realtime WebSocket (/ws): the console names the set it watches in its `wshb` heartbeat; the server
// checks the user's token and rights, then pushes `monitor` and `alarm` messages for that set only. A page
// that shows many sets (the home page, the monitor grid) lists them in `tokens` (at most 100): it gets their
// pushes too, but only the one `token` switches its module to the online rate. A group's page names the group
// in `group`: every member of a parallel or multi-machine group (at most 16) reports at the online rate then,
// since the page is there to watch them act together (synchronise, share the load). A station's pages name the
// station's token in `token`: they get `{method: 'site', data}` (its overview and alarm count) whenever one of
// its sets reports or its EMS status changes, and its sets report at the online rate meanwhile.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import { hasAnyPermission, Permission, pickLanguage, ResultCode, type Language } from '@genset/protocol';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { AuthService } from '../auth/service.ts';
import type { AccountService, Grant } from '../account/service.ts';
import type { UserRow } from '../auth/repository.ts';
import type { RealtimeBus, MonitorMessage, AlarmMessage } from './bus.ts';
import type { Fleet } from './fleet.ts';
import type { Planner } from './plans.ts';
import type { ServiceHealth } from './service-health.ts';

/** The console sends a heartbeat every 120 s; two missed ones end the connection. */
export const HEARTBEAT_TIMEOUT_MS = 300_000;

/** The most sets one connection may list in `tokens`. */
export const MAX_WATCHED_SETS = 100;

/** A set token as the server makes them (base64url); anything else names no set and is not looked up. */
const setToken = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_-]*$/);

const heartbeat = z.object({
  method: z.literal('wshb'),
  token: setToken.default(''),
  tokens: z.array(setToken).max(MAX_WATCHED_SETS).optional(),
  group: setToken.optional(),
  utoken: z.string().max(100),
  language: z.string().max(20).optional(),
});

/** Stations as the realtime channel needs them (given by the stations' module once it is there). */
export interface StationWatch {
  /** The station named by token if the user may see it: its id and the ids of its sets. */
  resolve(
    user: UserRow,
    grant: Grant,
    token: string,
  ): Promise<{ siteId: number; token: string; gensetIds: number[] } | null>;
  /** What a station's pages are pushed now (`data` of the `site` message); null when it is gone. */
  push(siteId: number): Promise<object | null>;
}

/** Pushes of one station are gathered for this long: its sets report one after the other. */
const STATION_PUSH_DELAY_MS = 200;
/** Set changes come in bursts (a hand-over moves ownership and subscriptions): rights are checked once after. */
const RECHECK_DELAY_MS = 100;

interface Watcher {
  socket: WebSocket;
  /** The user of the last heartbeat: another user's heartbeat on the same connection starts from nothing. */
  userId: number | null;
  /** The company of that user: its firmware upgrades are pushed as they move. */
  companyId?: number;
  /** Heartbeats are handled one after the other, in the order they came. */
  queue: Promise<void>;
  /** The set of `token`: watched at the online rate. */
  gensetId: number | null;
  token: string;
  /** The sets of `tokens` (id → token), and the list as last sent, to skip unchanged heartbeats. */
  many: Map<number, string>;
  manyKey: string;
  /** The members of the watched group (id → token), at the online rate, and the group's token. */
  group: Map<number, string>;
  groupKey: string;
  /** The station of `token`, when `token` names a station rather than a set. */
  station: { siteId: number; token: string; gensetIds: number[] } | null;
  lang: Language;
  timer: NodeJS.Timeout;
  /** Who the last heartbeat's session was: their rights are checked again when sets change hands. */
  session?: { user: UserRow; grant: Grant };
}

export interface RealtimeOptions {
  /** What the server cannot reach now: every open console is told when it changes. */
  health: ServiceHealth;
  auth: AuthService;
  accounts: AccountService;
  fleet: Fleet;
  planner: Planner;
  bus: RealtimeBus;
  snapshot: (gensetId: number) => Promise<{ monitor: MonitorMessage; alarm: AlarmMessage } | null>;
  /** The member sets of a group, in order; undefined for an unknown group. */
  groupMembers?: (groupToken: string) => Promise<{ id: number; token: string }[] | undefined>;
  /** Stations, once their module is registered (a `token` that names no set may name one). */
  stations?: () => StationWatch | undefined;
}

export async function realtimeRoutes(app: FastifyInstance, opts: RealtimeOptions) {
  const bySet = new Map<number, Set<Watcher>>();

  const send = (w: Watcher, message: unknown) => {
    if (w.socket.readyState === w.socket.OPEN) w.socket.send(JSON.stringify(message));
  };
  const monitorPush = (w: Watcher, m: MonitorMessage) =>
    send(w, {
      method: 'monitor',
      token: m.token,
      data: { status: m.status, alarmnum: m.alarmnum, ts: m.ts, values: m.values },
    });
  // The alarm list is for alarm:view only (the alarm count rides on `monitor` with the set's status).
  const alarmPush = (w: Watcher, m: AlarmMessage) =>
    w.session &&
    hasAnyPermission(w.session.grant.permissions, [Permission.alarmView]) &&
    send(w, {
      method: 'alarm',
      token: m.token,
      alarmnum: m.alarmnum,
      list: m.list.map((a) => ({ ...a, title: a.title[w.lang] ?? a.title['en-US'] ?? a.code })),
    });

  // Every open connection hears when the server loses (or gets back) its database, broker or Redis: until then
  // the values on its pages are the last ones pushed, not live ones.
  const everyone = new Set<Watcher>();
  const healthPush = (w: Watcher) => send(w, { method: 'health', down: opts.health.down() });
  const unsubscribeHealth = opts.health.subscribe(() => {
    for (const w of everyone) if (w.userId !== null) healthPush(w);
  });

  // Stations watched: by station, and the stations each of their sets belongs to.
  const bySite = new Map<number, Set<Watcher>>();
  const sitesOfSet = new Map<number, Map<number, number>>();
  const pushTimers = new Map<number, NodeJS.Timeout>();
  const schedulePush = (siteId: number) => {
    if (pushTimers.has(siteId) || !bySite.has(siteId)) return;
    const timer = setTimeout(() => {
      pushTimers.delete(siteId);
      void pushStation(siteId).catch((err: unknown) => app.log.warn({ err, siteId }, 'station push failed'));
    }, STATION_PUSH_DELAY_MS);
    timer.unref();
    pushTimers.set(siteId, timer);
  };
  async function pushStation(siteId: number, only?: Watcher) {
    const watchers = only ? [only] : [...(bySite.get(siteId) ?? [])];
    if (watchers.length === 0) return;
    const data = await opts.stations?.()?.push(siteId);
    if (!data) return;
    for (const w of watchers) if (w.station?.siteId === siteId) send(w, { method: 'site', data });
  }
  const stationSetChanged = (gensetId: number) => {
    for (const siteId of sitesOfSet.get(gensetId)?.keys() ?? []) schedulePush(siteId);
  };

  const unsubscribeMonitor = opts.bus.subscribe('monitor', (m) => {
    for (const w of bySet.get(m.gensetId) ?? []) monitorPush(w, m);
    stationSetChanged(m.gensetId);
  });
  const unsubscribeAlarm = opts.bus.subscribe('alarm', (m) => {
    for (const w of bySet.get(m.gensetId) ?? []) alarmPush(w, m);
    stationSetChanged(m.gensetId);
  });
  const unsubscribeSite = opts.bus.subscribe('site', (m) => schedulePush(m.siteId));
  // Sets changed (an owner, a company, a subscription, a department: a hand-over accepted, a set moved to another
  // department, say, or what data scopes reach): every page's rights on what it watches (sets and stations) are
  // checked again at once, here and on every instance, rather than at its next heartbeat, so a set handed over
  // or moved out of reach stops reaching those pages within a second.
  let recheckTimer: NodeJS.Timeout | undefined;
  const unsubscribeSets = opts.bus.subscribe('sets', () => {
    if (recheckTimer) return;
    recheckTimer = setTimeout(() => {
      recheckTimer = undefined;
      for (const w of everyone) {
        if (!w.session || (w.gensetId === null && w.many.size === 0 && !w.station)) continue;
        w.queue = w.queue
          .then(() => recheck(w))
          .catch((err: unknown) => app.log.warn({ err }, 'realtime rights check failed'));
      }
    }, RECHECK_DELAY_MS);
    recheckTimer.unref();
  });
  // A person's new notices ring the bell of every console they have open, whichever set it watches.
  const unsubscribeNotice = opts.bus.subscribe('notice', (m) => {
    for (const w of everyone) {
      const unread = w.userId === null ? undefined : m.unread[w.userId];
      if (unread !== undefined) send(w, { method: 'notice', unread });
    }
  });
  // A firmware upgrade that moved is shown live on the upgrade pages of its company's consoles.
  const unsubscribeOta = opts.bus.subscribe('ota', (m) => {
    for (const w of everyone) {
      if (w.userId === null || w.companyId !== m.companyId) continue;
      const reason = m.job.reason.startsWith('ota.') ? translate(w.lang, m.job.reason) : m.job.reason;
      send(w, { method: 'ota', job: { ...m.job, reason } });
    }
  });
  // A person signed out by an administrator (disabled, removed, given a temporary password): their open
  // connections close at once, on every instance.
  const unsubscribeUser = opts.bus.subscribe('user', (m) => {
    if (!m.signOut) return;
    for (const w of everyone) {
      if (w.userId !== m.userId) continue;
      const msg = translate(w.lang, 'errors.notSignedIn');
      send(w, { method: 'error', code: ResultCode.notSignedIn, msg });
      w.socket.close(4001, msg.slice(0, 100));
    }
  });
  app.addHook('onClose', async () => {
    unsubscribeUser();
    clearTimeout(recheckTimer);
    unsubscribeSets();
    unsubscribeSite();
    for (const timer of pushTimers.values()) clearTimeout(timer);
    unsubscribeOta();
    unsubscribeNotice();
    unsubscribeHealth();
    unsubscribeMonitor();
    unsubscribeAlarm();
  });

  const follow = (w: Watcher, gensetId: number) => {
    let watchers = bySet.get(gensetId);
    if (!watchers) bySet.set(gensetId, (watchers = new Set()));
    watchers.add(w);
  };
  const unfollow = (w: Watcher, gensetId: number) => {
    if (w.gensetId === gensetId || w.many.has(gensetId) || w.group.has(gensetId)) return;
    const set = bySet.get(gensetId);
    set?.delete(w);
    if (set && set.size === 0) bySet.delete(gensetId);
  };

  /** Stops following the station of `token`, if it names one. */
  async function stopWatchingStation(w: Watcher) {
    const station = w.station;
    if (!station) return;
    w.station = null;
    w.token = '';
    const watchers = bySite.get(station.siteId);
    watchers?.delete(w);
    if (watchers?.size === 0) bySite.delete(station.siteId);
    for (const id of station.gensetIds) {
      const sites = sitesOfSet.get(id);
      const n = (sites?.get(station.siteId) ?? 1) - 1;
      if (n > 0) sites!.set(station.siteId, n);
      else sites?.delete(station.siteId);
      if (sites?.size === 0) sitesOfSet.delete(id);
      await opts.planner.unwatch(id);
    }
  }

  /** Follows a station the user may see; false when `token` names none. */
  async function watchStation(w: Watcher, user: UserRow, grant: Grant, token: string): Promise<boolean> {
    const station = await opts.stations?.()?.resolve(user, grant, token);
    if (!station) return false;
    w.station = station;
    w.token = station.token;
    let watchers = bySite.get(station.siteId);
    if (!watchers) bySite.set(station.siteId, (watchers = new Set()));
    watchers.add(w);
    for (const id of station.gensetIds) {
      let sites = sitesOfSet.get(id);
      if (!sites) sitesOfSet.set(id, (sites = new Map()));
      sites.set(station.siteId, (sites.get(station.siteId) ?? 0) + 1);
      await opts.planner.watch(id);
    }
    await pushStation(station.siteId, w);
    return true;
  }

  async function stopWatching(w: Watcher) {
    await stopWatchingStation(w);
    if (w.gensetId === null) return;
    const id = w.gensetId;
    w.gensetId = null;
    w.token = '';
    unfollow(w, id);
    await opts.planner.unwatch(id);
  }

  function stopWatchingMany(w: Watcher) {
    const ids = [...w.many.keys()];
    w.many.clear();
    w.manyKey = '';
    for (const id of ids) unfollow(w, id);
  }

  async function stopWatchingGroup(w: Watcher) {
    const ids = [...w.group.keys()];
    w.group.clear();
    w.groupKey = '';
    for (const id of ids) {
      unfollow(w, id);
      await opts.planner.unwatch(id);
    }
  }

  async function pushSnapshot(w: Watcher, gensetId: number) {
    const snap = await opts.snapshot(gensetId);
    if (snap && (w.gensetId === gensetId || w.many.has(gensetId) || w.group.has(gensetId))) {
      monitorPush(w, snap.monitor);
      alarmPush(w, snap.alarm);
    }
  }

  /** Stops pushing the sets the page's user may no longer see, and tells the page which. */
  async function recheck(w: Watcher) {
    const session = w.session;
    if (!session) return;
    const grant = await opts.accounts.grant(session.user);
    const mayStillSee = async (token: string) => {
      const set = await opts.fleet.byToken(token);
      return set ? (await opts.fleet.rightsOn(session.user, grant, set)) !== null : false;
    };
    const notFound = translate(w.lang, 'errors.notFound');
    const station = w.station;
    if (station && !(await opts.stations?.()?.resolve(session.user, grant, station.token))) {
      send(w, { method: 'error', code: ResultCode.notFound, token: station.token, msg: notFound });
      await stopWatching(w);
    }
    if (w.gensetId !== null && !(await mayStillSee(w.token))) {
      send(w, { method: 'error', code: ResultCode.notFound, token: w.token, msg: notFound });
      await stopWatching(w);
    }
    const lost: string[] = [];
    for (const [id, token] of [...w.many]) {
      if (await mayStillSee(token)) continue;
      lost.push(token);
      w.many.delete(id);
      unfollow(w, id);
    }
    if (lost.length) send(w, { method: 'error', code: ResultCode.notFound, tokens: lost, msg: notFound });
  }

  /** Follows the listed sets the user may see; the others are named in one error message. */
  async function watchMany(w: Watcher, user: Parameters<Fleet['rightsOn']>[0], tokens: string[]) {
    const key = tokens.join(',');
    if (key === w.manyKey) return;
    stopWatchingMany(w);
    w.manyKey = key;
    const grant = await opts.accounts.grant(user);
    const refused: string[] = [];
    const added: number[] = [];
    for (const token of new Set(tokens)) {
      const set = token ? await opts.fleet.byToken(token) : undefined;
      const rights = set ? await opts.fleet.rightsOn(user, grant, set) : null;
      if (!set || !rights) {
        refused.push(token);
        continue;
      }
      if (w.manyKey !== key) return; // a newer heartbeat took over
      w.many.set(set.id, set.token);
      follow(w, set.id);
      added.push(set.id);
    }
    if (refused.length) {
      send(w, {
        method: 'error',
        code: ResultCode.notFound,
        tokens: refused,
        msg: translate(w.lang, 'errors.notFound'),
      });
    }
    for (const id of added) await pushSnapshot(w, id);
  }

  /** Watches every member of a group the user sees whole; a group with a member the user may not see is refused. */
  async function watchGroup(w: Watcher, user: Parameters<Fleet['rightsOn']>[0], token: string) {
    if (token === w.groupKey) return;
    await stopWatchingGroup(w);
    if (!token) return;
    w.groupKey = token;
    const members = (await opts.groupMembers?.(token)) ?? undefined;
    const grant = await opts.accounts.grant(user);
    const sets = [];
    for (const member of members ?? []) {
      const set = await opts.fleet.byToken(member.token);
      if (!set || !(await opts.fleet.rightsOn(user, grant, set))) {
        sets.length = 0;
        break;
      }
      sets.push(set);
    }
    if (w.groupKey !== token) return; // a newer heartbeat took over
    if (!members || sets.length !== members.length) {
      send(w, { method: 'error', code: ResultCode.notFound, group: token, msg: translate(w.lang, 'errors.notFound') });
      return;
    }
    for (const set of sets) {
      w.group.set(set.id, set.token);
      follow(w, set.id);
      await opts.planner.watch(set.id);
    }
    for (const set of sets) await pushSnapshot(w, set.id);
  }

  app.get('/ws', { websocket: true }, (socket) => {
    const w: Watcher = {
      socket,
      userId: null,
      queue: Promise.resolve(),
      gensetId: null,
      token: '',
      many: new Map(),
      manyKey: '',
      group: new Map(),
      groupKey: '',
      station: null,
      lang: 'en-US',
      timer: setTimeout(() => socket.close(4000, 'heartbeat timeout'), HEARTBEAT_TIMEOUT_MS),
    };
    everyone.add(w);

    socket.on('message', (raw) => {
      w.queue = w.queue
        .then(async () => {
          let parsed;
          try {
            parsed = heartbeat.safeParse(JSON.parse(String(raw)));
          } catch {
            parsed = null;
          }
          if (!parsed?.success) {
            send(w, { method: 'error', code: ResultCode.invalid, msg: translate(w.lang, 'errors.invalidBody') });
            return;
          }
          const hb = parsed.data;
          w.lang = pickLanguage(hb.language);
          clearTimeout(w.timer);
          w.timer = setTimeout(() => socket.close(4000, 'heartbeat timeout'), HEARTBEAT_TIMEOUT_MS);
          let session;
          try {
            session = await opts.auth.authenticate(hb.utoken);
          } catch (err) {
            const code = err instanceof AppError ? err.code : ResultCode.notSignedIn;
            const msg = translate(w.lang, err instanceof AppError ? err.key : 'errors.notSignedIn');
            send(w, { method: 'error', code, msg });
            socket.close(4001, msg.slice(0, 100));
            return;
          }
          w.session = { user: session.user, grant: session.grant };
          if (w.userId !== session.user.id) {
            // Someone else signed in on the same page: nothing the previous user watched is pushed to them.
            stopWatchingMany(w);
            await stopWatchingGroup(w);
            await stopWatching(w);
            const first = w.userId === null;
            w.userId = session.user.id;
            w.companyId = session.user.company_id;
            // a console that connects while something is down is told at once
            if (first && opts.health.down().length > 0) healthPush(w);
          }
          if (hb.tokens) await watchMany(w, session.user, hb.tokens);
          else if (w.many.size) stopWatchingMany(w);
          await watchGroup(w, session.user, hb.group ?? '');
          if (hb.token === w.token && w.gensetId !== null) {
            // The same set again: still watched only while the user may still see it (rights change meanwhile).
            const same = await opts.fleet.byToken(hb.token);
            if (same?.id === w.gensetId && (await opts.fleet.rightsOn(session.user, session.grant, same))) return;
          }
          if (hb.token === w.token && w.station) {
            // The same station again: followed anew (its sets, the user's rights may have changed meanwhile).
            const again = await opts.stations?.()?.resolve(session.user, session.grant, hb.token);
            if (again && again.gensetIds.join() === w.station.gensetIds.join()) return;
          }
          await stopWatching(w);
          if (!hb.token) return;
          const set = await opts.fleet.byToken(hb.token);
          const rights = set ? await opts.fleet.rightsOn(session.user, session.grant, set) : null;
          if (!set && (await watchStation(w, session.user, session.grant, hb.token))) return;
          if (!set || !rights) {
            send(w, {
              method: 'error',
              code: ResultCode.notFound,
              token: hb.token,
              msg: translate(w.lang, 'errors.notFound'),
            });
            return;
          }
          w.gensetId = set.id;
          w.token = set.token;
          follow(w, set.id);
          await opts.planner.watch(set.id);
          await pushSnapshot(w, set.id);
        })
        .catch((err: unknown) => app.log.error({ err }, 'realtime message failed'));
    });

    socket.on('close', () => {
      everyone.delete(w);
      clearTimeout(w.timer);
      stopWatchingMany(w);
      void stopWatchingGroup(w).catch((err: unknown) => app.log.warn({ err }, 'unwatch failed'));
      void stopWatching(w).catch((err: unknown) => app.log.warn({ err }, 'unwatch failed'));
    });
  });
}
