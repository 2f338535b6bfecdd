// Statistics as bars per bucket (the day, the days of a month or the months of a year), stacked by
// tariff period: energy with discharge above the axis and charge below it, and income (what discharge earned
// less what charge cost), so a period's share reads at a glance. Tooltips give the figures with units.
import { useMemo } from 'react';
import { use as registerCharts, type EChartsCoreOption } from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { useTranslation } from 'react-i18next';
import { PRICE_PERIODS, type SiteStatsResponse, type StatsGranularity } from '@genset/protocol';
import { EChart } from '../../components/charts/echart.tsx';
import { formatNumber, localUnit } from '../../components/format.ts';
import { PERIOD_HEX, PERIOD_LIGHT_HEX } from './periods.ts';
import { currencyUnit, formatMoney, formatMoneyNumber } from './site-format.ts';

registerCharts([BarChart, GridComponent, LegendComponent, TooltipComponent]);

/** A bucket's label on the axis: the day of a month, the month of a year, the date of a day. */
export function bucketLabel(bucket: string, granularity: StatsGranularity): string {
  if (granularity === 'month') return bucket.slice(8, 10);
  if (granularity === 'year') return bucket.slice(5, 7);
  return bucket;
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

export function EnergyChart({ stats }: { stats: SiteStatsResponse }) {
  const { t } = useTranslation();
  const option = useMemo<EChartsCoreOption>(() => {
    const labels = stats.buckets.map((b) => bucketLabel(b.bucket, stats.granularity));
    const kwh = localUnit('kWh');
    const series = PRICE_PERIODS.flatMap((period) => [
      {
        type: 'bar',
        stack: 'discharge',
        name: t(`ems.periods.${period}`),
        data: stats.buckets.map((b) => round(b.periods[period].dischargeKwh, 1)),
        itemStyle: { color: PERIOD_HEX[period] },
        barMaxWidth: 28,
      },
      {
        type: 'bar',
        stack: 'charge',
        name: t(`ems.periods.${period}`),
        data: stats.buckets.map((b) => -round(b.periods[period].chargeKwh, 1)),
        itemStyle: { color: PERIOD_LIGHT_HEX[period] },
        barMaxWidth: 28,
      },
    ]);
    return {
      animation: false,
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      legend: { top: 0, itemWidth: 12, itemHeight: 8, data: PRICE_PERIODS.map((p) => t(`ems.periods.${p}`)) },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        confine: true,
        formatter: (params: { dataIndex: number }[]) => {
          const bucket = stats.buckets[params[0]?.dataIndex ?? 0];
          if (!bucket) return '';
          const lines = [
            `<b>${bucket.bucket}</b>`,
            `${t('ems.stats.discharge')}: ${formatNumber(bucket.dischargeKwh, 1)} ${kwh}`,
            ...PRICE_PERIODS.map(
              (p) => `&nbsp;&nbsp;${t(`ems.periods.${p}`)}: ${formatNumber(bucket.periods[p].dischargeKwh, 1)} ${kwh}`,
            ),
            `${t('ems.stats.charge')}: ${formatNumber(bucket.chargeKwh, 1)} ${kwh}`,
            ...PRICE_PERIODS.map(
              (p) => `&nbsp;&nbsp;${t(`ems.periods.${p}`)}: ${formatNumber(bucket.periods[p].chargeKwh, 1)} ${kwh}`,
            ),
          ];
          return lines.join('<br/>');
        },
      },
      xAxis: { type: 'category', data: labels, axisTick: { alignWithLabel: true } },
      yAxis: {
        type: 'value',
        name: kwh,
        axisLabel: { formatter: (v: number) => formatNumber(Math.abs(v), 2) },
      },
      series,
    };
  }, [stats, t]);
  return (
    <EChart
      option={option}
      notMerge
      height={280}
      ariaLabel={t('ems.stats.energyChart', {
        charge: formatNumber(stats.totals.chargeKwh, 1),
        discharge: formatNumber(stats.totals.dischargeKwh, 1),
      })}
      data-testid="stats-energy-chart"
    />
  );
}

export function IncomeChart({ stats }: { stats: SiteStatsResponse }) {
  const { t } = useTranslation();
  const option = useMemo<EChartsCoreOption>(() => {
    const labels = stats.buckets.map((b) => bucketLabel(b.bucket, stats.granularity));
    return {
      animation: false,
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      legend: { top: 0, itemWidth: 12, itemHeight: 8 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        confine: true,
        valueFormatter: (v: number) => formatMoney(v, stats.currency),
      },
      xAxis: { type: 'category', data: labels, axisTick: { alignWithLabel: true } },
      yAxis: {
        type: 'value',
        name: currencyUnit(stats.currency),
        axisLabel: { formatter: (v: number) => formatMoneyNumber(v) },
      },
      series: PRICE_PERIODS.map((period) => ({
        type: 'bar',
        stack: 'income',
        name: t(`ems.periods.${period}`),
        data: stats.buckets.map((b) => round(b.periods[period].income, 2)),
        itemStyle: { color: PERIOD_HEX[period] },
        barMaxWidth: 28,
      })),
    };
  }, [stats, t]);
  return (
    <EChart
      option={option}
      notMerge
      height={240}
      ariaLabel={t('ems.stats.incomeChart', { income: formatMoney(stats.totals.income, stats.currency) })}
      data-testid="stats-income-chart"
    />
  );
}
