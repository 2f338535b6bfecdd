// The live dashboard of one set, read at a glance: mode, genset state and power path, eight dials, active
// alarms, counters and (on the realtime tab) the control buttons. Also the body of the /monitor page.
import { Col, Row, Space } from 'antd';
import type { ReactNode } from 'react';
import { ConnectionTag } from './connection-tag.tsx';
import { CountersCard } from './counters-card.tsx';
import { CurrentAlarms } from './current-alarms.tsx';
import { GaugeGrid } from './gauge-grid.tsx';
import { OfflineNotice } from './offline-notice.tsx';
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
  /** The set's time zone: times of its data are given there, the zone named. */
  timeZone?: string | null;
}

export function Dashboard({ items, rated, controls, compact = false, timeZone }: DashboardProps) {
  // the server's status for the set: offline (no data from it) whatever the realtime connection does
  const setOffline = items.status === 0;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="dashboard">
      <ConnectionTag connection={items.connection} ts={items.ts} setOffline={setOffline} timeZone={timeZone} />
      {setOffline ? <OfflineNotice ts={items.ts} timeZone={timeZone} /> : null}
      <StateStrip items={items} />
      <GaugeGrid items={items} rated={rated} compact={compact} />
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={12}>
          <CurrentAlarms alarms={items.alarms} unknown={setOffline} timeZone={timeZone} />
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
