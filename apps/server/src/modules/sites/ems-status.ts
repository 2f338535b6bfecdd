// What a station's module says of its EMS (the `ems` field of its hello and events): the tactic version it runs,
// its strategy, the setpoint of its last cycle, the demand-response event it delivers and why it holds the
// battery safe. The station keeps the latest of it; a change of strategy, a safe stop and its end, a
// demand-response event starting or ending and a change of the station's state become run records; a safe stop
// opens an alarm on the station's PCS set (one of the set's alarms: counted, pushed, notified) that the module's
// word, not the controller's snapshot, closes. Runs between ingestion batches, which own the sets' alarms.
import { LANGUAGES, type EmsStatus } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import type { Sets } from '../devices/ingest/sets.ts';
import type { StatusAlarms } from '../devices/ingest/status-alarms.ts';
import { clearAlarm, raiseAlarm } from '../devices/ingest/episodes.ts';
import type { ModemInfo, OpenAlarm, SetState } from '../devices/ingest/types.ts';
import { createSiteRepository } from './repository.ts';

/** The alarm a safe stop opens on the station's PCS (a module's alarm: the controller's snapshots leave it alone). */
export const EMS_SAFE_ALARM_CODE = 'module:ems_safe_stop';

/** A setpoint closer to 0 than this (kW) is the battery at rest. */
const REST_KW = 0.5;

export type EmsState = 'stopped' | 'standby' | 'charging' | 'discharging';

export function emsStateOf(ems: Pick<EmsStatus, 'safe' | 'setpointKw'>): EmsState {
  if (ems.safe) return 'stopped';
  if (ems.setpointKw > REST_KW) return 'discharging';
  if (ems.setpointKw < -REST_KW) return 'charging';
  return 'standby';
}

/** The safe-stop alarm's title in every language, with the reason. */
function safeTitle(reason: string): Record<string, string> {
  return Object.fromEntries(
    LANGUAGES.map((lang) => [
      lang,
      translate(lang, 'sites.safeStopAlarm', { reason: translate(lang, `sites.safe.${reason}`) }),
    ]),
  );
}

export function createSiteEms({
  db,
  sets,
  statusAlarms,
  bus,
  log,
}: {
  db: Db;
  sets: Sets;
  statusAlarms: StatusAlarms;
  bus: RealtimeBus;
  log: FastifyBaseLogger;
}) {
  const repo = createSiteRepository(db);

  /** The station's PCS set as ingestion holds it (its alarms live there). */
  async function pcsOf(siteId: number, modem: ModemInfo): Promise<SetState | null> {
    const pcs = (await repo.devices(db, [siteId])).find((d) => d.role === 'pcs' && d.modemId === modem.id);
    return pcs ? sets.setFor(modem, pcs.port, pcs.address) : null;
  }

  return {
    /** The module's EMS status (from a hello or an event). */
    async status(modem: ModemInfo, ems: EmsStatus) {
      const site = await repo.byModem(db, modem.id);
      if (!site) return;
      // an older word (an event that came late) changes nothing
      if (site.ems_ts !== null && ems.ts < Number(site.ems_ts)) return;
      const state = emsStateOf(ems);
      const safe = ems.safe ?? null;
      const strategy = ems.strategy ?? null;
      const demand = ems.demandResponse ?? null;
      const set = await pcsOf(site.id, modem);
      const open = set?.openAlarms.get(EMS_SAFE_ALARM_CODE);
      // a station not yet sent a tactic is idle, not faulted: its state says so, no alarm is raised for it
      const alarming = safe !== null && safe !== 'noTactic';
      const opening = set && alarming && !open;
      const closing = set && open && !alarming ? open : undefined;
      let opened: OpenAlarm | undefined;

      await db.transaction().execute(async (trx) => {
        const record = (kind: string, detail: object, version: number | null = ems.version) =>
          repo.runRecord(trx, { siteId: site.id, ts: ems.ts, kind, version, detail });
        if (strategy !== null && site.running_strategy !== null && strategy !== site.running_strategy)
          await record('strategyChanged', { from: site.running_strategy, to: strategy });
        if (safe && safe !== site.safe_reason) await record('safeStop', { reason: safe });
        if (!safe && site.safe_reason) await record('safeCleared', { reason: site.safe_reason });
        if (demand !== site.demand_response) {
          if (site.demand_response) await record('demandResponse', { id: site.demand_response, phase: 'ended' });
          if (demand) await record('demandResponse', { id: demand, phase: 'started' });
        }
        if (site.ems_state !== null && state !== site.ems_state)
          await record('stateChanged', { from: site.ems_state, to: state });
        await repo.update(trx, site.id, {
          running_version: ems.version,
          running_strategy: strategy,
          ems_state: state,
          safe_reason: safe,
          setpoint_kw: ems.setpointKw,
          demand_response: demand,
          ems_ts: ems.ts,
        });
        if (set && opening && safe)
          opened = await raiseAlarm(
            trx,
            set,
            { code: EMS_SAFE_ALARM_CODE, level: 'shutdown', title: safeTitle(safe) },
            ems.ts,
          );
        if (set && closing) await clearAlarm(trx, closing, ems.ts);
        if (set && (opened || closing)) {
          const count = set.openAlarms.size + (opened ? 1 : 0) - (closing ? 1 : 0);
          await trx.updateTable('set_latest').set({ alarm_count: count }).where('genset_id', '=', set.id).execute();
        }
      });
      // committed: the set's state in memory follows, and the pages are told
      if (set && opened) set.openAlarms.set(EMS_SAFE_ALARM_CODE, opened);
      if (set && closing) set.openAlarms.delete(EMS_SAFE_ALARM_CODE);
      if (set && (opened || closing)) {
        statusAlarms.announce(set, true);
        log.info({ site: site.token, safe }, opened ? 'station held safe' : 'station safe stop cleared');
      }
      bus.publish('site', { siteId: site.id, token: site.token });
    },
  };
}
export type SiteEms = ReturnType<typeof createSiteEms>;
