// The alarm tab of a set (/top/baojing): its active alarms, live; the alarm history over a range with level
// and state filters and paging; and the alarms per day. A change in the active alarms refreshes both.
import { useEffect, useRef, useState } from 'react';
import { Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE } from '@genset/protocol';
import { useSetRealtime } from '../../realtime/index.ts';
import { monitorKeys, useAlarmChart, useAlarmHistory, useSetStatus } from './api.ts';
import { AlarmChart } from './alarm-chart.tsx';
import { AlarmHistory, type AlarmFilter } from './alarm-history.tsx';
import { ConnectionTag } from './connection-tag.tsx';
import { CurrentAlarms } from './current-alarms.tsx';
import { RangeFilter, type RangeValue } from './range-filter.tsx';
import './monitor.css';

export function AlarmsTab({ token }: { token: string }) {
  const client = useQueryClient();
  const { live, connection } = useSetRealtime(token);
  // those who may command the set may acknowledge its alarms
  const status = useSetStatus(token);
  const canAck = Boolean(status.data && status.data.rights !== 'view');
  const [range, setRange] = useState<RangeValue>({ range: 'week' });
  const [filter, setFilter] = useState<AlarmFilter>({ level: 'all', state: 'all', page: 1, size: DEFAULT_PAGE_SIZE });
  const rangeParams = range.range === 'custom' ? range : { range: range.range };
  const history = useAlarmHistory({
    token,
    ...rangeParams,
    ...(filter.level === 'all' ? {} : { level: filter.level }),
    state: filter.state,
    page: filter.page,
    size: filter.size,
  });
  const chart = useAlarmChart({ token, ...rangeParams });

  // a new or ended alarm shows up in the history and the chart at once
  const activeIds = live?.alarms ? live.alarms.map((alarm) => alarm.id).join(',') : null;
  const seenIds = useRef<string | null>(null);
  useEffect(() => {
    if (activeIds === null) return;
    if (seenIds.current !== null && seenIds.current !== activeIds)
      void client.invalidateQueries({ queryKey: monitorKeys.alarms(token) });
    seenIds.current = activeIds;
  }, [activeIds, client, token]);

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="alarms-tab">
      <ConnectionTag connection={connection} setOffline={live?.status === 0} />
      <CurrentAlarms alarms={live?.alarms ?? null} unknown={live?.status === 0} />
      <AlarmHistory
        filter={filter}
        onFilter={setFilter}
        data={history.data}
        loading={history.isFetching}
        error={history.error}
        onRetry={() => void history.refetch()}
        token={token}
        canAck={canAck}
        range={
          <RangeFilter
            value={range}
            onChange={(value) => {
              setRange(value);
              setFilter((f) => ({ ...f, page: 1 }));
            }}
          />
        }
      />
      <AlarmChart
        data={chart.data}
        loading={chart.isFetching}
        error={chart.error}
        onRetry={() => void chart.refetch()}
      />
    </Space>
  );
}
