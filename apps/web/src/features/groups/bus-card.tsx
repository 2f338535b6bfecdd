// The bus of a parallel group (live or dead, voltage, frequency, total kW and kVA, sets on it), or what the
// sets of a multi-set group deliver together.
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GroupBus, GroupKind } from '@genset/protocol';
import { formatNumber, localUnit } from '../../components/format.ts';
import { ToneTag } from '../../components/tone-tag.tsx';

function Reading({
  label,
  value,
  unit,
  decimals,
  testId,
}: {
  label: string;
  value: number | null;
  unit: string;
  decimals: number;
  testId: string;
}) {
  return (
    <Statistic
      title={label}
      value={formatNumber(value, decimals)}
      suffix={value === null ? undefined : localUnit(unit)}
      data-testid={testId}
    />
  );
}

export function BusCard({ kind, bus }: { kind: GroupKind; bus: GroupBus }) {
  const { t } = useTranslation();
  const parallel = kind === 'parallel';
  return (
    <Card
      size="small"
      title={parallel ? t('groups.bus.title') : t('groups.bus.siteTitle')}
      extra={
        <ToneTag tone={bus.live ? 'green' : 'grey'} data-testid="bus-state" data-state={bus.live ? 'live' : 'dead'}>
          {bus.live ? t('groups.bus.live') : parallel ? t('groups.bus.dead') : t('groups.bus.idle')}
        </ToneTag>
      }
      data-testid="group-bus"
    >
      <Row gutter={[16, 12]}>
        {parallel ? (
          <>
            <Col xs={12} md={8} xl={4}>
              <Reading label={t('groups.bus.voltage')} value={bus.voltage} unit="V" decimals={0} testId="bus-voltage" />
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Reading
                label={t('groups.bus.frequency')}
                value={bus.frequency}
                unit="Hz"
                decimals={2}
                testId="bus-frequency"
              />
            </Col>
          </>
        ) : null}
        <Col xs={12} md={8} xl={parallel ? 5 : 8}>
          <Reading label={t('groups.bus.kw')} value={bus.kw} unit="kW" decimals={1} testId="bus-kw" />
        </Col>
        <Col xs={12} md={8} xl={parallel ? 5 : 8}>
          <Reading label={t('groups.bus.kva')} value={bus.kva} unit="kVA" decimals={1} testId="bus-kva" />
        </Col>
        <Col xs={24} md={8} xl={parallel ? 6 : 8}>
          <Statistic
            title={t('groups.bus.onLoad')}
            value={t('groups.bus.onLoadValue', { count: bus.onLoad, total: bus.members })}
            data-testid="bus-on-load"
          />
        </Col>
      </Row>
    </Card>
  );
}
