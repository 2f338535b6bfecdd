// What the alarms say over a range, of one set or of every set the caller sees (storage stations' devices
// included): the alarms with most episodes and those that lasted longest, the sets with most, the mean time between
// shutdowns, when in the week alarms start (in the caller's time zone) and how long they waited to be acknowledged;
// also as an XLSX workbook. Everything is counted in the database (by alarm, by set, by quarter hour), so a year of
// a large fleet's alarms is not read row by row.
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import type { AlarmAnalyticsResponse, AlarmLevelName, AlarmTally, Language } from '@genset/protocol';
import type { Db, DbKind } from '../../db/database.ts';
import { countOf } from '../../db/paging.ts';
import { translate } from '../../i18n/messages.ts';
import type { DataScopeService } from '../account/scope.ts';
import type { SessionContext } from '../auth/service.ts';
import type { DeviceService } from '../devices/service.ts';
import { zoneOffset } from '../devices/time.ts';
import { resolveRange, type RangeInput } from './range.ts';
import { alarmTitle, LEVELS } from './service.ts';
import { historySql } from './sql.ts';
import { visibleSets } from './visibility.ts';

const TOP = 10;
const HOUR = 3_600_000;
const QUARTER = 900_000;
const STOPS: readonly string[] = ['shutdown', 'trip'];

const round1 = (n: number) => Math.round(n * 10) / 10;

export function createAlarmAnalytics(opts: { db: Db; kind: DbKind; devices: DeviceService; scope: DataScopeService }) {
  const { db, devices } = opts;
  const q = historySql(opts.kind);

  /** The sets asked about: the one named (the caller must see it), or every set the caller sees. */
  async function setsOf(ctx: SessionContext, token: string | undefined) {
    if (token) {
      const { set } = await devices.resolve(ctx, token, 'view');
      return { ids: [set.id], count: 1 };
    }
    const reach = await opts.scope.reach(ctx.user, ctx.grant);
    const count = await countOf(visibleSets(db, reach).select((eb) => eb.fn.countAll().as('n')));
    return { ids: visibleSets(db, reach).select('g.id'), count };
  }

  async function analyse(
    ctx: SessionContext,
    input: RangeInput & { token?: string | undefined },
    lang: Language,
    timeZone: string,
    now = Date.now(),
  ): Promise<AlarmAnalyticsResponse & { tallies: AlarmTally[] }> {
    const r = resolveRange(input, now);
    const sets = await setsOf(ctx, input.token);
    const inRange = () =>
      db
        .selectFrom('alarm')
        .where('alarm.genset_id', 'in', sets.ids)
        .where('alarm.start_ts', '>=', r.start)
        .where('alarm.start_ts', '<', r.end);

    // by alarm: episodes, occurrences and time active (up to now while active)
    const rows = await inRange()
      .select((eb) => [
        'alarm.code',
        'alarm.level',
        eb.fn.max('alarm.title').as('title'),
        eb.fn.countAll().as('episodes'),
        eb.fn.sum('alarm.occurrences').as('occurrences'),
        sql<number>`sum(coalesce(alarm.end_ts, ${now}) - alarm.start_ts)`.as('lasted'),
      ])
      .groupBy(['alarm.code', 'alarm.level'])
      .execute();
    const tallies: AlarmTally[] = rows.map((row) => ({
      code: row.code,
      level: (LEVELS as readonly string[]).includes(row.level) ? (row.level as AlarmLevelName) : 'warning',
      title: alarmTitle(String(row.title), lang, row.code),
      episodes: Number(row.episodes),
      occurrences: Number(row.occurrences),
      hours: round1(Number(row.lasted) / HOUR),
    }));
    const byCount = tallies.toSorted(
      (a, b) => b.episodes - a.episodes || b.occurrences - a.occurrences || a.title.localeCompare(b.title, lang),
    );
    const byDuration = tallies.toSorted((a, b) => b.hours - a.hours || a.title.localeCompare(b.title, lang));
    const episodes = tallies.reduce((n, t) => n + t.episodes, 0);
    const shutdowns = tallies.reduce((n, t) => n + (STOPS.includes(t.level) ? t.episodes : 0), 0);

    // by set
    const stops = sql<number>`sum(case when alarm.level in ('shutdown', 'trip') then 1 else 0 end)`;
    const bySet = await inRange()
      .innerJoin('genset as g', 'g.id', 'alarm.genset_id')
      .select((eb) => ['g.token', 'g.name', eb.fn.countAll().as('episodes'), stops.as('shutdowns')])
      .groupBy(['g.id', 'g.token', 'g.name'])
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('g.name')
      .limit(TOP)
      .execute();

    // when in the week: counted by quarter hour in the database (every zone's offset is whole quarters), then each
    // quarter put in its local weekday and hour
    const quarter = q.bucketIndex(sql.ref('alarm.start_ts'), 0, QUARTER);
    const quarters = await inRange()
      .select((eb) => [sql<number>`${quarter}`.as('q'), eb.fn.countAll().as('n')])
      .groupBy(sql.ref('q'))
      .execute();
    const heat = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
    for (const row of quarters) {
      const ts = Number(row.q) * QUARTER;
      const local = new Date(ts + zoneOffset(ts, timeZone));
      heat[(local.getUTCDay() + 6) % 7]![local.getUTCHours()]! += Number(row.n);
    }

    // time to acknowledge: its median and 90th percentile, read at their place in order
    const acked = () => inRange().where('alarm.ack_at', 'is not', null);
    const acknowledged = await countOf(acked().select((eb) => eb.fn.countAll().as('n')));
    const waited = sql<number>`alarm.ack_at - alarm.start_ts`;
    const at = async (share: number) => {
      if (acknowledged === 0) return null;
      const row = await acked()
        .select(waited.as('w'))
        .orderBy(waited)
        .limit(1)
        .offset(Math.floor((acknowledged - 1) * share))
        .executeTakeFirst();
      return row ? round1(Number(row.w) / 60_000) : null;
    };

    return {
      start: r.start,
      end: r.end,
      timeZone,
      sets: sets.count,
      episodes,
      occurrences: tallies.reduce((n, t) => n + t.occurrences, 0),
      shutdowns,
      mtbsHours: shutdowns ? round1(((r.end - r.start) / HOUR) * (sets.count / shutdowns)) : null,
      byCount: byCount.slice(0, TOP),
      byDuration: byDuration.slice(0, TOP),
      bySet: bySet.map((s) => ({
        token: s.token,
        name: s.name,
        episodes: Number(s.episodes),
        shutdowns: Number(s.shutdowns),
      })),
      heat,
      ack: { acknowledged, medianMinutes: await at(0.5), p90Minutes: await at(0.9) },
      tallies: byCount,
    };
  }

  return {
    async summary(
      ctx: SessionContext,
      input: RangeInput & { token?: string | undefined },
      lang: Language,
      timeZone: string,
    ): Promise<AlarmAnalyticsResponse> {
      const { tallies: _all, ...summary } = await analyse(ctx, input, lang, timeZone);
      return summary;
    },

    /** The analysis as a workbook: the figures, every alarm (not only the first ten), the sets, the week's hours. */
    async xlsx(
      ctx: SessionContext,
      input: RangeInput & { token?: string | undefined },
      lang: Language,
      timeZone: string,
    ): Promise<Buffer> {
      const a = await analyse(ctx, input, lang, timeZone);
      const t = (key: string, params?: Record<string, string | number>) => translate(lang, `alarmStats.${key}`, params);
      const workbook = new ExcelJS.Workbook();
      workbook.created = new Date();
      const bold = (sheet: ExcelJS.Worksheet) => {
        sheet.getRow(1).font = { bold: true };
      };

      const figures = workbook.addWorksheet(t('sheet.figures'));
      figures.columns = [
        { header: t('figure'), key: 'k', width: 40 },
        { header: t('value'), key: 'v', width: 24 },
      ];
      const day = (ts: number) => new Date(ts + zoneOffset(ts, timeZone)).toISOString().slice(0, 10);
      for (const [k, v] of [
        [t('range', { zone: timeZone }), `${day(a.start)} – ${day(a.end - 1)}`],
        [t('sets'), a.sets],
        [t('episodes'), a.episodes],
        [t('occurrences'), a.occurrences],
        [t('shutdowns'), a.shutdowns],
        [t('mtbs'), a.mtbsHours ?? '—'],
        [t('acknowledged'), a.ack.acknowledged],
        [t('ackMedian'), a.ack.medianMinutes ?? '—'],
        [t('ackP90'), a.ack.p90Minutes ?? '—'],
      ] as const)
        figures.addRow({ k, v });
      bold(figures);

      const alarms = workbook.addWorksheet(t('sheet.alarms'), { views: [{ state: 'frozen', ySplit: 1 }] });
      alarms.columns = [
        { header: t('alarm'), key: 'title', width: 36 },
        { header: t('code'), key: 'code', width: 24 },
        { header: t('level'), key: 'level', width: 14 },
        { header: t('episodes'), key: 'episodes', width: 12 },
        { header: t('occurrences'), key: 'occurrences', width: 14 },
        { header: t('hours'), key: 'hours', width: 14 },
      ];
      for (const tally of a.tallies)
        alarms.addRow({ ...tally, level: translate(lang, `alarmStats.levels.${tally.level}`) });
      bold(alarms);

      const setsSheet = workbook.addWorksheet(t('sheet.sets'));
      setsSheet.columns = [
        { header: t('set'), key: 'name', width: 32 },
        { header: t('episodes'), key: 'episodes', width: 12 },
        { header: t('shutdowns'), key: 'shutdowns', width: 14 },
      ];
      for (const s of a.bySet) setsSheet.addRow(s);
      bold(setsSheet);

      const week = workbook.addWorksheet(t('sheet.week'));
      week.columns = [
        { header: t('weekday', { zone: timeZone }), key: 'd', width: 16 },
        ...Array.from({ length: 24 }, (_, h) => ({ header: String(h).padStart(2, '0'), key: `h${h}`, width: 5 })),
      ];
      a.heat.forEach((hours, d) =>
        week.addRow({ d: t(`days.${d}`), ...Object.fromEntries(hours.map((n, h) => [`h${h}`, n])) }),
      );
      bold(week);
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },
  };
}
export type AlarmAnalytics = ReturnType<typeof createAlarmAnalytics>;
