// The 30-day output ranking: energy produced by each set (kWh), best first, as horizontal bars.
import { useMemo } from 'react';
import { use as registerCharts, type EChartsCoreOption } from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { HomeSummaryResponse } from '@genset/protocol';
import { EChart } from '../../components/charts/echart.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { formatValue } from '../../components/format.ts';

registerCharts([BarChart, GridComponent, TooltipComponent]);

export function OutputRanking({ ranking }: { ranking: HomeSummaryResponse['ranking'] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rows = useMemo(() => [...ranking].reverse(), [ranking]);
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      grid: { left: 8, right: 72, top: 8, bottom: 8, containLabel: true },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        valueFormatter: (v: number) => formatValue(v, 'kWh', v < 10 ? 1 : 0),
        confine: true,
      },
      xAxis: { type: 'value', show: false },
      yAxis: {
        type: 'category',
        data: rows.map((r) => r.name),
        axisTick: { show: false },
        axisLine: { show: false },
        axisLabel: { width: 130, overflow: 'truncate', color: '#434343' },
      },
      series: [
        {
          type: 'bar',
          name: t('home.ranking.energy'),
          data: rows.map((r) => r.kwh),
          barMaxWidth: 16,
          itemStyle: { color: '#1677ff', borderRadius: [0, 3, 3, 0] },
          label: {
            show: true,
            position: 'right',
            formatter: ({ value }: { value: number }) => formatValue(value, 'kWh', value < 10 ? 1 : 0),
            color: '#434343',
          },
        },
      ],
    }),
    [rows, t],
  );
  const onEvents = useMemo(
    () => ({
      click: (params: unknown) => {
        const index = (params as { dataIndex?: number }).dataIndex;
        const row = index === undefined ? undefined : rows[index];
        if (row) void navigate(`/crewmanage/detail/${encodeURIComponent(row.token)}`);
      },
    }),
    [rows, navigate],
  );
  if (ranking.length === 0) return <EmptyState description={t('home.ranking.empty')} />;
  return (
    <>
      <EChart
        option={option}
        notMerge
        height={Math.max(140, rows.length * 30 + 16)}
        onEvents={onEvents}
        ariaLabel={t('home.ranking.label')}
        data-testid="output-ranking"
      />
      <ol className="visually-hidden">
        {ranking.map((r) => (
          <li key={r.token}>
            {r.name}: {formatValue(r.kwh, 'kWh', r.kwh < 10 ? 1 : 0)}
          </li>
        ))}
      </ol>
    </>
  );
}
