// What the station lists and statistics answer, kept in memory between the changes that alter it. A list page
// read its stations, their bound sets, latest values, open alarms, modules and energy from the database for
// every request (about 6 ms of CPU for a page of 20), and a year's statistics summed 1,460 day rows (about 5 ms);
// the same pages are asked for again and again while a station changes every few seconds at most.
//
// Freshness, on every instance (the realtime bus carries each of these to all of them):
// - a station's row and statistics are dropped when one of its sets stores a sample (`monitor`: ingestion
//   announces every stored sample after its transaction, energy included, so a recount sees it), when an
//   alarm of one of them opens or ends (`alarm`), when its module comes or goes (`modem`) and when the station
//   itself changes (`site`: its EMS status, tactic, bindings);
// - sets added, edited, deleted or handed over (`sets`) and any station added, edited or deleted drop everything;
// - an answer computed while its station changed is not kept (the generation it started from has moved on);
// - nothing is kept longer than `maxAgeMs`, which bounds how late a change made by hand in the database shows;
// - a row holds "today" of the station's own local day and is not used once that day is over.
import type { RealtimeBus } from '../devices/bus.ts';

interface Kept<V> {
  value: V;
  at: number;
  generation: number;
}

/** Statistics answers kept at most (dates asked for are many; past this all are dropped and kept anew). */
const MAX_STATS = 5_000;

export interface StationAnswersOptions {
  bus: RealtimeBus;
  now: () => number;
  maxAgeMs?: number;
}

export function createStationAnswers<List, Row, Stats>(opts: StationAnswersOptions) {
  const maxAgeMs = opts.maxAgeMs ?? 30_000;
  /** Moves on whenever everything is dropped. */
  let epoch = 0;
  /** Moves on whenever the lists are dropped. */
  let listGeneration = 0;
  /** Per station, moves on whenever its answers are dropped. */
  const generations = new Map<number, number>();
  const siteOfSet = new Map<number, number>();
  const sitesOfModem = new Map<number, Set<number>>();
  const lists = new Map<string, Kept<List>>();
  const rows = new Map<number, Kept<Row> & { day: string }>();
  const stats = new Map<string, Kept<Stats>>();
  const statsKeys = new Map<number, Set<string>>();

  const generation = (siteId: number) => epoch * 1e9 + (generations.get(siteId) ?? 0);

  function dropSite(siteId: number) {
    generations.set(siteId, (generations.get(siteId) ?? 0) + 1);
    rows.delete(siteId);
    for (const key of statsKeys.get(siteId) ?? []) stats.delete(key);
    statsKeys.delete(siteId);
  }

  function dropLists() {
    listGeneration++;
    lists.clear();
  }

  function dropAll() {
    epoch++;
    dropLists();
    rows.clear();
    stats.clear();
    statsKeys.clear();
    siteOfSet.clear();
    sitesOfModem.clear();
  }

  const fresh = <V>(kept: Kept<V> | undefined, gen: number): kept is Kept<V> =>
    kept !== undefined && kept.generation === gen && opts.now() - kept.at < maxAgeMs;

  const bySet = (gensetId: number) => {
    const siteId = siteOfSet.get(gensetId);
    if (siteId !== undefined) dropSite(siteId);
  };
  const unsubscribe = [
    opts.bus.subscribe('monitor', (m) => bySet(m.gensetId)),
    opts.bus.subscribe('alarm', (m) => bySet(m.gensetId)),
    opts.bus.subscribe('modem', (m) => {
      for (const siteId of sitesOfModem.get(m.modemId) ?? []) dropSite(siteId);
    }),
    opts.bus.subscribe('site', (m) => {
      dropSite(m.siteId);
      // its name, owner or bindings may have changed: the lists are read again
      dropLists();
    }),
    opts.bus.subscribe('sets', () => dropAll()),
  ];

  return {
    /** Notes which sets and module a station's answers read, so their news drops them. */
    bind(siteId: number, modemId: number | null, gensetIds: readonly number[]) {
      for (const id of gensetIds) siteOfSet.set(id, siteId);
      if (modemId === null) return;
      let sites = sitesOfModem.get(modemId);
      if (!sites) sitesOfModem.set(modemId, (sites = new Set()));
      sites.add(siteId);
    },

    generation,
    listGeneration: () => listGeneration,

    list(key: string): List | undefined {
      const kept = lists.get(key);
      return fresh(kept, listGeneration) ? kept.value : undefined;
    },
    keepList(key: string, value: List, startedAt: number) {
      if (startedAt === listGeneration) lists.set(key, { value, at: opts.now(), generation: startedAt });
    },

    row(siteId: number, day: string): Row | undefined {
      const kept = rows.get(siteId);
      return fresh(kept, generation(siteId)) && kept.day === day ? kept.value : undefined;
    },
    keepRow(siteId: number, day: string, value: Row, startedAt: number) {
      if (startedAt === generation(siteId)) rows.set(siteId, { value, day, at: opts.now(), generation: startedAt });
    },

    stats(siteId: number, key: string): Stats | undefined {
      const kept = stats.get(`${siteId}|${key}`);
      return fresh(kept, generation(siteId)) ? kept.value : undefined;
    },
    keepStats(siteId: number, key: string, value: Stats, startedAt: number) {
      if (startedAt !== generation(siteId)) return;
      const full = `${siteId}|${key}`;
      if (stats.size >= MAX_STATS) {
        stats.clear();
        statsKeys.clear();
      }
      stats.set(full, { value, at: opts.now(), generation: startedAt });
      let keys = statsKeys.get(siteId);
      if (!keys) statsKeys.set(siteId, (keys = new Set()));
      keys.add(full);
    },

    /** A station was added, edited or deleted here (other instances hear of it as `site` on the bus). */
    invalidate: dropAll,

    close() {
      for (const u of unsubscribe) u();
    },
  };
}
export type StationAnswers<List, Row, Stats> = ReturnType<typeof createStationAnswers<List, Row, Stats>>;
