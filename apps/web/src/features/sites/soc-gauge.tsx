// The battery's state of charge as a dial, with the figure in words beneath for screen readers and print.
import { useMemo } from 'react';
import { use as registerCharts, type EChartsCoreOption } from 'echarts/core';
import { GaugeChart } from 'echarts/charts';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/echart.tsx';
import { formatSoc } from './site-format.ts';

registerCharts([GaugeChart]);

function socColour(soc: number | null): string {
  if (soc === null) return '#bfbfbf';
  if (soc < 20) return '#cf1322';
  if (soc < 40) return '#d48806';
  return '#389e0d';
}

export function SocGauge({ soc }: { soc: number | null }) {
  const { t } = useTranslation();
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      series: [
        {
          type: 'gauge',
          startAngle: 210,
          endAngle: -30,
          min: 0,
          max: 100,
          radius: '92%',
          center: ['50%', '58%'],
          progress: { show: true, width: 14, itemStyle: { color: socColour(soc) } },
          axisLine: { lineStyle: { width: 14, color: [[1, '#f0f0f0']] } },
          splitNumber: 4,
          axisTick: { show: false },
          splitLine: { length: 6, distance: -14, lineStyle: { color: '#fff', width: 2 } },
          axisLabel: { distance: 22, fontSize: 10, color: '#595959' },
          pointer: { show: false },
          anchor: { show: false },
          title: { show: false },
          detail: { show: false },
          data: [{ value: soc ?? 0 }],
        },
      ],
    }),
    [soc],
  );
  return (
    <div style={{ position: 'relative' }}>
      <EChart option={option} height={170} ariaLabel={`${t('ems.overview.soc')}: ${formatSoc(soc)}`} />
      <div className="ems-soc-reading" data-testid="soc-value">
        {formatSoc(soc)}
      </div>
    </div>
  );
}
