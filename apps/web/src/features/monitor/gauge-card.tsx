// One dial of the dashboard: the item's name, a needle over coloured zones, and the reading in large figures
// with its unit and, outside the normal zone, the word "low" or "high".
import { useMemo, useState } from 'react';
import { Card, Typography } from 'antd';
import { use as registerCharts } from 'echarts/core';
import { GaugeChart } from 'echarts/charts';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/charts/echart.tsx';
import { localUnit } from '../../components/format.ts';
import { formatReading } from './format.ts';
import { effectiveZone, gaugeOption, TONE_TEXT, zoneOf, type GaugeDefinition, type RatedValues } from './gauges.ts';
import type { LiveItem } from './live-items.ts';

registerCharts([GaugeChart]);

export interface GaugeCardProps {
  definition: GaugeDefinition;
  item: LiveItem;
  rated: RatedValues;
  /** The generator frequency, for the rpm and frequency scales of sets without a rating. */
  frequency: number | null;
  /** The engine turns: low pressure, speed, voltage or frequency then mean something. */
  engineRunning: boolean;
  compact?: boolean;
}

export function GaugeCard({ definition, item, rated, frequency, engineRunning, compact = false }: GaugeCardProps) {
  const { t } = useTranslation();
  const value = item.value;
  // the highest reading so far: an unrated power scale only grows, a guessed voltage scale settles
  const [peak, setPeak] = useState(0);
  if (value !== null && value > peak) setPeak(value);

  const scale = useMemo(
    () => definition.scale({ value, unit: item.unit, rated, peak, frequency }),
    [definition, value, item.unit, rated, peak, frequency],
  );
  const option = useMemo(() => gaugeOption(scale, value, compact), [scale, value, compact]);
  const zone = effectiveZone(definition.id, zoneOf(scale, value), engineRunning);
  const reading = formatReading(value, item.decimals);
  const word = zone?.word ? t(`live.zones.${zone.word}`) : null;
  const color = zone ? TONE_TEXT[zone.tone] : TONE_TEXT.neutral;

  return (
    <Card
      size="small"
      styles={{ body: { padding: compact ? '6px 8px 8px' : '8px 12px 12px' } }}
      data-testid={`gauge-${definition.id}`}
    >
      <Typography.Text strong ellipsis style={{ display: 'block', fontSize: compact ? 13 : 14 }} title={item.name}>
        {item.name}
      </Typography.Text>
      <EChart
        option={option}
        height={compact ? 128 : 168}
        ariaLabel={`${item.name}: ${reading}${item.unit ? ` ${localUnit(item.unit)}` : ''}${word ? ` (${word})` : ''}`}
      />
      <div className="live-gauge-reading" style={{ marginTop: compact ? -14 : -18 }}>
        <span className="live-gauge-value" style={{ color, fontSize: compact ? 20 : 24 }} data-testid="gauge-value">
          {reading}
        </span>
        {item.unit && value !== null ? <span className="live-gauge-unit">{localUnit(item.unit)}</span> : null}
      </div>
      <div className="live-gauge-word" style={{ color }}>
        {word ?? '\u00a0'}
      </div>
    </Card>
  );
}
