// The set directory: every live set as the set lists show it (name, number, owner, company, module, key
// details, status, alarm count, last data and key values), in memory. Reading 1,000 sets' rows from the
// database for every page of "my gensets" cost milliseconds per request, and the page's own 20 rows (with
// their 69-value JSON) still cost a fifth of a millisecond; the directory answers the whole page in
// microseconds.
//
// Freshness:
// - status, alarms, last data and values follow the realtime bus at once (ingestion announces every change
//   there, on every instance), and so does the module's connection (`modem` messages);
// - a set added, edited or deleted through any instance marks the directory stale (the instance that made the
//   change announces it on the bus), and the next list waits for a reload;
// - an owner's new nickname marks it stale too (the auth service tells), and so does a set moved to another
//   department, or a change of what data scopes reach (account/scope.ts announces `sets` with it);
// - everything is also reloaded in the background when older than `maxAgeMs` (5 minutes), which bounds how
//   late anything else appears (a change made to the database by hand). A reload of 10,000 sets costs about
//   70 ms of CPU in slices of a few milliseconds; every slice delays the requests waiting behind it.
// On a reload, a set's values and last data stay those in memory when they are as new as the database's:
// ingestion writes latest values every few seconds, the bus has them at once.
import { randomUUID } from 'node:crypto';
// lets waiting requests run between the slices of a reload
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import { memoize } from '../../lib/memo.ts';
import { parseDetails } from './fields.ts';

/** The key values a list row shows. */
export interface ListValues {
  kw: number | null;
  fuelLevel: number | null;
  batteryVoltage: number | null;
  runHours: number | null;
}

export interface DirectoryEntry {
  id: number;
  token: string;
  name: string;
  number: string | null;
  companyId: number;
  ownerUserId: number | null;
  /** The department the set belongs to: its own, else its owner's (what department data scopes go by). */
  departmentId: number | null;
  ownerName: string | null;
  /** Lower-cased name and number. */
  search: string;
  createdAt: number;
  /** The module's row id and key (null: no module linked), and whether it is connected. */
  modemRowId: number | null;
  modemKey: string | null;
  online: boolean;
  controllerModel: string | null;
  ratedPowerKw: number | null;
  latitude: number | null;
  longitude: number | null;
  /** 0 offline (also: never reported), 1 shutdown, 2 standby, 3 running. */
  status: number;
  alarmCount: number;
  lastSeen: number | null;
  values: ListValues;
  /** What the home page takes of the latest values beside them: the GPS fix and the energy counter. */
  live: LiveValues;
  /** Position in the natural order of names (see naturalKey), then of ids. */
  nameRank: number;
  numberRank: number;
}

const NO_VALUES: ListValues = Object.freeze({ kw: null, fuelLevel: null, batteryVoltage: null, runHours: null });

export interface LiveValues {
  latitude: number | null;
  longitude: number | null;
  kwhTotal: number | null;
}
const NO_LIVE: LiveValues = Object.freeze({ latitude: null, longitude: null, kwhTotal: null });

export function liveValues(values: Record<string, number | null | undefined>): LiveValues {
  return {
    latitude: values.latitude ?? null,
    longitude: values.longitude ?? null,
    kwhTotal: values.kwh_total ?? null,
  };
}

/** The list's key values out of a set's latest values. */
export function listValues(values: Record<string, number | null | undefined>): ListValues {
  return {
    kw: values.gen_kw ?? null,
    fuelLevel: values.fuel_level ?? null,
    batteryVoltage: values.battery_voltage ?? null,
    runHours: values.run_hours ?? null,
  };
}

export interface Snapshot {
  byId: Map<number, DirectoryEntry>;
  /** Sets by the row id of their module (a module may serve several controllers). */
  byModem: Map<number, DirectoryEntry[]>;
  byOwner: Map<number, DirectoryEntry[]>;
  byCompany: Map<number, DirectoryEntry[]>;
}

/** Rows read per query while loading: a slice holds the event loop for a few milliseconds at most. */
const LOAD_SLICE = 500;
/** Sets whose values are read per query (values are large: 69 items of JSON). */
const VALUES_SLICE = 500;

/**
 * A key whose plain order is the natural order of the text: case and accents ignored, runs of digits
 * compared as numbers ("Set 2" before "Set 10").
 */
export function naturalKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(20, '0'));
}

const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function createSetDirectory(opts: { db: Db; bus: RealtimeBus; log: FastifyBaseLogger; maxAgeMs?: number }) {
  const { db } = opts;
  const maxAgeMs = opts.maxAgeMs ?? 300_000;
  let snapshot: Snapshot | null = null;
  let loadedAt = 0;
  let loading: Promise<Snapshot> | null = null;
  /** Bumped by every local change; a snapshot loaded before the latest bump is stale. */
  let generation = 0;
  let loadedGeneration = -1;
  /** Bus updates seen while a load runs, applied again over its result (it may have read older rows). */
  let duringLoad: Map<number, Partial<DirectoryEntry>> | null = null;
  let modemsDuringLoad: Map<number, boolean> | null = null;
  /** Moved whenever a set's status or alarm count changes, and with every load (what status views are kept by). */
  let states = 0;
  /** Tells this instance's own invalidations apart from other instances' on the bus. */
  const origin = randomUUID();

  /** Sort keys by name or number text, kept across reloads (names rarely change). */
  const sortKey = memoize(naturalKey, 200_000);

  /** The key values of the given sets as the database has them (first sight of a set, or a missed update). */
  async function storedValues(ids: number[]): Promise<Map<number, { list: ListValues; live: LiveValues }>> {
    const out = new Map<number, { list: ListValues; live: LiveValues }>();
    for (let i = 0; i < ids.length; i += VALUES_SLICE) {
      const rows = await db
        .selectFrom('set_latest')
        .select(['genset_id', 'values'])
        .where('genset_id', 'in', ids.slice(i, i + VALUES_SLICE))
        .execute();
      for (const r of rows) {
        try {
          const values = JSON.parse(r.values) as Record<string, number | null>;
          out.set(r.genset_id, { list: listValues(values), live: liveValues(values) });
        } catch {
          // unreadable values show as none
        }
      }
      await yieldToRequests();
    }
    return out;
  }

  /** The details a row shows, by the stored details text (kept across reloads: details rarely change). */
  const rowDetails = memoize((text: string) => {
    const d = parseDetails(text);
    return {
      controllerModel: d.controllerModel,
      ratedPowerKw: d.ratedPowerKw,
      latitude: d.latitude,
      longitude: d.longitude,
    };
  }, 200_000);

  /**
   * Name and number ranks: those of the previous snapshot when no set came, went or changed its name or number
   * (sorting 10,000 names held the event loop for milliseconds), else sorted afresh. Returns the entries in
   * name order.
   */
  function rank(entries: DirectoryEntry[], keys: { name: string; number: string }[], previous: Snapshot | null) {
    if (previous && previous.byId.size === entries.length) {
      let same = true;
      for (const e of entries) {
        const known = previous.byId.get(e.id);
        if (!known || known.name !== e.name || known.number !== e.number) {
          same = false;
          break;
        }
      }
      if (same) {
        for (const e of entries) {
          const known = previous.byId.get(e.id)!;
          e.nameRank = known.nameRank;
          e.numberRank = known.numberRank;
        }
        return entries.toSorted((a, b) => a.nameRank - b.nameRank);
      }
    }
    const order = entries.map((_, i) => i);
    const byName = order.toSorted(
      (a, b) => compareKeys(keys[a]!.name, keys[b]!.name) || entries[a]!.id - entries[b]!.id,
    );
    byName.forEach((i, r) => (entries[i]!.nameRank = r));
    order
      .sort((a, b) => compareKeys(keys[a]!.number, keys[b]!.number) || entries[a]!.nameRank - entries[b]!.nameRank)
      .forEach((i, r) => (entries[i]!.numberRank = r));
    return byName.map((i) => entries[i]!);
  }

  async function load(): Promise<Snapshot> {
    const startedGeneration = generation;
    const previous = snapshot;
    duringLoad = new Map();
    modemsDuringLoad = new Map();
    try {
      const entries: DirectoryEntry[] = [];
      const keys: { name: string; number: string }[] = [];
      /** Sets whose values must be read from the database. */
      const unread: number[] = [];
      // In slices by id, so that a reload never holds the event loop (and the database) for long.
      for (let after = 0; ;) {
        const rows = await db
          .selectFrom('genset as g')
          .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
          .leftJoin('users as o', 'o.id', 'g.owner_user_id')
          .leftJoin('modem as m', 'm.id', 'g.modem_id')
          .select([
            'g.id',
            'g.token',
            'g.name',
            'g.number',
            'g.company_id',
            'g.owner_user_id',
            'g.department_id',
            'o.department_id as owner_department_id',
            'o.nickname',
            'g.search_text',
            'g.created_at',
            'g.details',
            'g.modem_id',
            'm.modem_key',
            'm.online',
            'l.status',
            'l.alarm_count',
            'l.device_ts',
          ])
          .where('g.deleted_at', 'is', null)
          // a storage station's PCS, BMS, meter and PV are its devices, listed with the station, not as gensets
          .where((eb) =>
            eb.not(eb.exists(eb.selectFrom('site_device as sd').select('sd.id').whereRef('sd.genset_id', '=', 'g.id'))),
          )
          .where('g.id', '>', after)
          .orderBy('g.id')
          .limit(LOAD_SLICE)
          .execute();
        for (const r of rows) {
          const details = rowDetails(r.details);
          const stored = r.device_ts ?? null;
          const known = previous?.byId.get(r.id);
          // memory is at least as new as the database: keep its values and last data
          const keep = known !== undefined && (stored === null || (known.lastSeen ?? -1) >= stored);
          if (!keep && stored !== null) unread.push(r.id);
          entries.push({
            id: r.id,
            token: r.token,
            name: r.name,
            number: r.number ?? null,
            companyId: r.company_id,
            ownerUserId: r.owner_user_id,
            departmentId: r.department_id ?? r.owner_department_id ?? null,
            ownerName: r.nickname ?? null,
            search: r.search_text,
            createdAt: r.created_at,
            modemRowId: r.modem_id ?? null,
            modemKey: r.modem_key ?? null,
            online: r.online === 1,
            controllerModel: details.controllerModel,
            ratedPowerKw: details.ratedPowerKw,
            latitude: details.latitude,
            longitude: details.longitude,
            status: r.status ?? 0,
            alarmCount: r.alarm_count ?? 0,
            lastSeen: keep ? known.lastSeen : stored,
            values: keep ? known.values : NO_VALUES,
            live: keep ? known.live : NO_LIVE,
            nameRank: 0,
            numberRank: 0,
          });
          keys.push({ name: sortKey(r.name), number: sortKey(r.number ?? '') });
        }
        if (rows.length < LOAD_SLICE) break;
        after = rows[rows.length - 1]!.id;
        await yieldToRequests();
      }
      const values = await storedValues(unread);
      const byName = rank(entries, keys, previous);
      await yieldToRequests();
      const next: Snapshot = { byId: new Map(), byModem: new Map(), byOwner: new Map(), byCompany: new Map() };
      // in name order, so that each owner's and company's list is too
      for (const [i, entry] of byName.entries()) {
        if (i > 0 && i % LOAD_SLICE === 0) await yieldToRequests();
        const read = values.get(entry.id);
        if (read) {
          entry.values = read.list;
          entry.live = read.live;
        }
        next.byId.set(entry.id, entry);
        if (entry.modemRowId !== null) push(next.byModem, entry.modemRowId, entry);
        if (entry.ownerUserId !== null) push(next.byOwner, entry.ownerUserId, entry);
        push(next.byCompany, entry.companyId, entry);
      }
      for (const [id, patch] of duringLoad) {
        const entry = next.byId.get(id);
        if (entry) Object.assign(entry, patch);
      }
      for (const [modemId, online] of modemsDuringLoad) {
        for (const entry of next.byModem.get(modemId) ?? []) entry.online = online;
      }
      snapshot = next;
      states++;
      loadedAt = Date.now();
      loadedGeneration = startedGeneration;
      return next;
    } finally {
      duringLoad = null;
      modemsDuringLoad = null;
    }
  }

  function push(map: Map<number, DirectoryEntry[]>, key: number, entry: DirectoryEntry) {
    const list = map.get(key);
    if (list) list.push(entry);
    else map.set(key, [entry]);
  }

  function startLoad(): Promise<Snapshot> {
    loading ??= load().finally(() => {
      loading = null;
    });
    return loading;
  }

  function patch(id: number, values: Partial<DirectoryEntry>) {
    const entry = snapshot?.byId.get(id);
    if (entry) {
      if (
        (values.status !== undefined && values.status !== entry.status) ||
        (values.alarmCount !== undefined && values.alarmCount !== entry.alarmCount)
      )
        states++;
      Object.assign(entry, values);
    }
    if (duringLoad) duringLoad.set(id, { ...duringLoad.get(id), ...values });
  }

  function modemOnline(modemId: number, online: boolean) {
    for (const entry of snapshot?.byModem.get(modemId) ?? []) entry.online = online;
    modemsDuringLoad?.set(modemId, online);
  }

  const unsubscribe = [
    opts.bus.subscribe('monitor', (m) =>
      patch(m.gensetId, {
        status: m.status,
        alarmCount: m.alarmnum,
        lastSeen: m.ts,
        values: listValues(m.values),
        live: liveValues(m.values),
      }),
    ),
    opts.bus.subscribe('alarm', (m) => patch(m.gensetId, { alarmCount: m.alarmnum })),
    opts.bus.subscribe('modem', (m) => modemOnline(m.modemId, m.online)),
    opts.bus.subscribe('sets', (m) => {
      if (m.origin !== origin) generation++;
    }),
  ];

  return {
    /** The directory as fresh as this server knows it; waits for a reload only after a local change. */
    async current(): Promise<Snapshot> {
      while (!snapshot || loadedGeneration !== generation) {
        const wanted = generation;
        await startLoad();
        if (loadedGeneration >= wanted && snapshot) break;
      }
      if (Date.now() - loadedAt > maxAgeMs && !loading) {
        startLoad().catch((err: unknown) => opts.log.warn({ err }, 'set directory reload failed'));
      }
      return snapshot;
    },
    /** A number that moves whenever a set's status or alarm count may have changed. */
    states: () => states,
    /**
     * After a set is added, edited (name, number, owner) or deleted here: the next list reloads first, here
     * and on every other instance.
     */
    invalidate() {
      generation++;
      opts.bus.publish('sets', { origin });
    },
    close() {
      for (const off of unsubscribe) off();
    },
  };
}
export type SetDirectory = ReturnType<typeof createSetDirectory>;
