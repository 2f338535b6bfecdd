// /manymonitor: the user's sets as a grid of tiles for a wall display, each with status, alarms and key
// values, kept live over one realtime connection; a status filter and paging for large fleets.
import { useState } from 'react';
import { Col, Pagination, Row, Segmented, Skeleton, Space } from 'antd';
import { ClusterOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useFleetRealtime } from '../../realtime/index.ts';
import { useMultiStatus } from './api.ts';
import { ConnectionTag } from './connection-tag.tsx';
import { MonitorHeader } from './monitor-header.tsx';
import { SetTile, tileState } from './set-tile.tsx';
import './monitor.css';

const PAGE_SIZE = 50;
const FILTERS = ['all', 'running', 'standby', 'stopped', 'offline', 'alarm'] as const;
type Filter = (typeof FILTERS)[number];
const FILTER_STATUS: Partial<Record<Filter, number>> = { offline: 0, stopped: 1, standby: 2, running: 3 };

export function ManyMonitorPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<Filter>('all');
  const sets = useMultiStatus({ page, size: PAGE_SIZE });
  const list = sets.data?.list ?? [];
  const fleet = useFleetRealtime(list.map((entry) => entry.token));

  const states = list.map((entry) => ({ entry, state: tileState(entry, fleet.sets[entry.token]) }));
  const count = (f: Filter) =>
    f === 'all'
      ? states.length
      : f === 'alarm'
        ? states.filter((s) => s.state.alarmnum > 0).length
        : states.filter((s) => s.state.status === FILTER_STATUS[f]).length;
  const shown = states.filter(({ state }) =>
    filter === 'all' ? true : filter === 'alarm' ? state.alarmnum > 0 : state.status === FILTER_STATUS[filter],
  );

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
          <div style={{ overflowX: 'auto' }}>
            <Segmented<Filter>
              value={filter}
              onChange={setFilter}
              options={FILTERS.map((f) => ({ value: f, label: `${t(`live.many.filters.${f}`)} (${count(f)})` }))}
              data-testid="many-filter"
            />
          </div>
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
