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

const RANKING_SIZE = 10;
const LATEST_ALARMS = 10;

export interface DashboardOptions {
  db: Db;
  kind: DbKind;
  protocols: ProtocolStore;
  /** What roles reach: the sets a user's home page and monitor grid count. */
  scope: DataScopeService;
  /** The sets a user sees, on the set directory in memory (gensets/list.ts). */
  lists: Pick<ListQueries, 'visible'>;
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

  return {
    async summary(ctx: SessionContext, lang: Language): Promise<HomeSummaryResponse> {
      // the sets as the lists show them (the set directory in memory, which follows the realtime bus): with
      // 100,000 sets, reading their latest rows for every home page took a second
      const fleet = await opts.lists.visible(ctx.user, ctx.grant);
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

      const visibleIds = (await visible(ctx)).select('g.id');
      const levels = await db
        .selectFrom('alarm')
        .select(['level', (eb) => eb.fn.countAll().as('n')])
        .where('end_ts', 'is', null)
        .where('genset_id', 'in', visibleIds)
        .groupBy('level')
        .execute();
      const alarms = { total: 0, warning: 0, shutdown: 0, trip: 0 };
      for (const row of levels) {
        const n = Number(row.n);
        if (row.level === 'warning' || row.level === 'shutdown' || row.level === 'trip') alarms[row.level] += n;
        alarms.total += n;
      }

      // Energy of the last 30 days: the set's energy counter now minus its first reading of the oldest day
      // in the window (first-readings.ts: kept for the whole fleet, read once a day and filled in per set)
      const firstKwh = await firsts.of(fleet, now);
      const ranking = fleet
        .map((s) => {
          const first = firstKwh.get(s.id);
          const kwh = first === undefined || s.live.kwhTotal === null ? NaN : s.live.kwhTotal - first;
          return { token: s.token, name: s.name, kwh: Math.round(kwh * 10) / 10 };
        })
        .filter((r) => Number.isFinite(r.kwh) && r.kwh > 0)
        .sort((a, b) => b.kwh - a.kwh || a.name.localeCompare(b.name))
        .slice(0, RANKING_SIZE);

      // the latest alarms are alarm history: only for alarm:view
      const latest = !hasAnyPermission(ctx.grant.permissions, [Permission.alarmView])
        ? []
        : await db
            .selectFrom('alarm as a')
            .innerJoin('genset as g', 'g.id', 'a.genset_id')
            .select(['a.id', 'a.code', 'a.level', 'a.title', 'a.start_ts', 'a.end_ts', 'g.token', 'g.name'])
            .where('a.genset_id', 'in', (await visible(ctx)).select('g.id'))
            .orderBy('a.start_ts', 'desc')
            .orderBy('a.id', 'desc')
            .limit(LATEST_ALARMS)
            .execute();

      return {
        counts,
        alarms,
        totalKw: Math.round(totalKw * 10) / 10,
        positions,
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
}
export type DashboardService = ReturnType<typeof createDashboardService>;
