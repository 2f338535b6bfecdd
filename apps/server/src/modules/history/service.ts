// History of one set: chart series (/history/chart) and the paged table (/devicedata/gethistory) of chosen
// items over a range, read from the stored samples up to two days and from hourly or daily rollups beyond;
// the set's alarms (current, history, per-day chart) and the controller's maintenance countdown.
//
// Chart queries are shaped for a large fleet: one index range scan of the set's rows (the rollup tables'
// primary key is (genset_id, bucket), samples have (genset_id, ts)), each item's part of the JSON read
// once per row, and the buckets of at most MAX_CHART_POINTS points averaged in the database, so that
// only the points travel to the server.
import { contains } from '../../db/like.ts';
import { countOf, pageOf } from '../../db/paging.ts';
import {
  MAX_CHART_POINTS,
  ResultCode,
  type AlarmChartResponse,
  type AlarmEntry,
  type AlarmLevelName,
  type ChartPoint,
  type DataItem,
  type HistoryColumn,
  type HistoryRange,
  type HistoryRow,
  type Language,
} from '@genset/protocol';
import { sql, type RawBuilder } from 'kysely';
import type { Db, DbKind } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { SessionContext } from '../auth/service.ts';
import type { GensetRow } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { DeviceService } from '../devices/service.ts';
import { chartStep, daysOf, firstBucket, resolveRange, sourceOf, type ResolvedRange } from './range.ts';
import { startOfDay } from '../devices/time.ts';
import { historySql } from './sql.ts';
import { visibleSets } from './visibility.ts';
import type { DataScopeService } from '../account/scope.ts';
import type { ItemStats } from '../devices/ingest/bucket-stats.ts';

export interface HistoryServiceOptions {
  db: Db;
  kind: DbKind;
  devices: Pick<DeviceService, 'resolve'>;
  protocols: ProtocolStore;
  /** What roles reach (the alarm counts of every set a user sees). */
  scope: DataScopeService;
}

interface RangeRequest {
  range: HistoryRange;
  start?: number | undefined;
  end?: number | undefined;
}

const FIFTEEN_MINUTES = 900_000;
const HOUR = 3_600_000;
export const LEVELS: readonly AlarmLevelName[] = ['warning', 'shutdown', 'trip'];

/** Counters (energy, run hours, starts) are shown by their last reading; a mean of a counter means nothing. */
export function isCounter(item: DataItem): boolean {
  return item.group === 'counters';
}

export function column(item: DataItem, lang: Language): HistoryColumn {
  return { key: item.key, name: item.name[lang], unit: item.unit, decimals: item.decimals };
}

export function alarmTitle(title: string, lang: Language, code: string): string {
  try {
    const t = JSON.parse(title) as Record<string, string>;
    return t[lang] ?? t['en-US'] ?? code;
  } catch {
    return code;
  }
}

export function alarmEntry(
  row: {
    id: number;
    code: string;
    level: string;
    title: string;
    start_ts: number;
    end_ts: number | null;
    occurrences?: number;
    flapping?: number;
    ack_at?: number | null;
    ack_comment?: string | null;
    ack_name?: string | null;
    shelved_until?: number | null;
    shelved_at?: number | null;
    shelve_reason?: string | null;
    shelf_name?: string | null;
  },
  lang: Language,
  now = Date.now(),
): AlarmEntry {
  return {
    id: row.id,
    code: row.code,
    level: (LEVELS as readonly string[]).includes(row.level) ? (row.level as AlarmLevelName) : 'warning',
    title: alarmTitle(row.title, lang, row.code),
    start: Number(row.start_ts),
    end: row.end_ts === null ? null : Number(row.end_ts),
    ...(row.occurrences === undefined ? {} : { occurrences: Number(row.occurrences), flapping: row.flapping === 1 }),
    ...(row.ack_at === undefined
      ? {}
      : {
          ack:
            row.ack_at === null
              ? null
              : { by: row.ack_name ?? '', at: Number(row.ack_at), comment: row.ack_comment ?? '' },
        }),
    ...(row.shelved_until === undefined
      ? {}
      : {
          // on the shelf until its time is up (the notification round then takes it off)
          shelf:
            row.shelved_until === null || Number(row.shelved_until) <= now
              ? null
              : {
                  by: row.shelf_name ?? '',
                  at: Number(row.shelved_at),
                  until: Number(row.shelved_until),
                  reason: row.shelve_reason ?? '',
                },
        }),
  };
}

/** Alarms with the names of whoever acknowledged and shelved each (alarmEntry reads them). */
export function alarmsWithPeople(db: Db) {
  return db
    .selectFrom('alarm')
    .leftJoin('users as acker', 'acker.id', 'alarm.ack_by')
    .leftJoin('users as shelver', 'shelver.id', 'alarm.shelved_by')
    .selectAll('alarm')
    .select(['acker.nickname as ack_name', 'shelver.nickname as shelf_name']);
}

function itemError(item: string): AppError {
  return new AppError(
    ResultCode.invalid,
    'errors.validation',
    {},
    { fieldErrors: [{ field: 'items', rule: 'validation.itemUnknown', params: { item } }] },
  );
}

/** Rounds to the item's decimals (plus two, so averages keep a little more than the display shows). */
function rounder(decimals: number) {
  const f = 10 ** Math.min(decimals + 2, 9);
  return (v: number | null | undefined): number | null =>
    v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Math.round(Number(v) * f) / f;
}

export function createHistoryService(opts: HistoryServiceOptions) {
  const { db, devices, protocols } = opts;
  const q = historySql(opts.kind);

  async function itemsFor(set: GensetRow, keys: readonly string[]): Promise<DataItem[]> {
    const doc = (await protocols.get(set.protocol_key))?.doc;
    const byKey = new Map((doc?.items ?? []).map((i) => [i.key, i]));
    const out: DataItem[] = [];
    const seen = new Set<string>();
    for (const key of keys) {
      const item = byKey.get(key);
      if (!item) throw itemError(key);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(item);
    }
    return out;
  }

  /** Points of every item over the range, bucketed in the database: [time, value, min, max]. */
  async function chartPoints(set: GensetRow, items: DataItem[], r: ResolvedRange) {
    const { table, time } = sourceOf(r.resolution);
    const step = chartStep(r);
    const from = r.resolution === 'raw' ? r.start : firstBucket(r, set.time_zone);
    const t = sql.ref('t');
    const group = step > 0 ? q.bucketIndex(t, from, step) : t;
    let inner: RawBuilder<unknown>;
    let aggregates: RawBuilder<unknown>[];
    // The rows of the range, their JSON column read once when several items are asked for.
    const column = r.resolution === 'raw' ? 'values' : 'stats';
    const json = items.length > 1 ? q.detoasted(sql.ref(column)) : sql.ref(column);
    const rowsOfRange = sql`select ${sql.ref(time)} as t, ${json} as j from ${sql.table(table)}
      where genset_id = ${set.id} and ${sql.ref(time)} >= ${from} and ${sql.ref(time)} < ${r.end} ${q.fence}`;
    const j = sql.ref('j');
    if (r.resolution === 'raw') {
      // The text after each item's key, then the number at its start.
      const windows = items.map((item, i) => sql`${q.valueWindow(j, item.key)} as ${sql.ref(`w${i}`)}`);
      inner = sql`select t, ${sql.join(items.map((_, i) => sql`${q.valueNumber(sql.ref(`w${i}`))} as ${sql.ref(`v${i}`)}`))}
        from (select t, ${sql.join(windows)} from (${rowsOfRange}) range_rows ${q.fence}) value_windows`;
      aggregates = items.map((item, i) => {
        const v = sql.ref(`v${i}`);
        return sql`${isCounter(item) ? sql`max(${v})` : sql`avg(${v})`} as ${sql.ref(`a${i}`)},
          min(${v}) as ${sql.ref(`n${i}`)}, max(${v}) as ${sql.ref(`x${i}`)}`;
      });
    } else {
      // The text after each item's key, then its {min,max,sum,n,first,last} object, then its members.
      const windows = items.map((item, i) => sql`${q.statsWindow(j, item.key)} as ${sql.ref(`w${i}`)}`);
      inner = sql`select t, ${sql.join(items.map((_, i) => sql`${q.statsObject(sql.ref(`w${i}`))} as ${sql.ref(`o${i}`)}`))}
        from (select t, ${sql.join(windows)} from (${rowsOfRange}) range_rows ${q.fence}) stats_windows ${q.fence}`;
      aggregates = items.map((item, i) => {
        const o = sql.ref(`o${i}`);
        const value = isCounter(item)
          ? sql`max(${q.num(o, 'last')})`
          : sql`sum(${q.num(o, 'sum')}) / nullif(sum(${q.num(o, 'n')}), 0)`;
        return sql`${value} as ${sql.ref(`a${i}`)}, min(${q.num(o, 'min')}) as ${sql.ref(`n${i}`)},
          max(${q.num(o, 'max')}) as ${sql.ref(`x${i}`)}`;
      });
    }
    const { rows } = await sql<Record<string, number | null>>`
      select min(t) as t, ${sql.join(aggregates)} from (${inner}) rows_in_range
      group by ${group} order by min(t) limit ${MAX_CHART_POINTS + 1}`.execute(db);
    return {
      step,
      series: items.map((item, i) => {
        const round = rounder(item.decimals);
        const points: ChartPoint[] = [];
        for (const row of rows) {
          const value = round(row[`a${i}`]);
          const min = round(row[`n${i}`]);
          const max = round(row[`x${i}`]);
          if (value === null && min === null && max === null) continue;
          points.push([Number(row.t), value, min, max]);
        }
        return points;
      }),
    };
  }

  function rowFromStats(
    ts: number,
    stats: Record<string, ItemStats>,
    items: DataItem[],
    status: number | null,
    partial: boolean,
  ): HistoryRow {
    const values: Record<string, number | null> = {};
    for (const item of items) {
      const s = stats[item.key];
      const round = rounder(item.decimals);
      values[item.key] = !s ? null : isCounter(item) ? round(s.last) : round(s.n > 0 ? s.sum / s.n : null);
    }
    return { ts, status, values, partial };
  }

  /** The start of the chart point holding the hour or day still under way, if the range reaches it. */
  function partialPointFrom(set: GensetRow, r: ResolvedRange, step: number, now = Date.now()): number | null {
    if (r.resolution === 'raw') return null;
    const current = r.resolution === 'hour' ? now - (now % HOUR) : startOfDay(now, set.time_zone);
    if (current >= r.end || bucketEnd(current, r.resolution, set.time_zone) <= r.start) return null;
    if (r.resolution === 'day' || step <= 0) return current;
    const from = firstBucket(r, set.time_zone);
    return from + Math.floor((current - from) / step) * step;
  }

  /** Where an hour or day row ends: the next hour, or the next local midnight of the set's zone. */
  function bucketEnd(bucket: number, resolution: ResolvedRange['resolution'], timeZone: string): number {
    return resolution === 'hour' ? bucket + HOUR : startOfDay(bucket + 36 * HOUR, timeZone);
  }

  /**
   * The status each bucket's set was in longest (up to now for a bucket not over), from the stored status
   * changes: the one in force when the first bucket began and those during the buckets. Null where none is known.
   */
  async function bucketStatuses(set: GensetRow, spans: { start: number; end: number }[], now: number) {
    const out = spans.map((): number | null => null);
    if (!spans.length) return out;
    const from = Math.min(...spans.map((s) => s.start));
    const to = Math.min(now, Math.max(...spans.map((s) => s.end)));
    const before = await db
      .selectFrom('status_change')
      .select(['ts', 'status'])
      .where('genset_id', '=', set.id)
      .where('ts', '<', from)
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const during = await db
      .selectFrom('status_change')
      .select(['ts', 'status'])
      .where('genset_id', '=', set.id)
      .where('ts', '>=', from)
      .where('ts', '<', to)
      .orderBy('ts')
      .orderBy('id')
      .execute();
    const changes = [...(before ? [before] : []), ...during].map((c) => ({ ts: Number(c.ts), status: c.status }));
    spans.forEach((span, i) => {
      const end = Math.min(span.end, now);
      const time = new Map<number, number>();
      for (let k = 0; k < changes.length; k++) {
        const a = Math.max(changes[k]!.ts, span.start);
        const b = Math.min(changes[k + 1]?.ts ?? end, end);
        if (b > a) time.set(changes[k]!.status, (time.get(changes[k]!.status) ?? 0) + (b - a));
      }
      let best: number | null = null;
      for (const [status, ms] of time) if (best === null || ms > time.get(best)!) best = status;
      out[i] = best;
    });
    return out;
  }

  function rowFromSample(ts: number, status: number, json: string, items: DataItem[]): HistoryRow {
    const all = JSON.parse(json) as Record<string, number | null>;
    const values: Record<string, number | null> = {};
    for (const item of items) values[item.key] = all[item.key] ?? null;
    return { ts, status, values };
  }

  /** Rows of the range in time order, `limit` from `offset` (the table view pages, the export reads all). */
  async function tableRows(
    set: GensetRow,
    items: DataItem[],
    r: ResolvedRange,
    page: { limit: number; offset: number; order: 'asc' | 'desc' },
  ): Promise<HistoryRow[]> {
    if (r.resolution === 'raw') {
      const rows = await db
        .selectFrom('sample')
        .select(['ts', 'status', 'values'])
        .where('genset_id', '=', set.id)
        .where('ts', '>=', r.start)
        .where('ts', '<', r.end)
        .orderBy('ts', page.order)
        .orderBy('id', page.order)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map((row) => rowFromSample(Number(row.ts), row.status, row.values, items));
    }
    const table = r.resolution === 'hour' ? 'rollup_hour' : 'rollup_day';
    const rows = await db
      .selectFrom(table)
      .select(['bucket', 'stats'])
      .where('genset_id', '=', set.id)
      .where('bucket', '>=', firstBucket(r, set.time_zone))
      .where('bucket', '<', r.end)
      .orderBy('bucket', page.order)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const now = Date.now();
    const spans = rows.map((row) => ({
      start: Number(row.bucket),
      end: bucketEnd(Number(row.bucket), r.resolution, set.time_zone),
    }));
    const statuses = await bucketStatuses(set, spans, now);
    return rows.map((row, i) =>
      rowFromStats(
        Number(row.bucket),
        JSON.parse(row.stats) as Record<string, ItemStats>,
        items,
        statuses[i]!,
        spans[i]!.end > now,
      ),
    );
  }

  async function tableCount(set: GensetRow, r: ResolvedRange): Promise<number> {
    if (r.resolution === 'raw') {
      const row = await db
        .selectFrom('sample')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('genset_id', '=', set.id)
        .where('ts', '>=', r.start)
        .where('ts', '<', r.end)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    }
    const row = await db
      .selectFrom(r.resolution === 'hour' ? 'rollup_hour' : 'rollup_day')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('genset_id', '=', set.id)
      .where('bucket', '>=', firstBucket(r, set.time_zone))
      .where('bucket', '<', r.end)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Counts per local day and level of alarms that started in [start, end), of the given sets. */
  async function alarmCounts(
    gensetIds: number[] | 'visible',
    ctx: SessionContext,
    r: { start: number; end: number },
    timeZone: string,
  ): Promise<AlarmChartResponse> {
    const days = daysOf(r.start, r.end, timeZone);
    // Grouped by quarter hour in the database (every time zone's offset is a whole number of quarters),
    // then each quarter is put in its local day.
    const quarter = q.bucketIndex(sql.ref('start_ts'), 0, FIFTEEN_MINUTES);
    let query = db
      .selectFrom('alarm')
      .select((eb) => [sql<number>`${quarter}`.as('q'), 'level', eb.fn.countAll().as('n')])
      .where('start_ts', '>=', r.start)
      .where('start_ts', '<', r.end);
    if (gensetIds === 'visible') {
      const reach = await opts.scope.reach(ctx.user, ctx.grant);
      query = query.where('genset_id', 'in', visibleSets(db, reach).select('g.id'));
    } else query = query.where('genset_id', 'in', gensetIds);
    // Grouped by the output name: PostgreSQL would not match a repeated expression with its own parameters.
    const rows = await query.groupBy([sql.ref('q'), 'level']).execute();
    const levels = { warning: days.map(() => 0), shutdown: days.map(() => 0), trip: days.map(() => 0) };
    const totals = { warning: 0, shutdown: 0, trip: 0 };
    for (const row of rows) {
      const ts = Number(row.q) * FIFTEEN_MINUTES;
      const level = row.level as AlarmLevelName;
      if (!(level in levels)) continue;
      // The last day that starts at or before ts.
      let lo = 0;
      let hi = days.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (days[mid]!.start <= ts) lo = mid;
        else hi = mid - 1;
      }
      const n = Number(row.n);
      levels[level][lo]! += n;
      totals[level] += n;
    }
    return { start: r.start, end: r.end, timeZone, days: days.map((d) => d.label), levels, totals };
  }

  return {
    itemsFor,
    tableRows,
    tableCount,

    async chart(
      ctx: SessionContext,
      input: RangeRequest & { token: string; items: string[] },
      lang: Language,
      timeZone: string,
    ) {
      const { set } = await devices.resolve(ctx, input.token, 'view');
      const items = await itemsFor(set, input.items);
      const r = resolveRange(input);
      const { step, series } = await chartPoints(set, items, r);
      return {
        ...r,
        timeZone,
        step,
        partialFrom: partialPointFrom(set, r, step),
        series: items.map((item, i) => ({ ...column(item, lang), points: series[i]! })),
      };
    },

    async table(
      ctx: SessionContext,
      input: RangeRequest & { token: string; items: string[]; page: number; size: number; order: 'asc' | 'desc' },
      lang: Language,
      timeZone: string,
    ) {
      const { set } = await devices.resolve(ctx, input.token, 'view');
      const items = await itemsFor(set, input.items);
      const r = resolveRange(input);
      const total = await tableCount(set, r);
      const { rows: list } = await pageOf(total, input.page, input.size, (limit, offset) =>
        tableRows(set, items, r, { limit, offset, order: input.order }),
      );
      return {
        ...r,
        timeZone,
        columns: items.map((item) => column(item, lang)),
        list,
        total,
        page: input.page,
        size: input.size,
      };
    },

    async alarmHistory(
      ctx: SessionContext,
      input: RangeRequest & {
        token?: string | undefined;
        level?: AlarmLevelName | undefined;
        state: 'all' | 'active' | 'ended';
        search?: string | undefined;
        page: number;
        size: number;
      },
      lang: Language,
    ) {
      // one set, or every set the caller sees
      const sets = input.token
        ? [(await devices.resolve(ctx, input.token, 'view')).set.id]
        : visibleSets(db, await opts.scope.reach(ctx.user, ctx.grant)).select('g.id');
      const r = resolveRange(input);
      let query = db
        .selectFrom('alarm')
        .where('genset_id', 'in', sets)
        .where('start_ts', '>=', r.start)
        .where('start_ts', '<', r.end);
      if (input.level) query = query.where('level', '=', input.level);
      if (input.state === 'active') query = query.where('end_ts', 'is', null);
      if (input.state === 'ended') query = query.where('end_ts', 'is not', null);
      // the title as the reader reads it (in their language, else English), or the alarm's code
      if (input.search) {
        const title = sql`coalesce(${q.raw(sql.ref('alarm.title'), lang)}, ${q.raw(sql.ref('alarm.title'), 'en-US')})`;
        const words = input.search;
        query = query.where((eb) => eb.or([contains(title, words), contains(sql.ref('alarm.code'), words)]));
      }
      const total = await countOf(query.select((eb) => eb.fn.countAll().as('n')));
      const { rows } = await pageOf(total, input.page, input.size, (limit, offset) =>
        query
          .innerJoin('genset', 'genset.id', 'alarm.genset_id')
          .leftJoin('users as acker', 'acker.id', 'alarm.ack_by')
          .leftJoin('users as shelver', 'shelver.id', 'alarm.shelved_by')
          .selectAll('alarm')
          .select(['genset.token as set_token', 'genset.name as set_name'])
          .select(['acker.nickname as ack_name', 'shelver.nickname as shelf_name'])
          .orderBy('start_ts', 'desc')
          .orderBy('alarm.id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
      );
      return {
        start: r.start,
        end: r.end,
        list: rows.map((row) => ({ ...alarmEntry(row, lang), setToken: row.set_token, setName: row.set_name })),
        total,
        page: input.page,
        size: input.size,
      };
    },

    async currentAlarms(ctx: SessionContext, token: string, lang: Language) {
      const { set } = await devices.resolve(ctx, token, 'view');
      const rows = await alarmsWithPeople(db)
        .where('genset_id', '=', set.id)
        .where('end_ts', 'is', null)
        .orderBy('start_ts')
        .orderBy('alarm.id')
        .execute();
      return { alarmnum: rows.length, list: rows.map((row) => alarmEntry(row, lang)) };
    },

    async alarmChart(ctx: SessionContext, input: RangeRequest & { token?: string | undefined }, timeZone: string) {
      const r = resolveRange(input);
      if (input.token) {
        const { set } = await devices.resolve(ctx, input.token, 'view');
        return alarmCounts([set.id], ctx, r, timeZone);
      }
      return alarmCounts('visible', ctx, r, timeZone);
    },

    async maintainCountdown(ctx: SessionContext, token: string) {
      const { set } = await devices.resolve(ctx, token, 'view');
      const latest = await db.selectFrom('set_latest').selectAll().where('genset_id', '=', set.id).executeTakeFirst();
      const values = latest ? (JSON.parse(latest.values) as Record<string, number | null>) : {};
      const doc = (await protocols.get(set.protocol_key))?.doc;
      const item = doc?.items.find((i) => i.key === 'maintenance_hours');
      const due = await db
        .selectFrom('alarm')
        .select('id')
        .where('genset_id', '=', set.id)
        .where('end_ts', 'is', null)
        .where('code', '=', 'maintenance_due')
        .executeTakeFirst();
      return {
        hoursLeft: values.maintenance_hours ?? null,
        runHours: values.run_hours ?? null,
        due: due !== undefined,
        ts: latest ? Number(latest.device_ts) : null,
        unit: item?.unit || 'h',
      };
    },
  };
}
export type HistoryService = ReturnType<typeof createHistoryService>;
