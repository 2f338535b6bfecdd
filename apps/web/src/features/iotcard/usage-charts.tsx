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

/** What both charts share: no animation, the grid, the tooltip in MB and the axes (`labels` along, MB up). */
function useBarBase() {
  const { t } = useTranslation();
  const mb = (v: number) => `${formatNumber(v, v < 10 ? 2 : 1)} ${t('iotcard.mb')}`;
  return (labels: string[]) => ({
    animation: false,
    grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: mb, confine: true },
    xAxis: { type: 'category', data: labels, axisTick: { alignWithLabel: true } },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatNumber(v, 2) }, name: t('iotcard.mb') },
  });
}

export function DailyUsageChart({ days }: { days: IotcardInfoResponse['days'] }) {
  const { t } = useTranslation();
  const base = useBarBase();
  const option = useMemo<EChartsCoreOption>(
    () => ({
      ...base(days.map((d) => d.day.slice(5))),
      legend: { top: 0, itemWidth: 12, itemHeight: 8 },
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
    [days, base, t],
  );
  return (
    <EChart option={option} notMerge height={240} ariaLabel={t('iotcard.dailyLabel')} data-testid="sim-daily-chart" />
  );
}

export function MonthlyUsageChart({ months }: { months: IotcardInfoResponse['months'] }) {
  const { t } = useTranslation();
  const base = useBarBase();
  const option = useMemo<EChartsCoreOption>(
    () => ({
      ...base(months.map((m) => m.month)),
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
    [months, base, t],
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
