// The set's counters beside the dials: run hours, starts, energy and hours to the next service.
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { localUnit } from '../../components/format.ts';
import { formatReading } from './format.ts';
import type { LiveItems } from './live-items.ts';

const COUNTERS = ['run_hours', 'starts', 'kwh_total', 'maintenance_hours'] as const;

export function CountersCard({ items }: { items: LiveItems }) {
  const { t } = useTranslation();
  const present = COUNTERS.map((key) => items.byKey.get(key)).filter((item) => item !== undefined);
  if (present.length === 0) return null;
  return (
    <Card size="small" title={t('live.counters')} data-testid="counters">
      <Row gutter={[16, 12]}>
        {present.map((item) => (
          <Col key={item.key} xs={12} sm={12} md={6} lg={12} xl={6}>
            <Statistic
              title={item.name}
              value={formatReading(item.value, item.decimals)}
              suffix={item.value === null ? undefined : localUnit(item.unit)}
              valueStyle={{
                fontSize: 20,
                fontVariantNumeric: 'tabular-nums',
                color: item.key === 'maintenance_hours' && (item.value ?? 1) <= 0 ? '#cf1322' : undefined,
              }}
            />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
