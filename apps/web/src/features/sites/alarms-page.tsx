// /ems/baojinginfo: the station's alarms — those active now on any of its sets (refreshed whenever the
// station's alarm count changes) and those that started in a chosen range, by level and state, paged.
import { useEffect, useMemo, useState } from 'react';
import { Card, DatePicker, Select, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PAGE_SIZES } from '@genset/protocol';
import {
  ALARM_LEVELS,
  ALARM_STATES,
  DEFAULT_PAGE_SIZE,
  type SiteAlarmEntry,
  type SiteAlarmHistoryRequest,
} from '@genset/protocol';
import { AlarmLevelTag } from '../../components/alarm-level-tag.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime } from '../../components/format.ts';
import { ToneTag } from '../../components/tone-tag.tsx';
import { AlarmDuration } from '../monitor/alarm-duration.tsx';
import { useCurrentSiteAlarms, useSiteAlarmHistory } from './api.ts';
import { StationPage } from './station-page.tsx';
import type { Station } from './use-station.ts';
import './sites.css';
import { tablePagination } from './paging.ts';

type Level = (typeof ALARM_LEVELS)[number] | 'all';
type State = (typeof ALARM_STATES)[number];

function useAlarmColumns(withState: boolean): ColumnsType<SiteAlarmEntry> {
  const { t } = useTranslation();
  return [
    { key: 'level', title: t('ems.alarms.level'), width: 110, render: (_, a) => <AlarmLevelTag level={a.level} /> },
    { key: 'title', title: t('ems.alarms.title'), dataIndex: 'title' },
    {
      key: 'set',
      title: t('ems.alarms.device'),
      render: (_, a) => (
        <Space size={4} wrap>
          <ToneTag tone="purple">{t(`ems.roles.${a.role}`)}</ToneTag>
          {a.setName}
        </Space>
      ),
    },
    { key: 'start', title: t('ems.alarms.start'), width: 170, render: (_, a) => formatDateTime(a.start, true) },
    ...(withState
      ? [
          {
            key: 'end',
            title: t('ems.alarms.end'),
            width: 170,
            render: (_: unknown, a: SiteAlarmEntry) =>
              a.end === null ? <ToneTag tone="red">{t('ems.alarms.active')}</ToneTag> : formatDateTime(a.end, true),
          },
        ]
      : []),
    {
      key: 'duration',
      title: t('ems.alarms.duration'),
      width: 130,
      render: (_, a) => <AlarmDuration start={a.start} end={a.end} />,
    },
  ];
}

function Alarms({ station }: { station: Station }) {
  const { t } = useTranslation();
  const current = useCurrentSiteAlarms(station.token);
  const { refetch: refetchCurrent } = current;
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(30, 'day').startOf('day'), dayjs()]);
  const [level, setLevel] = useState<Level>('all');
  const [state, setState] = useState<State>('all');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<(typeof PAGE_SIZES)[number]>(DEFAULT_PAGE_SIZE);
  const request = useMemo<SiteAlarmHistoryRequest>(
    () => ({
      token: station.token,
      start: range[0].valueOf(),
      end: range[1].endOf('day').valueOf(),
      state,
      page,
      size,
      ...(level === 'all' ? {} : { level }),
    }),
    [station.token, range, level, state, page, size],
  );
  const history = useSiteAlarmHistory(request);
  const { refetch: refetchHistory } = history;

  // the alarm count pushed for the station changed: what stands now, and the history, are out of date
  const alarmNum = station.alarmNum;
  useEffect(() => {
    if (alarmNum === undefined) return;
    void refetchCurrent();
    void refetchHistory();
  }, [alarmNum, refetchCurrent, refetchHistory]);

  const currentColumns = useAlarmColumns(false);
  const historyColumns = useAlarmColumns(true);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="ems-alarms">
      <Card
        size="small"
        title={<h2 className="ems-page-title">{t('ems.alarms.current')}</h2>}
        extra={current.data ? t('ems.alarms.count', { count: current.data.alarmNum }) : null}
      >
        {current.isError && !current.data ? (
          <ErrorState error={current.error} onRetry={() => void current.refetch()} />
        ) : (
          <Table<SiteAlarmEntry>
            size="small"
            rowKey="id"
            columns={currentColumns}
            dataSource={current.data?.list ?? []}
            loading={current.isPending}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <EmptyState description={t('ems.alarms.noneActive')} /> }}
            data-testid="alarms-current"
          />
        )}
      </Card>
      <Card size="small" title={<h2 className="ems-page-title">{t('ems.alarms.history')}</h2>}>
        <Space size={8} wrap style={{ marginBottom: 12 }}>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            onChange={(value) => {
              if (value?.[0] && value[1]) {
                setRange([value[0].startOf('day'), value[1]]);
                setPage(1);
              }
            }}
            aria-label={t('ems.alarms.range')}
          />
          <Select<Level>
            value={level}
            style={{ minWidth: 140 }}
            aria-label={t('ems.alarms.level')}
            options={[
              { value: 'all', label: t('ems.alarms.allLevels') },
              ...ALARM_LEVELS.map((l) => ({ value: l, label: t(`gensets.levels.${l}`) })),
            ]}
            onChange={(value) => {
              setLevel(value);
              setPage(1);
            }}
          />
          <Select<State>
            value={state}
            style={{ minWidth: 140 }}
            aria-label={t('ems.alarms.state')}
            options={ALARM_STATES.map((s) => ({ value: s, label: t(`ems.alarms.states.${s}`) }))}
            onChange={(value) => {
              setState(value);
              setPage(1);
            }}
          />
        </Space>
        {history.isError && !history.data ? (
          <ErrorState error={history.error} onRetry={() => void history.refetch()} />
        ) : (
          <Table<SiteAlarmEntry>
            size="small"
            rowKey="id"
            columns={historyColumns}
            dataSource={history.data?.list ?? []}
            loading={history.isPending || (history.isFetching && history.isPlaceholderData)}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <EmptyState description={t('ems.alarms.noneInRange')} /> }}
            pagination={tablePagination(page, size, history.data?.total ?? 0, setPage, setSize)}
            data-testid="alarms-history"
          />
        )}
      </Card>
    </Space>
  );
}

export function AlarmsPage() {
  return <StationPage>{(station) => <Alarms station={station} />}</StationPage>;
}
