// The first line of the dashboard: controller mode, genset state (in the set status colour) and where the
// load is fed from.
import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { NO_READING } from './format.ts';
import type { LiveItems } from './live-items.ts';
import { PowerPath } from './power-path.tsx';

const STATUS_CLASS: Record<number, string> = { 0: 'offline', 1: 'stopped', 2: 'standby', 3: 'running' };

function StateTile({ title, value, tone, testId }: { title: string; value: string; tone: string; testId: string }) {
  return (
    <div className={`state-tile state-tile-${tone}`} data-testid={testId}>
      <div className="state-tile-title">{title}</div>
      <div className="state-tile-value">{value}</div>
    </div>
  );
}

export function StateStrip({ items }: { items: LiveItems }) {
  const { t } = useTranslation();
  const mode = items.byKey.get('mode');
  const engine = items.byKey.get('engine_state');
  const statusTone = STATUS_CLASS[items.status ?? 0] ?? 'offline';
  const text = (item: typeof mode) =>
    item ? (item.label ?? (item.value === null ? NO_READING : String(item.value))) : NO_READING;
  return (
    <Card size="small" styles={{ body: { padding: 12 } }}>
      <Row gutter={[12, 12]} align="middle">
        <Col xs={12} md={6} xl={4}>
          <StateTile title={mode?.name ?? t('live.mode')} value={text(mode)} tone="mode" testId="state-mode" />
        </Col>
        <Col xs={12} md={6} xl={5}>
          <StateTile
            title={engine?.name ?? t('live.engineState')}
            value={text(engine)}
            tone={statusTone}
            testId="state-engine"
          />
        </Col>
        <Col xs={24} md={12} xl={15}>
          <PowerPath items={items} />
        </Col>
      </Row>
    </Card>
  );
}
