// Alarms started per day, stacked by level, zoomable along the days.
import { useMemo } from 'react';
import { use as registerCharts, type EChartsCoreOption } from 'echarts/core';
import { BarChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
} from 'echarts/components';
import { useTranslation } from 'react-i18next';
import { ALARM_LEVELS, type AlarmChartResponse } from '@genset/protocol';
import { EChart } from '../../components/charts/echart.tsx';
import { ALARM_LEVEL_HEX } from '../../components/alarm-level-tag.tsx';

registerCharts([BarChart, GridComponent, TitleComponent, TooltipComponent, LegendComponent, DataZoomComponent]);

export function AlarmChart({ data, loading }: { data: AlarmChartResponse; loading: boolean }) {
  const { t } = useTranslation();
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      // the title on its own line, the legend on the next (one line, scrolling when the levels do not fit):
      // neither runs into the other in any language or width
      title: { text: t('history.alarms.perDay'), top: 0, left: 0, textStyle: { fontSize: 13, fontWeight: 500 } },
      legend: { type: 'scroll', top: 24, left: 0, right: 0 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true },
      grid: { left: 40, right: 16, top: 60, bottom: data.days.length > 31 ? 56 : 28 },
      xAxis: { type: 'category', data: data.days, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', minInterval: 1 },
      dataZoom:
        data.days.length > 31
          ? [
              { type: 'inside', filterMode: 'none' },
              { type: 'slider', bottom: 6, height: 20 },
            ]
          : [{ type: 'inside', filterMode: 'none' }],
      series: ALARM_LEVELS.map((level) => ({
        type: 'bar',
        name: t(`gensets.levels.${level}`),
        stack: 'alarms',
        barMaxWidth: 24,
        itemStyle: { color: ALARM_LEVEL_HEX[level] },
        data: data.levels[level],
      })),
    }),
    [data, t],
  );
  return (
    <EChart
      option={option}
      notMerge
      height={244}
      loading={loading}
      ariaLabel={t('history.alarms.chartLabel', {
        warning: data.totals.warning,
        shutdown: data.totals.shutdown,
        trip: data.totals.trip,
      })}
      data-testid="alarm-chart"
    />
  );
}
