// Trends of the chosen items: one panel per unit (kW with kW, V with V …) under one time axis, zoomable with
// the mouse wheel, touch and the slider; the tooltip gives every value with its unit.
import { useMemo } from 'react';
import { use as registerCharts, type EChartsCoreOption } from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { useTranslation } from 'react-i18next';
import type { HistoryChartResponse } from '@genset/protocol';
import { EChart } from '../../components/charts/echart.tsx';
import { formatNumber, localUnit, withUnit } from '../../components/format.ts';

registerCharts([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent]);

const PANEL = 170;
const GAP = 36;
const TOP = 40;
const BOTTOM = 64;

export function TrendChart({ data, loading }: { data: HistoryChartResponse; loading: boolean }) {
  const { t } = useTranslation();
  const units = useMemo(() => [...new Set(data.series.map((s) => s.unit || ''))], [data]);
  const height = TOP + units.length * PANEL + (units.length - 1) * GAP + BOTTOM;

  const option = useMemo<EChartsCoreOption>(() => {
    const axes = units.map((_, i) => i);
    const byKey = new Map(data.series.map((s) => [s.name, s]));
    return {
      animation: false,
      legend: { type: 'scroll', top: 0, left: 0, right: 0 },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'line' },
        confine: true,
      },
      axisPointer: { link: [{ xAxisIndex: 'all' }] },
      grid: units.map((_, i) => ({
        left: 64,
        right: 24,
        top: TOP + i * (PANEL + GAP),
        height: PANEL,
      })),
      xAxis: units.map((_, i) => ({
        type: 'time',
        gridIndex: i,
        min: data.start,
        max: data.end,
        axisLabel: { show: i === units.length - 1, hideOverlap: true },
        splitLine: { show: true, lineStyle: { color: '#f0f0f0' } },
      })),
      yAxis: units.map((unit, i) => ({
        type: 'value',
        gridIndex: i,
        scale: true,
        name: localUnit(unit),
        nameLocation: 'end',
        nameGap: 8,
        nameTextStyle: { align: 'left', color: '#595959' },
        splitNumber: 3,
        axisLabel: { formatter: (v: number) => formatNumber(v, 2) },
      })),
      dataZoom: [
        { type: 'inside', xAxisIndex: axes, filterMode: 'none' },
        { type: 'slider', xAxisIndex: axes, bottom: 8, height: 24, filterMode: 'none' },
      ],
      series: data.series.map((s, i) => {
        const panel = units.indexOf(s.unit || '');
        const firstOfPanel = data.series.findIndex((other) => (other.unit || '') === (s.unit || '')) === i;
        // the hour or day not over yet: shaded and named, its figures being of the samples so far
        const partial =
          data.partialFrom !== null && data.partialFrom !== undefined
            ? {
                markArea: {
                  silent: true,
                  itemStyle: { color: 'rgba(0, 0, 0, 0.05)' },
                  label: {
                    show: firstOfPanel,
                    position: 'insideTopRight',
                    color: '#595959',
                    fontSize: 11,
                    formatter: t('history.table.partial'),
                  },
                  data: [[{ xAxis: data.partialFrom }, { xAxis: data.end }]],
                },
              }
            : {};
        return {
          ...partial,
          type: 'line',
          name: s.name,
          xAxisIndex: panel,
          yAxisIndex: panel,
          showSymbol: s.points.length < 60,
          symbolSize: 4,
          connectNulls: false,
          sampling: 'lttb',
          lineStyle: { width: 1.5 },
          data: s.points.map(([ts, value]) => [ts, value]),
          tooltip: {
            valueFormatter: (v: unknown) => {
              const value = Array.isArray(v) ? (v[1] as number | null) : (v as number | null);
              return `${formatNumber(value, byKey.get(s.name)?.decimals ?? 2)}${s.unit ? ` ${localUnit(s.unit)}` : ''}`;
            },
          },
        };
      }),
    };
  }, [data, units, t]);

  return (
    <EChart
      option={option}
      notMerge
      height={height}
      loading={loading}
      ariaLabel={t('history.chartLabel', { items: data.series.map((s) => withUnit(s.name, s.unit)).join(', ') })}
      data-testid="trend-chart"
    />
  );
}
