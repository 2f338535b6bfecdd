// Poll plans: what each module reads from its controllers and how often. A module runs at its online rate
// while someone watches one of its sets, at its offline rate otherwise (cellular traffic costs money).
//
// With several instances, a page may watch a set through any of them. Each instance tells the others which
// sets its pages watch (on the bus, whenever that changes and every 10 s), and plans with what every live
// instance watches: any instance whose view of a module changes publishes the module's plan again, so the
// last plan published follows the truth once the views agree. An instance not heard for 35 s is forgotten.
import type { ModemPlan } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { ProtocolStore } from './protocols.ts';
import type { DeviceTransport } from './transport.ts';
import type { RealtimeBus, WatchMessage } from './bus.ts';

const ANNOUNCE_EVERY_MS = 10_000;
const FORGET_AFTER_MS = 35_000;

export interface PlannerOptions {
  db: Db;
  transport: DeviceTransport;
  protocols: ProtocolStore;
  log: FastifyBaseLogger;
  onlineRateMs: number;
  offlineRateMs: number;
  /** Set with several instances: the cluster's bus and this instance's id. */
  shared?: { bus: RealtimeBus; instanceId: string };
}

export function createPlanner(opts: PlannerOptions) {
  const { db, transport, protocols, log } = opts;
  const watchers = new Map<number, number>();
  const onlineModems = new Set<string>();
  /** What the pages on other instances watch, by instance. */
  const remote = new Map<string, { ids: Set<number>; heardAt: number }>();
  /** Plans of one module are built and published one after the other, so the last published is the newest. */
  const publishing = new Map<string, Promise<void>>();

  function watchedAnywhere(gensetId: number): boolean {
    if ((watchers.get(gensetId) ?? 0) > 0) return true;
    for (const r of remote.values()) if (r.ids.has(gensetId)) return true;
    return false;
  }

  async function modemKeyOfSet(gensetId: number): Promise<string | undefined> {
    const row = await db
      .selectFrom('genset')
      .innerJoin('modem', 'modem.id', 'genset.modem_id')
      .select('modem.modem_key')
      .where('genset.id', '=', gensetId)
      .executeTakeFirst();
    return row?.modem_key;
  }

  async function buildPlan(modemKey: string): Promise<ModemPlan> {
    const rows = await db
      .selectFrom('genset')
      .innerJoin('modem', 'modem.id', 'genset.modem_id')
      .select(['genset.id', 'genset.port', 'genset.address', 'genset.protocol_key'])
      .where('modem.modem_key', '=', modemKey)
      .where('genset.deleted_at', 'is', null)
      .execute();
    const controllers: ModemPlan['controllers'] = [];
    let anyOnline = false;
    for (const r of rows) {
      const protocol = await protocols.get(r.protocol_key);
      if (!protocol) continue;
      const online = watchedAnywhere(r.id);
      anyOnline ||= online;
      controllers.push({
        port: r.port,
        address: r.address,
        blocks: protocol.blocks,
        onlineRateMs: opts.onlineRateMs,
        offlineRateMs: opts.offlineRateMs,
        mode: 'full',
        online,
      });
    }
    if (anyOnline) onlineModems.add(modemKey);
    else onlineModems.delete(modemKey);
    return { controllers, eventRateMs: Math.max(opts.offlineRateMs, 30_000) };
  }

  function publishPlan(modemKey: string): Promise<void> {
    const next = (publishing.get(modemKey) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const plan = await buildPlan(modemKey);
        await transport.publish(modemKey, 'plan', JSON.stringify(plan), { retain: true });
        log.debug({ modem: modemKey, controllers: plan.controllers.length }, 'plan published');
      });
    publishing.set(modemKey, next);
    const settled = () => {
      if (publishing.get(modemKey) === next) publishing.delete(modemKey);
    };
    next.then(settled, settled);
    return next;
  }

  /** Publishes again the plans of the modules whose sets `change` turned from watched to not, or back. */
  async function replanAround(gensetIds: Iterable<number>, change: () => void) {
    const ids = [...new Set(gensetIds)];
    const before = ids.map(watchedAnywhere);
    change();
    const flipped = ids.filter((id, i) => watchedAnywhere(id) !== before[i]);
    const modemKeys = new Set<string>();
    for (const id of flipped) {
      const modemKey = await modemKeyOfSet(id);
      if (modemKey) modemKeys.add(modemKey);
    }
    await Promise.all([...modemKeys].map(publishPlan));
  }

  const shared = opts.shared;
  function announce() {
    shared?.bus.publish('watch', { origin: shared.instanceId, gensetIds: [...watchers.keys()] });
  }

  async function changeWatch(gensetId: number, delta: 1 | -1) {
    const before = watchers.get(gensetId) ?? 0;
    const after = Math.max(0, before + delta);
    await replanAround([gensetId], () => {
      if (after === 0) watchers.delete(gensetId);
      else watchers.set(gensetId, after);
    });
    if ((before === 0) !== (after === 0)) announce();
  }

  function heard(message: WatchMessage) {
    if (!shared || message.origin === shared.instanceId) return;
    const known = remote.get(message.origin)?.ids ?? new Set<number>();
    const ids = new Set(message.gensetIds);
    const changed = [...known, ...ids].filter((id) => known.has(id) !== ids.has(id));
    void replanAround(changed, () => remote.set(message.origin, { ids, heardAt: Date.now() })).catch((err: unknown) =>
      log.warn({ err }, 'plans not sent'),
    );
  }

  function forgetSilent() {
    const now = Date.now();
    for (const [origin, r] of remote) {
      if (now - r.heardAt <= FORGET_AFTER_MS) continue;
      void replanAround(r.ids, () => remote.delete(origin)).catch((err: unknown) =>
        log.warn({ err }, 'plans not sent'),
      );
    }
  }

  const unsubscribe = shared?.bus.subscribe('watch', heard);
  const timer = shared
    ? setInterval(() => {
        announce();
        forgetSilent();
      }, ANNOUNCE_EVERY_MS)
    : undefined;
  timer?.unref();

  return {
    publishPlan,
    watch: (gensetId: number) => changeWatch(gensetId, 1),
    unwatch: (gensetId: number) => changeWatch(gensetId, -1),
    /** Whether a page on this instance watches the set. */
    watching: (gensetId: number) => (watchers.get(gensetId) ?? 0) > 0,
    expectedPeriodMs: (modemKey: string) => (onlineModems.has(modemKey) ? opts.onlineRateMs : opts.offlineRateMs),
    /** Tells the other instances what this one watches (a new member learns it at once). */
    announce,
    /** Stops telling the others; they stop counting this instance's watches at once. */
    close() {
      if (timer) clearInterval(timer);
      unsubscribe?.();
      if (shared) shared.bus.publish('watch', { origin: shared.instanceId, gensetIds: [] });
    },
  };
}
export type Planner = ReturnType<typeof createPlanner>;
