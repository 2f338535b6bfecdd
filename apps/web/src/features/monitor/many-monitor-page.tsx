// /manymonitor: the user's sets as a grid of tiles for a wall display, each with status, alarms and key
// values, kept live over one realtime connection; the lists' state filter (states, and the alarm overlay apart)
// and paging for large fleets.
import { useState } from 'react';
import { Col, Pagination, Row, Skeleton, Space } from 'antd';
import { GENSET_STATUS_FILTERS, type GensetStatusFilter } from '@genset/protocol';
import { ClusterOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useFleetRealtime } from '../../realtime/index.ts';
import { useMultiStatus } from './api.ts';
import { ConnectionTag } from './connection-tag.tsx';
import { MonitorHeader } from './monitor-header.tsx';
import { SetTile, tileState, type TileState } from './set-tile.tsx';
import { StatusFilter } from '../gensets/status-filter.tsx';
import { statusKey } from '../../components/set-status.ts';
import './monitor.css';

const PAGE_SIZE = 50;
export function ManyMonitorPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<GensetStatusFilter>('all');
  const sets = useMultiStatus({ page, size: PAGE_SIZE });
  const list = sets.data?.list ?? [];
  const fleet = useFleetRealtime(list.map((entry) => entry.token));

  const states = list.map((entry) => ({ entry, state: tileState(entry, fleet.sets[entry.token]) }));
  // the states of the partition (they add up to all) and, apart, the sets with active alarms
  const matches = (f: GensetStatusFilter, s: TileState) =>
    f === 'all' ? true : f === 'alarm' ? s.alarmnum > 0 : statusKey(s.status) === f;
  const counts = Object.fromEntries(
    GENSET_STATUS_FILTERS.map((f) => [f, states.filter((s) => matches(f, s.state)).length]),
  ) as Record<GensetStatusFilter, number>;
  const shown = states.filter(({ state }) => matches(filter, state));

  return (
    <div className="monitor-page" data-testid="many-monitor">
      <MonitorHeader title={t('live.many.title')}>
        <Link to="/genset/groups" className="monitor-header-link" data-testid="many-groups-link">
          <ClusterOutlined /> {t('live.many.groups')}
        </Link>
        <ConnectionTag connection={fleet.connection} />
      </MonitorHeader>
      <main className="monitor-body">
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          <StatusFilter value={filter} counts={counts} onChange={setFilter} testId="many-filter" />
          {sets.isPending ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : sets.isError ? (
            <ErrorState error={sets.error} onRetry={() => void sets.refetch()} />
          ) : shown.length === 0 ? (
            <EmptyState description={list.length === 0 ? t('live.monitor.noSets') : undefined} />
          ) : (
            <Row gutter={[12, 12]}>
              {shown.map(({ entry }) => (
                <Col key={entry.token} xs={24} sm={12} lg={8} xl={6} xxl={4}>
                  <SetTile entry={entry} live={fleet.sets[entry.token]} />
                </Col>
              ))}
            </Row>
          )}
          {(sets.data?.total ?? 0) > PAGE_SIZE ? (
            <Pagination
              current={page}
              pageSize={PAGE_SIZE}
              total={sets.data?.total}
              showSizeChanger={false}
              onChange={setPage}
              style={{ textAlign: 'center' }}
            />
          ) : null}
        </Space>
      </main>
    </div>
  );
}
