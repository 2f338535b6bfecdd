// The set directory: what the set lists filter, count and sort on (name, number, owner, company, status,
// alarm count, last data), for every live set, in memory. Reading 1,000 sets' rows from the database for
// every page of "my gensets" cost milliseconds per request; the directory answers the same in microseconds
// and the database is asked only for the 20 rows a page shows.
//
// Freshness: status, alarms and last data follow the realtime bus at once (ingestion announces every
// change there). Changes made through this server (add, edit, delete) mark the directory stale, and the next
// list waits for a reload. Everything is reloaded in the background when older than `maxAgeMs`, which bounds
// how late changes made by another server instance appear.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { RealtimeBus } from '../devices/bus.ts';

export interface DirectoryEntry {
  id: number;
  companyId: number;
  ownerUserId: number | null;
  ownerDepartmentId: number | null;
  /** Lower-cased name and number. */
  search: string;
  createdAt: number;
  /** 0 offline (also: never reported), 1 shutdown, 2 standby, 3 running. */
  status: number;
  alarmCount: number;
  lastSeen: number | null;
  /** Position in the natural order of names (see naturalKey), then of ids. */
  nameRank: number;
  numberRank: number;
}

interface Snapshot {
  byId: Map<number, DirectoryEntry>;
  byOwner: Map<number, DirectoryEntry[]>;
  byCompany: Map<number, DirectoryEntry[]>;
}

/** Rows read per query while loading. */
const LOAD_SLICE = 2000;

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
  const maxAgeMs = opts.maxAgeMs ?? 10_000;
  let snapshot: Snapshot | null = null;
  let loadedAt = 0;
  let loading: Promise<Snapshot> | null = null;
  /** Bumped by every local change; a snapshot loaded before the latest bump is stale. */
  let generation = 0;
  let loadedGeneration = -1;
  /** Bus updates seen while a load runs, applied again over its result (it may have read older rows). */
  let duringLoad: Map<number, Partial<DirectoryEntry>> | null = null;

  /** Sort keys by name or number text, kept across reloads (names rarely change). */
  const sortKeys = new Map<string, string>();
  function sortKey(text: string): string {
    let key = sortKeys.get(text);
    if (key === undefined) {
      key = naturalKey(text);
      if (sortKeys.size > 200_000) sortKeys.clear();
      sortKeys.set(text, key);
    }
    return key;
  }

  async function load(): Promise<Snapshot> {
    const startedGeneration = generation;
    duringLoad = new Map();
    try {
      const entries: (DirectoryEntry & { nameKey: string; numberKey: string })[] = [];
      // In slices by id, so that a reload never holds the event loop (and the database) for long.
      for (let after = 0; ;) {
        const rows = await db
          .selectFrom('genset as g')
          .leftJoin('set_latest as l', 'l.genset_id', 'g.id')
          .leftJoin('users as o', 'o.id', 'g.owner_user_id')
          .select([
            'g.id',
            'g.company_id',
            'g.owner_user_id',
            'o.department_id',
            'g.name',
            'g.number',
            'g.search_text',
            'g.created_at',
            'l.status',
            'l.alarm_count',
            'l.device_ts',
          ])
          .where('g.deleted_at', 'is', null)
          .where('g.id', '>', after)
          .orderBy('g.id')
          .limit(LOAD_SLICE)
          .execute();
        for (const r of rows)
          entries.push({
            id: r.id,
            companyId: r.company_id,
            ownerUserId: r.owner_user_id,
            ownerDepartmentId: r.department_id ?? null,
            search: r.search_text,
            createdAt: r.created_at,
            status: r.status ?? 0,
            alarmCount: r.alarm_count ?? 0,
            lastSeen: r.device_ts ?? null,
            nameRank: 0,
            numberRank: 0,
            nameKey: sortKey(r.name),
            numberKey: sortKey(r.number ?? ''),
          });
        if (rows.length < LOAD_SLICE) break;
        after = rows[rows.length - 1]!.id;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const byName = [...entries].sort((a, b) => compareKeys(a.nameKey, b.nameKey) || a.id - b.id);
      byName.forEach((e, i) => (e.nameRank = i));
      [...entries]
        .sort((a, b) => compareKeys(a.numberKey, b.numberKey) || a.nameRank - b.nameRank)
        .forEach((e, i) => (e.numberRank = i));
      const next: Snapshot = { byId: new Map(), byOwner: new Map(), byCompany: new Map() };
      for (const { nameKey: _name, numberKey: _number, ...entry } of entries) {
        next.byId.set(entry.id, entry);
        if (entry.ownerUserId !== null) push(next.byOwner, entry.ownerUserId, entry);
        push(next.byCompany, entry.companyId, entry);
      }
      for (const [id, patch] of duringLoad) {
        const entry = next.byId.get(id);
        if (entry) Object.assign(entry, patch);
      }
      snapshot = next;
      loadedAt = Date.now();
      loadedGeneration = startedGeneration;
      return next;
    } finally {
      duringLoad = null;
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
    if (entry) Object.assign(entry, values);
    if (duringLoad) duringLoad.set(id, { ...duringLoad.get(id), ...values });
  }

  const unsubscribe = [
    opts.bus.subscribe('monitor', (m) =>
      patch(m.gensetId, { status: m.status, alarmCount: m.alarmnum, lastSeen: m.ts }),
    ),
    opts.bus.subscribe('alarm', (m) => patch(m.gensetId, { alarmCount: m.alarmnum })),
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
    /** After a set is added, edited (name, number, owner) or deleted here: the next list reloads first. */
    invalidate() {
      generation++;
    },
    close() {
      for (const off of unsubscribe) off();
    },
  };
}
export type SetDirectory = ReturnType<typeof createSetDirectory>;
