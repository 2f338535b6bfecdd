// Poll plans: what each module reads from its controllers and how often. A module runs at its online rate
// while someone watches one of its sets, at its offline rate otherwise (cellular traffic costs money).
import type { ModemPlan } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { ProtocolStore } from './protocols.ts';
import type { DeviceTransport } from './transport.ts';

export interface PlannerOptions {
  db: Db;
  transport: DeviceTransport;
  protocols: ProtocolStore;
  log: FastifyBaseLogger;
  onlineRateMs: number;
  offlineRateMs: number;
}

export function createPlanner(opts: PlannerOptions) {
  const { db, transport, protocols, log } = opts;
  const watchers = new Map<number, number>();
  const onlineModems = new Set<string>();

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
      const online = (watchers.get(r.id) ?? 0) > 0;
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

  async function publishPlan(modemKey: string) {
    const plan = await buildPlan(modemKey);
    await transport.publish(modemKey, 'plan', JSON.stringify(plan), { retain: true });
    log.debug({ modem: modemKey, controllers: plan.controllers.length }, 'plan published');
  }

  async function changeWatch(gensetId: number, delta: 1 | -1) {
    const before = watchers.get(gensetId) ?? 0;
    const after = Math.max(0, before + delta);
    if (after === 0) watchers.delete(gensetId);
    else watchers.set(gensetId, after);
    if ((before === 0) !== (after === 0)) {
      const modemKey = await modemKeyOfSet(gensetId);
      if (modemKey) await publishPlan(modemKey);
    }
  }

  return {
    publishPlan,
    watch: (gensetId: number) => changeWatch(gensetId, 1),
    unwatch: (gensetId: number) => changeWatch(gensetId, -1),
    watching: (gensetId: number) => (watchers.get(gensetId) ?? 0) > 0,
    expectedPeriodMs: (modemKey: string) => (onlineModems.has(modemKey) ? opts.onlineRateMs : opts.offlineRateMs),
  };
}
export type Planner = ReturnType<typeof createPlanner>;
