// The eight dials a technician reads first: speed, voltage, frequency, power, oil pressure, coolant
// temperature, fuel and battery; a dial whose item the protocol lacks is left out.
import { useMemo } from 'react';
import { Col, Row } from 'antd';
import type { GensetInfo } from '@genset/protocol';
import { GaugeCard } from './gauge-card.tsx';
import { GAUGES, type RatedValues } from './gauges.ts';
import type { LiveItems } from './live-items.ts';

export function ratedValues(info: GensetInfo | undefined): RatedValues {
  return {
    kw: info?.ratedPowerKw,
    rpm: info?.ratedSpeedRpm,
    volts: info?.ratedVoltageV,
    hz: info?.ratedFrequencyHz,
    batteryVolts: info?.ratedBatteryVoltageV,
  };
}

export function GaugeGrid({
  items,
  rated,
  compact = false,
}: {
  items: LiveItems;
  rated: RatedValues;
  compact?: boolean;
}) {
  const frequency = items.byKey.get('gen_freq')?.value ?? null;
  const rpm = items.byKey.get('engine_rpm')?.value ?? null;
  const engineRunning = rpm !== null && rpm > 100;
  const dials = useMemo(
    () =>
      GAUGES.map((definition) => {
        const key = definition.keys.find((k) => items.byKey.has(k));
        return key ? { definition, item: items.byKey.get(key)! } : null;
      }).filter((dial) => dial !== null),
    [items.byKey],
  );
  return (
    <Row gutter={[12, 12]} data-testid="gauges">
      {dials.map(({ definition, item }) => (
        <Col key={definition.id} xs={12} md={8} lg={6} xxl={compact ? 3 : 6}>
          <GaugeCard
            definition={definition}
            item={item}
            rated={rated}
            frequency={frequency}
            engineRunning={engineRunning}
            compact={compact}
          />
        </Col>
      ))}
    </Row>
  );
}
