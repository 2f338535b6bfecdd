// A station's energy and money, counted by ingestion from its PCS's own energy counters (never from power
// samples): each stored sample's increase of the charge and discharge kWh counters since the last one counted
// goes onto the station's local day and the tariff period of the sample's time, with the price template version
// in force then; its cost and income are that kWh times that version's buy and sell price. The last reading
// counted is kept with the PCS's binding and moves on in a conditional update in the batch's transaction, so a
// resend (a sample not newer than it) counts nothing, and a counter lower than before (a reset, a replaced
// PCS) starts counting again from its new value, never negative. A PCS's first reading is where counting starts.
import {
  localClock,
  periodAt,
  priceTemplateBody,
  type PricePeriod,
  type PriceTemplateBody,
  type ProtocolDocument,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import { createSiteRepository, type TemplateVersionRow } from './repository.ts';

/** How long the bindings are trusted before they are read again (another instance may have changed them). */
const BINDINGS_TTL_MS = 5_000;

/** The items of a PCS document holding its cumulative charge and discharge energy (kWh). */
export function pcsCounterKeys(doc: ProtocolDocument): { charge: string | null; discharge: string | null } {
  const kwh = doc.items.filter((i) => i.type !== 'bit' && i.unit.toLowerCase() === 'kwh');
  const named = (key: string) => kwh.find((i) => i.key === key)?.key ?? null;
  const discharge = named('discharge_energy') ?? kwh.find((i) => /discharge/.test(i.key))?.key ?? null;
  const charge =
    named('charge_energy') ?? kwh.find((i) => /charge/.test(i.key) && !/discharge/.test(i.key))?.key ?? null;
  return { charge, discharge };
}

export interface ParsedVersion {
  id: number;
  version: number;
  validFrom: number;
  body: PriceTemplateBody;
}

export function parseVersions(rows: readonly TemplateVersionRow[]): Map<number, ParsedVersion[]> {
  const out = new Map<number, ParsedVersion[]>();
  for (const r of rows) {
    const parsed = priceTemplateBody.safeParse(JSON.parse(r.body));
    if (!parsed.success) continue;
    let list = out.get(r.templateId);
    if (!list) out.set(r.templateId, (list = []));
    list.push({ id: r.id, version: r.version, validFrom: r.validFrom, body: parsed.data });
  }
  for (const list of out.values()) list.sort((a, b) => a.version - b.version);
  return out;
}

/**
 * The version of a template in force at `ts`: the newest saved whose start has come. The first version also
 * prices what came before it (a station's past, measured before its template was written).
 */
export function versionAt(versions: readonly ParsedVersion[] | undefined, ts: number): ParsedVersion | null {
  if (!versions || versions.length === 0) return null;
  let best: ParsedVersion | null = null;
  for (const v of versions) if (v.validFrom <= ts && (!best || v.version > best.version)) best = v;
  return best ?? versions[0]!;
}

/** The period and prices of an instant at a station, by its template version (none: flat, no price). */
export function pricing(
  version: ParsedVersion | null,
  ts: number,
  timeZone: string,
): { day: string; period: PricePeriod; buy: number; sell: number; versionId: number } {
  const clock = localClock(ts, timeZone);
  if (!version) return { day: clock.day, period: 'flat', buy: 0, sell: 0, versionId: 0 };
  const period = periodAt(version.body.ranges, clock.minute);
  const price = version.body.prices[period];
  return { day: clock.day, period, buy: price.buy, sell: price.sell, versionId: version.id };
}

interface PcsBinding {
  siteId: number;
  gensetId: number;
  timeZone: string;
  templateId: number | null;
  chargeKey: string | null;
  dischargeKey: string | null;
}

/** Readings further apart than this are a gap: their energy is placed at the later one. */
const MIDPOINT_GAP_MS = 15 * 60_000;

export function createSiteEnergy({ db, protocols, log }: { db: Db; protocols: ProtocolStore; log: FastifyBaseLogger }) {
  const repo = createSiteRepository(db);
  let bindings = new Map<number, PcsBinding[]>();
  let versions = new Map<number, ParsedVersion[]>();
  let loadedAt = 0;
  let stale = true;

  async function load() {
    const rows = await repo.pcsBindings(db);
    const next = new Map<number, PcsBinding[]>();
    for (const r of rows) {
      const protocol = await protocols.get(r.protocol_key);
      const keys = protocol ? pcsCounterKeys(protocol.doc) : { charge: null, discharge: null };
      let list = next.get(r.genset_id);
      if (!list) next.set(r.genset_id, (list = []));
      list.push({
        siteId: r.site_id,
        gensetId: r.genset_id,
        timeZone: r.time_zone,
        templateId: r.template_id,
        chargeKey: keys.charge,
        dischargeKey: keys.discharge,
      });
    }
    const templateIds = [...new Set(rows.flatMap((r) => (r.template_id === null ? [] : [r.template_id])))];
    versions = parseVersions(await repo.versions(db, templateIds));
    bindings = next;
    loadedAt = Date.now();
    stale = false;
  }

  return {
    /** Before a batch's transaction opens: the bindings and templates read again when due. */
    async prepare() {
      if (!stale && Date.now() - loadedAt < BINDINGS_TTL_MS) return;
      await load().catch((err: unknown) => log.error({ err }, 'station bindings not read'));
    },

    /** Stations, templates or bindings changed here: read them again before the next batch. */
    invalidate() {
      stale = true;
    },

    /** Whether the set is a station's PCS (cheap: asked for every stored sample). */
    has(gensetId: number): boolean {
      return bindings.has(gensetId);
    },

    /** Counts a newly stored sample of a PCS, in the batch's transaction. */
    async apply(trx: Transaction<Database>, gensetId: number, ts: number, values: Record<string, number | null>) {
      for (const b of bindings.get(gensetId) ?? []) {
        if (!b.chargeKey || !b.dischargeKey) continue;
        const charge = values[b.chargeKey];
        const discharge = values[b.dischargeKey];
        if (typeof charge !== 'number' || typeof discharge !== 'number') continue;
        if (!Number.isFinite(charge) || !Number.isFinite(discharge)) continue;
        const last = await repo.counterReading(trx, b.siteId, gensetId);
        if (!last) continue;
        // a sample not newer than the reading counted (a resend, one that came late) counts nothing
        if (last.ts !== null && ts <= last.ts) continue;
        const moved = await repo.advanceReading(trx, b.siteId, gensetId, last.ts, { ts, charge, discharge });
        if (!moved || last.ts === null || last.charge === null || last.discharge === null) continue;
        // a counter lower than before counts again from its new value: nothing negative is ever added
        const chargeKwh = Math.max(0, charge - last.charge);
        const dischargeKwh = Math.max(0, discharge - last.discharge);
        if (chargeKwh === 0 && dischargeKwh === 0) continue;
        // The energy flowed between the two readings: it is placed at their midpoint, so a reading taken just
        // after a period began does not carry the end of the period before into it. Across a gap (the module away)
        // when it flowed is unknown, and the reading's own time is used.
        const at = ts - last.ts <= MIDPOINT_GAP_MS ? Math.round((last.ts + ts) / 2) : ts;
        const price = pricing(
          versionAt(b.templateId === null ? undefined : versions.get(b.templateId), at),
          at,
          b.timeZone,
        );
        await repo.addEnergy(trx, b.siteId, {
          day: price.day,
          period: price.period,
          templateVersionId: price.versionId,
          chargeKwh,
          dischargeKwh,
          chargeCost: chargeKwh * price.buy,
          dischargeIncome: dischargeKwh * price.sell,
        });
      }
    },
  };
}
export type SiteEnergy = ReturnType<typeof createSiteEnergy>;
