// /genset/alarms: alarms per day and level (all sets, or one), and the alarms within the range by level and
// state (active or ended), paged: of the chosen set, or of every set with the set named on each; or, as the other
// view, what they say (alarm-analytics.tsx).
import { usePaging } from '../../components/use-paging.ts';
import { useMemo, useState } from 'react';
import { Card, Input, Segmented, Select, Space, Statistic, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link, useSearchParams } from 'react-router';
import { ALARM_LEVELS, ALARM_STATES, type AlarmLevelName, type SetAlarmEntry } from '@genset/protocol';
import { AlarmAck, AlarmEpisodeTitle, AlarmShelf } from '../../components/alarm-episode.tsx';
import { AlarmLevelTag } from '../../components/alarm-level-tag.tsx';
import { ToneTag } from '../../components/tone-tag.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime } from '../../components/format.ts';
import { setLinks } from '../gensets/links.ts';
import { useAlarmChart, useAlarmHistory } from './api.ts';
import { AlarmChart } from './alarm-chart.tsx';
import { AlarmAnalyticsView } from './alarm-analytics.tsx';
import { RangeSelect, rangeRequest } from './range-select.tsx';
import { SetPicker } from './set-picker.tsx';
import { useHistoryParams } from './use-history-params.ts';
import './history.css';

type AlarmState = (typeof ALARM_STATES)[number];

/** How long an alarm lasted (or has lasted so far), in days and hours, hours and minutes, or minutes. */
function duration(t: TFunction, start: number, end: number | null): string {
  const minutes = Math.max(0, Math.round(((end ?? Date.now()) - start) / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d) return t('history.duration.days', { d, h });
  if (h) return t('history.duration.hours', { h, m });
  return t('history.duration.minutes', { m });
}

export function AlarmsPage() {
  const { t } = useTranslation();
  const [params, update] = useHistoryParams();
  const [level, setLevel] = useState<AlarmLevelName | undefined>();
  const [state, setState] = useState<AlarmState>('all');
  const [search, setSearch] = useState('');
  // the view is kept in the address (`view=analytics`), so that a link opens the analysis
  const [query, setQuery] = useSearchParams();
  const view = query.get('view') === 'analytics' ? 'analytics' : 'list';
  const setView = (v: 'list' | 'analytics') =>
    setQuery(
      (q) => {
        const next = new URLSearchParams(q);
        if (v === 'analytics') next.set('view', v);
        else next.delete('view');
        return next;
      },
      { replace: true },
    );
  const { page, size, setPage, pagination } = usePaging();
  const range = rangeRequest(params) ?? { range: 'week' as const };
  const chart = useAlarmChart({ ...(params.token ? { token: params.token } : {}), ...range });
  const fleet = !params.token;
  const list = useAlarmHistory({
    ...(params.token ? { token: params.token } : {}),
    ...range,
    state,
    page,
    size,
    ...(level ? { level } : {}),
    ...(search ? { search } : {}),
  });

  const columns = useMemo<TableColumnsType<SetAlarmEntry>>(
    () => [
      {
        key: 'level',
        title: t('history.alarms.level'),
        width: 100,
        render: (_, a) => <AlarmLevelTag level={a.level} />,
      },
      ...(fleet
        ? [
            {
              key: 'set',
              title: t('history.alarms.set'),
              width: 180,
              ellipsis: { showTitle: true },
              render: (_: unknown, a: SetAlarmEntry) => (
                <Link to={setLinks.alarms(a.setToken)} title={a.setName}>
                  {a.setName}
                </Link>
              ),
            },
          ]
        : []),
      {
        key: 'title',
        title: t('history.alarms.alarm'),
        render: (_: unknown, a: SetAlarmEntry) => <AlarmEpisodeTitle alarm={a} />,
      },
      {
        key: 'start',
        title: t('history.alarms.start'),
        width: 170,
        render: (_, a) => <span className="history-num">{formatDateTime(a.start, true)}</span>,
      },
      {
        key: 'end',
        title: t('history.alarms.end'),
        width: 170,
        render: (_, a) =>
          a.end === null ? (
            <ToneTag tone="red">{t('history.alarms.active')}</ToneTag>
          ) : (
            <span className="history-num">{formatDateTime(a.end, true)}</span>
          ),
      },
      {
        key: 'duration',
        title: t('history.alarms.duration'),
        width: 100,
        responsive: ['md'],
        render: (_, a) => <span className="history-num">{duration(t, a.start, a.end)}</span>,
      },
      {
        key: 'ack',
        title: t('live.alarms.ackColumn'),
        width: 200,
        responsive: ['lg'],
        render: (_, a) => (
          <Space direction="vertical" size={6}>
            <AlarmAck alarm={a} />
            <AlarmShelf alarm={a} />
          </Space>
        ),
      },
    ],
    [t, fleet],
  );

  return (
    <Card className="history-card" title={<h1 className="history-title">{t('history.alarms.title')}</h1>}>
      <div className="history-controls">
        <SetPicker
          allowClear
          value={params.token || undefined}
          placeholder={t('history.alarms.allSets')}
          onChange={(token) => {
            setPage(1);
            update({ token: token ?? '' });
          }}
        />
        <RangeSelect
          value={params}
          onChange={(r) => {
            setPage(1);
            update(r);
          }}
        />
        <Segmented<'list' | 'analytics'>
          value={view}
          onChange={setView}
          options={[
            { value: 'list', label: t('history.analytics.view.list') },
            { value: 'analytics', label: t('history.analytics.view.analytics') },
          ]}
          data-testid="alarms-view"
        />
      </div>
      {view === 'analytics' ? (
        <AlarmAnalyticsView request={{ ...(params.token ? { token: params.token } : {}), ...range }} fleet={fleet} />
      ) : null}
      {view === 'analytics' ? null : chart.isError && !chart.data ? (
        <ErrorState error={chart.error} onRetry={() => void chart.refetch()} />
      ) : chart.data ? (
        <>
          <Space size={24} wrap style={{ margin: '4px 0 8px' }}>
            {ALARM_LEVELS.map((l) => (
              <Statistic
                key={l}
                title={t(`gensets.levels.${l}`)}
                value={chart.data.totals[l]}
                styles={{ content: { fontSize: 20 } }}
              />
            ))}
          </Space>
          <AlarmChart data={chart.data} loading={chart.isFetching} />
        </>
      ) : (
        <div className="history-placeholder">{t('common.states.loading')}</div>
      )}

      {view === 'list' ? (
        <>
          <div className="history-controls" style={{ marginTop: 16 }}>
            <Typography.Text strong>{t('history.alarms.list')}</Typography.Text>
            <Select<AlarmLevelName | 'all'>
              value={level ?? 'all'}
              onChange={(v) => {
                setPage(1);
                setLevel(v === 'all' ? undefined : v);
              }}
              aria-label={t('history.alarms.level')}
              style={{ width: 140 }}
              options={[
                { value: 'all', label: t('history.alarms.allLevels') },
                ...ALARM_LEVELS.map((l) => ({ value: l, label: t(`gensets.levels.${l}`) })),
              ]}
            />
            <Segmented<AlarmState>
              value={state}
              onChange={(v) => {
                setPage(1);
                setState(v);
              }}
              options={ALARM_STATES.map((s) => ({ value: s, label: t(`history.alarms.states.${s}`) }))}
            />
            <Input.Search
              allowClear
              maxLength={60}
              placeholder={t('history.alarms.search')}
              aria-label={t('history.alarms.search')}
              style={{ width: 220, maxWidth: '100%' }}
              onSearch={(value) => {
                setPage(1);
                setSearch(value.trim());
              }}
              data-testid="alarm-search"
            />
          </div>
          {list.isError && !list.data ? (
            <ErrorState error={list.error} onRetry={() => void list.refetch()} />
          ) : (
            <Table<SetAlarmEntry>
              size="small"
              rowKey="id"
              columns={columns}
              dataSource={list.data?.list ?? []}
              loading={list.isFetching}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: <EmptyState description={t('history.alarms.none')} /> }}
              data-testid="alarm-table"
              pagination={pagination(list.data?.total ?? 0, {
                showTotal: (total) => t('history.table.total', { count: total }),
              })}
            />
          )}
        </>
      ) : null}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, fontSize: 12 }}>
        {t('history.alarms.timesIn', {
          zone: chart.data?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        })}
      </Typography.Paragraph>
    </Card>
  );
}
