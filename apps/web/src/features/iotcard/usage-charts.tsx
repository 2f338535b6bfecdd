// The SIM card's use as bars: each day of the billing month (received and sent, stacked) and the last twelve
// months. Values in MB (1 MB = 1,048,576 bytes, as the plan counts).
import { useMemo } from 'react';
import { use as registerCharts, type EChartsCoreOption } from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { useTranslation } from 'react-i18next';
import { SIM_MB_BYTES, type IotcardInfoResponse } from '@genset/protocol';
import { EChart } from '../../components/charts/echart.tsx';
import { formatNumber } from '../../components/format.ts';

registerCharts([BarChart, GridComponent, LegendComponent, TooltipComponent]);

const toMb = (bytes: number) => Math.round((bytes / SIM_MB_BYTES) * 1000) / 1000;

function useMbFormatter() {
  const { t } = useTranslation();
  return (v: number) => `${formatNumber(v, v < 10 ? 2 : 1)} ${t('iotcard.mb')}`;
}

export function DailyUsageChart({ days }: { days: IotcardInfoResponse['days'] }) {
  const { t } = useTranslation();
  const mb = useMbFormatter();
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
      legend: { top: 0, itemWidth: 12, itemHeight: 8 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: mb, confine: true },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)), axisTick: { alignWithLabel: true } },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatNumber(v, 2) }, name: t('iotcard.mb') },
      series: [
        {
          type: 'bar',
          stack: 'use',
          name: t('iotcard.received'),
          data: days.map((d) => toMb(d.rxBytes)),
          itemStyle: { color: '#1677ff' },
          barMaxWidth: 18,
        },
        {
          type: 'bar',
          stack: 'use',
          name: t('iotcard.sent'),
          data: days.map((d) => toMb(d.txBytes)),
          itemStyle: { color: '#69b1ff' },
          barMaxWidth: 18,
        },
      ],
    }),
    [days, mb, t],
  );
  return (
    <EChart option={option} notMerge height={240} ariaLabel={t('iotcard.dailyLabel')} data-testid="sim-daily-chart" />
  );
}

export function MonthlyUsageChart({ months }: { months: IotcardInfoResponse['months'] }) {
  const { t } = useTranslation();
  const mb = useMbFormatter();
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: mb, confine: true },
      xAxis: { type: 'category', data: months.map((m) => m.month), axisTick: { alignWithLabel: true } },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatNumber(v, 2) }, name: t('iotcard.mb') },
      series: [
        {
          type: 'bar',
          name: t('iotcard.used'),
          data: months.map((m) => toMb(m.bytes)),
          itemStyle: { color: '#13a8a8', borderRadius: [3, 3, 0, 0] },
          barMaxWidth: 24,
        },
      ],
    }),
    [months, mb, t],
  );
  return (
    <EChart
      option={option}
      notMerge
      height={240}
      ariaLabel={t('iotcard.monthlyLabel')}
      data-testid="sim-monthly-chart"
    />
  );
}
