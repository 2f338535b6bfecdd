// A station's statistics: its energy and money over a day, each day of a month or each month of a year, each
// bucket also split by tariff period, with the totals (as ingestion counted them, energy.ts). An answer is kept
// (answers.ts) until something it counts changes.
import {
  PRICE_PERIODS,
  type PeriodFigures,
  type PricePeriod,
  type SiteStatsResponse,
  type StatsBucket,
  type StatsGranularity,
} from '@genset/protocol';
import type { SessionContext } from '../auth/service.ts';
import type { SiteContext } from './context.ts';
import { add, figures, zero, type Raw } from './figures.ts';

/** Every day of a month, YYYY-MM-DD. */
function daysOf(month: string): string[] {
  const [y, m] = month.split('-').map(Number);
  const count = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

export function createStatistics({ db, repo, answers, visible }: SiteContext) {
  return {
    async stats(
      ctx: SessionContext,
      req: { token: string; granularity: StatsGranularity; date: string },
    ): Promise<SiteStatsResponse> {
      const site = await visible(ctx, req.token, 'view');
      const { granularity, date } = req;
      const key = `${granularity}|${date}`;
      const kept = answers.stats(site.id, key);
      if (kept) return kept;
      const started = answers.generation(site.id);
      answers.bind(
        site.id,
        site.modem_id,
        (await repo.devices(db, [site.id])).map((d) => d.gensetId),
      );
      const days = granularity === 'day' ? [date] : granularity === 'month' ? daysOf(date) : [];
      const months =
        granularity === 'year' ? Array.from({ length: 12 }, (_, i) => `${date}-${String(i + 1).padStart(2, '0')}`) : [];
      const from = granularity === 'year' ? `${date}-01-01` : days[0]!;
      const to = granularity === 'year' ? `${date}-12-31` : days.at(-1)!;
      const buckets = granularity === 'year' ? months : days;
      const raw = new Map<string, Record<PricePeriod, Raw>>();
      for (const b of buckets) raw.set(b, { sharp: zero(), peak: zero(), flat: zero(), valley: zero() });
      for (const r of await repo.energyBuckets(site.id, from, to, granularity === 'year')) {
        const bucket = raw.get(r.bucket);
        const period = (PRICE_PERIODS as readonly string[]).includes(r.period) ? (r.period as PricePeriod) : 'flat';
        if (!bucket) continue;
        add(bucket[period], r);
      }
      const periodTotals: Record<PricePeriod, Raw> = { sharp: zero(), peak: zero(), flat: zero(), valley: zero() };
      const total = zero();
      const list: StatsBucket[] = buckets.map((b) => {
        const periods = raw.get(b)!;
        const sum = zero();
        for (const p of PRICE_PERIODS) {
          add(sum, periods[p]);
          add(periodTotals[p], periods[p]);
        }
        add(total, sum);
        return {
          bucket: b,
          ...figures(sum),
          periods: Object.fromEntries(PRICE_PERIODS.map((p) => [p, figures(periods[p])])) as PeriodFigures,
        };
      });
      const answer: SiteStatsResponse = {
        token: site.token,
        granularity,
        date,
        currency: site.currency,
        timeZone: site.time_zone,
        buckets: list,
        periods: Object.fromEntries(PRICE_PERIODS.map((p) => [p, figures(periodTotals[p])])) as PeriodFigures,
        totals: figures(total),
      };
      answers.keepStats(site.id, key, answer, started);
      return answer;
    },
  };
}
