// Alarms started per day, stacked by level (/alarm/chart), over the range chosen on the alarm tab.
import { useMemo } from 'react';
import { Card, Space, Typography } from 'antd';
import { use as registerCharts } from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { useTranslation } from 'react-i18next';
import type { AlarmChartResponse } from '@genset/protocol';
import { EChart } from '../../components/charts/echart.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { AlarmLevelTag } from './alarm-level-tag.tsx';

registerCharts([BarChart, GridComponent, LegendComponent, TooltipComponent]);

const LEVELS = ['shutdown', 'trip', 'warning'] as const;
const COLORS: Record<(typeof LEVELS)[number], string> = { shutdown: '#ff4d4f', trip: '#c41d7f', warning: '#faad14' };

export function AlarmChart({
  data,
  loading,
  error,
  onRetry,
}: {
  data: AlarmChartResponse | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, data: LEVELS.map((level) => t(`live.levels.${level}`)) },
      grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: (data?.days ?? []).map((day) => day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: LEVELS.map((level) => ({
        name: t(`live.levels.${level}`),
        type: 'bar',
        stack: 'alarms',
        barMaxWidth: 24,
        itemStyle: { color: COLORS[level] },
        data: data?.levels[level] ?? [],
      })),
    }),
    [data, t],
  );
  const totals = data?.totals;
  return (
    <Card
      size="small"
      title={t('live.alarms.chart')}
      extra={
        totals ? (
          <Space size={4} wrap data-testid="alarm-totals">
            {LEVELS.map((level) => (
              <Space key={level} size={2}>
                <AlarmLevelTag level={level} />
                <Typography.Text strong>{totals[level]}</Typography.Text>
              </Space>
            ))}
          </Space>
        ) : null
      }
      data-testid="alarm-chart"
    >
      {error ? (
        <ErrorState error={error} onRetry={onRetry} />
      ) : (
        <EChart
          option={option}
          height={260}
          loading={loading}
          notMerge
          ariaLabel={
            totals
              ? t('live.alarms.chartLabel', { warning: totals.warning, shutdown: totals.shutdown, trip: totals.trip })
              : t('live.alarms.chart')
          }
        />
      )}
    </Card>
  );
}
