// The live dashboard of one set, read at a glance: mode, genset state and power path, eight dials, active
// alarms, counters and (on the realtime tab) the control buttons. Also the body of the /monitor page.
import { Alert, Col, Row, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { ConnectionTag } from './connection-tag.tsx';
import { CountersCard } from './counters-card.tsx';
import { CurrentAlarms } from './current-alarms.tsx';
import { GaugeGrid } from './gauge-grid.tsx';
import type { RatedValues } from './gauges.ts';
import type { LiveItems } from './live-items.ts';
import { StateStrip } from './state-strip.tsx';

export interface DashboardProps {
  items: LiveItems;
  rated: RatedValues;
  /** The control buttons (left out on the wall display). */
  controls?: ReactNode;
  /** Denser dials for a wall display. */
  compact?: boolean;
}

export function Dashboard({ items, rated, controls, compact = false }: DashboardProps) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="dashboard">
      <ConnectionTag connection={items.connection} ts={items.ts} />
      {items.status === 0 ? (
        <Alert
          type="warning"
          showIcon
          message={items.ts ? t('live.setOffline') : t('live.setNeverSeen')}
          data-testid="set-offline"
        />
      ) : null}
      <StateStrip items={items} />
      <GaugeGrid items={items} rated={rated} compact={compact} />
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={12}>
          <CurrentAlarms alarms={items.alarms} />
        </Col>
        <Col xs={24} lg={12}>
          <Space direction="vertical" size={12} style={{ width: '100%' }}>
            {controls}
            <CountersCard items={items} />
          </Space>
        </Col>
      </Row>
    </Space>
  );
}
