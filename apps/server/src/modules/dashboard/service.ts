// The home page summary (/home/summary) and the multi-set grid (/devicedata/getmutilstatus) over the sets
// a user sees: counts by status, active alarms by level, the fleet's output now, positions with status,
// the 30-day energy ranking and the latest alarms; the key values of many sets at once. The home page's counts,
// output and positions come from the set directory in memory (what the set lists show); alarms and the energy
// of the window from the database. The grid's values are read out of the JSON columns in the database, so a
// large fleet's rows are not parsed one by one on the server.
import {
  hasAnyPermission,
  Permission,
  DEFAULT_MULTI_ITEMS,
  setStateOf,
  type DataItem,
  type HomeSummaryResponse,
  type Language,
  type MultiStatusEntry,
} from '@genset/protocol';
import type { Db, DbKind } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import type { SessionContext } from '../auth/service.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import { alarmEntry, column } from '../history/service.ts';
import { historySql } from '../history/sql.ts';
import { visibleSets } from '../history/visibility.ts';
import type { DataScopeService } from '../account/scope.ts';
import { createGroupRepository } from '../groups/repository.ts';
import type { ListQueries } from '../gensets/list.ts';
import { countOf, pageOf } from '../../db/paging.ts';
import { createFirstReadings } from './first-readings.ts';
import { areasOf, MAP_SETS } from './areas.ts';
import { keepRecent } from '../../lib/memo.ts';
import type { DirectoryEntry } from '../gensets/directory.ts';

const RANKING_SIZE = 10;
/**
 * A person's summary is answered again from the last one for this long, while no set of the directory has changed
 * its status or alarms and the sets they see are the same (a fleet of 100,000 sets costs 10–20 ms of CPU a summary,
 * and every open home page and wall display of the account asks for it).
 */
const SUMMARY_FRESH_MS = 2000;
/** Summaries kept, by person and language. */
const SUMMARIES_KEPT = 200;
const LATEST_ALARMS = 10;
/** A fleet up to this many sets is named by id in the alarm queries; a larger one is filtered in memory. */
const LISTED_SETS = 1000;
/** How many of the platform's latest alarms are read at a time for a large fleet, and how many times. */
const LATEST_PAGE = 200;
const LATEST_PAGES = 5;

/** The fleet's RANKING_SIZE sets with the most energy since their first readings, most first (names break ties). */
function topRanked(fleet: DirectoryEntry[], firsts: Map<number, number>) {
  const top: { token: string; name: string; kwh: number }[] = [];
  for (const s of fleet) {
    const first = firsts.get(s.id);
    if (first === undefined || s.live.kwhTotal === null) continue;
    const kwh = Math.round((s.live.kwhTotal - first) * 10) / 10;
    if (!Number.isFinite(kwh) || kwh <= 0) continue;
    const last = top.at(-1);
    if (
      top.length === RANKING_SIZE &&
      last &&
      (kwh < last.kwh || (kwh === last.kwh && s.name.localeCompare(last.name) >= 0))
    )
      continue;
    top.push({ token: s.token, name: s.name, kwh });
    top.sort((a, b) => b.kwh - a.kwh || a.name.localeCompare(b.name));
    if (top.length > RANKING_SIZE) top.pop();
  }
  return top;
}

export interface DashboardOptions {
  db: Db;
  kind: DbKind;
  protocols: ProtocolStore;
  /** What roles reach: the sets a user's home page and monitor grid count. */
  scope: DataScopeService;
  /** The sets a user sees, on the set directory in memory (gensets/list.ts). */
  lists: Pick<ListQueries, 'visible'>;
  /** How a large fleet's alarms are read (defaults LISTED_SETS, LATEST_PAGE, LATEST_PAGES; tests set smaller). */
  alarmReads?: { listedSets: number; latestPage: number; latestPages: number };
  /** Most sets the home map shows one by one, more are shown by area (default MAP_SETS; tests set fewer). */
  mapSets?: number;
  /** The set directory's count of status and alarm changes (a summary is not answered again across one). */
  states?: () => number;
}

/** A usable coordinate: numbers in range, and not the 0/0 a receiver without a fix reports. */
function position(lat: unknown, lng: unknown): { lat: number; lng: number } | null {
  const a = Number(lat);
  const b = Number(lng);
  if (lat === null || lng === null || lat === undefined || lng === undefined || lat === '' || lng === '') return null;
  if (!Number.isFinite(a) || !Number.isFinite(b) || Math.abs(a) > 90 || Math.abs(b) > 180) return null;
  if (a === 0 && b === 0) return null;
  return { lat: a, lng: b };
}

export function createDashboardService(opts: DashboardOptions) {
  const { db, protocols } = opts;
  const q = historySql(opts.kind);
  const groups = createGroupRepository(db);

  /** The user's sets, without a storage station's devices (shown with their station, not as gensets). */
  async function visible(ctx: SessionContext) {
    const reach = await opts.scope.reach(ctx.user, ctx.grant);
    return visibleSets(db, reach).where((eb) =>
      eb.not(eb.exists(eb.selectFrom('site_device as sd').select('sd.id').whereRef('sd.genset_id', '=', 'g.id'))),
    );
  }

  const firsts = createFirstReadings(db, q);
  const reads = opts.alarmReads ?? { listedSets: LISTED_SETS, latestPage: LATEST_PAGE, latestPages: LATEST_PAGES };

  /** The ids of a fleet (the lists keep one array per person while it holds: so is this set). */
  const memberSets = new WeakMap<DirectoryEntry[], Set<number>>();
  function membersOf(fleet: DirectoryEntry[]): Set<number> {
    let ids = memberSets.get(fleet);
    if (!ids) memberSets.set(fleet, (ids = new Set(fleet.map((s) => s.id))));
    return ids;
  }

  /**
   * Open alarms per level over the fleet. A small fleet's are asked for by id; a large one's are the platform's
   * open alarms (an index of their own, a few per alarming set) taken where they belong to the fleet.
   */
  async function openAlarmLevels(fleet: DirectoryEntry[], members: Set<number>) {
    if (fleet.length === 0) return [];
    const open = db.selectFrom('alarm').where('end_ts', 'is', null);
    if (fleet.length <= reads.listedSets)
      return open
        .select(['level', (eb) => eb.fn.countAll().as('n')])
        .where('genset_id', 'in', [...members])
        .groupBy('level')
        .execute();
    const rows = await open
      .select(['genset_id', 'level', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['genset_id', 'level'])
      .execute();
    return rows.filter((r) => members.has(r.genset_id));
  }

  /**
   * The fleet's latest alarms: a small fleet's by id; a large one's out of the platform's latest, newest first, a
   * page at a time, until there are enough (or, after a few pages, by the sets' ids in the database).
   */
  async function latestAlarms(ctx: SessionContext, fleet: DirectoryEntry[], members: Set<number>) {
    const query = () =>
      db
        .selectFrom('alarm as a')
        .innerJoin('genset as g', 'g.id', 'a.genset_id')
        .select(['a.id', 'a.genset_id', 'a.code', 'a.level', 'a.title', 'a.start_ts', 'a.end_ts', 'g.token', 'g.name'])
        .orderBy('a.start_ts', 'desc')
        .orderBy('a.id', 'desc');
    type Row = Awaited<ReturnType<ReturnType<typeof query>['execute']>>[number];
    if (fleet.length === 0) return [];
    if (fleet.length <= reads.listedSets)
      return query()
        .where('a.genset_id', 'in', [...members])
        .limit(LATEST_ALARMS)
        .execute();
    const found: Row[] = [];
    let after: Row | undefined;
    for (let pages = 0; pages < reads.latestPages; pages++) {
      const from: Row | undefined = after;
      const next = from
        ? query().where((eb) =>
            eb.or([
              eb('a.start_ts', '<', from.start_ts),
              eb.and([eb('a.start_ts', '=', from.start_ts), eb('a.id', '<', from.id)]),
            ]),
          )
        : query();
      const page: Row[] = await next.limit(reads.latestPage).execute();
      for (const a of page) if (members.has(a.genset_id) && found.length < LATEST_ALARMS) found.push(a);
      if (found.length >= LATEST_ALARMS || page.length < reads.latestPage) return found;
      after = page.at(-1);
    }
    // the fleet's alarms are not among the platform's latest: asked for by the sets the user sees
    return query()
      .where('a.genset_id', 'in', (await visible(ctx)).select('g.id'))
      .limit(LATEST_ALARMS)
      .execute();
  }

  /** The last summaries, and what each was made from. */
  const summaries = new Map<
    string,
    { fleet: DirectoryEntry[]; states: number; at: number; answer: Promise<HomeSummaryResponse> }
  >();

  const service = {
    /** Reads what every summary needs before the first one is asked for (the energy ranking's first readings). */
    warm: () => firsts.warm(),
    /**
     * The home page's summary; answered again from the last one of the same person and language within
     * SUMMARY_FRESH_MS when nothing it counts has changed (calls meanwhile share one).
     */
    async summary(ctx: SessionContext, lang: Language): Promise<HomeSummaryResponse> {
      // the sets as the lists show them (the set directory in memory, which follows the realtime bus): with
      // 100,000 sets, reading their latest rows for every home page took a second
      const fleet = await opts.lists.visible(ctx.user, ctx.grant);
      const states = opts.states?.() ?? -1;
      const key = `${ctx.user.id} ${lang} ${ctx.grant.permissions.join(',')}`;
      const last = summaries.get(key);
      const at = Date.now();
      if (last && last.fleet === fleet && last.states === states && states >= 0 && at - last.at < SUMMARY_FRESH_MS)
        return last.answer;
      const answer = service.fresh(ctx, lang, fleet);
      keepRecent(summaries, key, { fleet, states, at, answer }, SUMMARIES_KEPT);
      answer.catch(() => summaries.delete(key));
      return answer;
    },

    /** The summary made now over `fleet`. */
    async fresh(ctx: SessionContext, lang: Language, fleet: DirectoryEntry[]): Promise<HomeSummaryResponse> {
      const now = Date.now();

      // each set in one state of the partition; sets with active alarms counted apart (an overlay)
      const counts = { total: 0, offline: 0, shutdown: 0, standby: 0, running: 0, alarm: 0 };
      let totalKw = 0;
      const positions: HomeSummaryResponse['positions'] = [];
      for (const s of fleet) {
        const status = s.status;
        const alarmnum = s.alarmCount;
        counts.total++;
        counts[setStateOf(status)]++;
        if (alarmnum > 0) counts.alarm++;
        const kw = s.values.kw;
        if (status !== 0 && kw !== null && Number.isFinite(kw)) totalKw += kw;
        const at = position(s.live.latitude, s.live.longitude) ?? position(s.latitude, s.longitude);
        if (at) positions.push({ token: s.token, name: s.name, status, alarmnum, ...at, kw: status !== 0 ? kw : null });
      }

      // a fleet too large to show set by set on a map is shown by area
      const mapSets = opts.mapSets ?? MAP_SETS;
      const areas = positions.length > mapSets ? areasOf(positions) : [];

      const members = membersOf(fleet);
      const levels = await openAlarmLevels(fleet, members);
      const alarms = { total: 0, warning: 0, shutdown: 0, trip: 0 };
      for (const row of levels) {
        const n = Number(row.n);
        if (row.level === 'warning' || row.level === 'shutdown' || row.level === 'trip') alarms[row.level] += n;
        alarms.total += n;
      }

      // Energy of the last 30 days: the set's energy counter now minus its first reading of the oldest day
      // in the window (first-readings.ts: kept for the whole fleet, read once a day and filled in per set)
      const firstKwh = await firsts.of(fleet, now);
      const ranking = topRanked(fleet, firstKwh);

      // the latest alarms are alarm history: only for alarm:view
      const latest = hasAnyPermission(ctx.grant.permissions, [Permission.alarmView])
        ? await latestAlarms(ctx, fleet, members)
        : [];

      return {
        counts,
        alarms,
        totalKw: Math.round(totalKw * 10) / 10,
        positions: areas.length ? [] : positions,
        areas,
        ranking,
        latestAlarms: latest.map((a) => ({ ...alarmEntry(a, lang), token: a.token, setName: a.name })),
        ts: now,
      };
    },

    async multiStatus(
      ctx: SessionContext,
      input: {
        group?: string | undefined;
        tokens?: string[] | undefined;
        items?: string[] | undefined;
        page: number;
        size: number;
      },
      lang: Language,
    ) {
      if (input.group) {
        // A group's members, in its order, with its items unless others are asked for; every member must be
        // the user's to see, as with listed sets.
        const group = await groups.byToken(input.group);
        const members = group ? await groups.memberSets(group.token) : undefined;
        if (!group || !members) throw notFound();
        if (members.length === 0) return { list: [], total: 0, page: 1, size: 0 };
        input = { ...input, tokens: members.map((m) => m.token), items: input.items ?? group.items };
      }
      const sets = await visible(ctx);
      const columns = ['g.id', 'g.token', 'g.name', 'g.protocol_key', 'g.modem_id'] as const;
      let rows: { id: number; token: string; name: string; protocol_key: string; modem_id: number | null }[];
      let total: number;
      let page = input.page;
      let size = input.size;
      if (input.tokens) {
        const tokens = [...new Set(input.tokens)];
        const found = await sets.select(columns).where('g.token', 'in', tokens).execute();
        // A set the user may not see is as unknown as one that does not exist.
        if (found.length !== tokens.length) throw notFound();
        const byToken = new Map(found.map((s) => [s.token, s]));
        rows = tokens.map((t) => byToken.get(t)!);
        total = rows.length;
        page = 1;
        size = rows.length;
      } else {
        total = await countOf(sets.select((eb) => eb.fn.countAll().as('n')));
        ({ rows } = await pageOf(total, page, size, (limit, offset) =>
          sets.select(columns).orderBy('g.name').orderBy('g.id').limit(limit).offset(offset).execute(),
        ));
      }
      const ids = rows.map((r) => r.id);
      const latest = ids.length
        ? await db.selectFrom('set_latest').selectAll().where('genset_id', 'in', ids).execute()
        : [];
      const byId = new Map(latest.map((l) => [l.genset_id, l]));
      const modemIds = rows.map((r) => r.modem_id).filter((m): m is number => m !== null);
      const modems = modemIds.length
        ? await db.selectFrom('modem').select(['id', 'online']).where('id', 'in', modemIds).execute()
        : [];
      const online = new Map(modems.map((m) => [m.id, m.online === 1]));
      const wanted = input.items ?? DEFAULT_MULTI_ITEMS;

      const list: MultiStatusEntry[] = [];
      for (const s of rows) {
        const l = byId.get(s.id);
        const values = l ? (JSON.parse(l.values) as Record<string, number | null>) : {};
        const items = (await protocols.get(s.protocol_key))?.doc.items ?? [];
        const byKey = new Map<string, DataItem>(items.map((i) => [i.key, i]));
        list.push({
          token: s.token,
          name: s.name,
          status: l?.status ?? 0,
          alarmnum: l?.alarm_count ?? 0,
          online: s.modem_id !== null && (online.get(s.modem_id) ?? false),
          ts: l ? Number(l.device_ts) : null,
          values: wanted
            .map((key) => byKey.get(key))
            .filter((i): i is DataItem => i !== undefined)
            .map((item) => {
              const value = values[item.key] ?? null;
              const option = item.enum?.find((o) => o.value === value);
              return { ...column(item, lang), value, label: option ? option.label[lang] : null };
            }),
        });
      }
      return { list, total, page, size };
    },
  };
  return service;
}
export type DashboardService = ReturnType<typeof createDashboardService>;
