// Alarms of the set that started within the range, by level and state, paged (spec 9: 20 a page, 10/20/30/50).
// Each row is an episode: how often it was raised in it, whether it flapped, and who acknowledged it and why; those
// who may command the set acknowledge it here, and shelve an active one for a while (or take it off the shelf).
import { useState, type ReactNode } from 'react';
import { App as AntApp, Card, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { ALARM_LEVELS, ALARM_STATES, PAGE_SIZES, type AlarmEntry, type AlarmHistoryResponse } from '@genset/protocol';
import { ErrorState } from '../../components/error-state.tsx';
import { AckDialog } from './ack-dialog.tsx';
import { ShelveDialog } from './shelve-dialog.tsx';
import { useShelveAlarm } from './api.ts';
import { AlarmDuration } from './alarm-duration.tsx';
import { AlarmAck, AlarmEpisodeTitle, AlarmShelf } from '../../components/alarm-episode.tsx';
import { AlarmLevelTag } from './alarm-level-tag.tsx';
import { formatTime } from './format.ts';

export interface AlarmFilter {
  level: (typeof ALARM_LEVELS)[number] | 'all';
  state: (typeof ALARM_STATES)[number];
  page: number;
  size: (typeof PAGE_SIZES)[number];
}

export function AlarmHistory({
  filter,
  onFilter,
  data,
  loading,
  error,
  onRetry,
  range,
  token,
  canAck = false,
}: {
  filter: AlarmFilter;
  onFilter: (filter: AlarmFilter) => void;
  data: AlarmHistoryResponse | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  range: ReactNode;
  /** The set's token (its alarms are read again after an acknowledgement). */
  token?: string;
  /** The caller may command the set, so may acknowledge its alarms. */
  canAck?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [acking, setAcking] = useState<AlarmEntry | null>(null);
  const [shelving, setShelving] = useState<AlarmEntry | null>(null);
  const shelve = useShelveAlarm(token);
  const unshelve = (alarm: AlarmEntry) =>
    shelve.mutate({ id: alarm.id }, { onSuccess: () => void message.success(t('live.alarms.unshelveDone')) });
  const columns: ColumnsType<AlarmEntry> = [
    {
      key: 'level',
      title: t('live.alarms.level'),
      width: 130,
      render: (_, alarm) => <AlarmLevelTag level={alarm.level} />,
    },
    {
      key: 'title',
      title: t('live.alarms.title'),
      render: (_, alarm) => <AlarmEpisodeTitle alarm={alarm} />,
    },
    { key: 'start', title: t('live.alarms.start'), width: 180, render: (_, alarm) => formatTime(alarm.start) },
    {
      key: 'end',
      title: t('live.alarms.end'),
      width: 180,
      render: (_, alarm) =>
        alarm.end === null ? (
          <Tag color="red" style={{ marginInlineEnd: 0 }}>
            {t('live.alarms.active')}
          </Tag>
        ) : (
          formatTime(alarm.end)
        ),
    },
    {
      key: 'duration',
      title: t('live.alarms.duration'),
      width: 140,
      render: (_, alarm) => <AlarmDuration start={alarm.start} end={alarm.end} />,
    },
    {
      key: 'ack',
      title: t('live.alarms.ackColumn'),
      width: 240,
      render: (_, alarm) => (
        <Space direction="vertical" size={6}>
          <AlarmAck alarm={alarm} onAck={canAck ? () => setAcking(alarm) : undefined} />
          <AlarmShelf
            alarm={alarm}
            onShelve={canAck ? () => setShelving(alarm) : undefined}
            onUnshelve={canAck ? () => unshelve(alarm) : undefined}
          />
        </Space>
      ),
    },
  ];
  return (
    <Card size="small" title={t('live.alarms.history')} data-testid="alarm-history">
      <Space size={8} wrap style={{ marginBottom: 12 }}>
        {range}
        <Select
          value={filter.level}
          style={{ minWidth: 150 }}
          aria-label={t('live.alarms.level')}
          options={[
            { value: 'all', label: t('live.alarms.allLevels') },
            ...ALARM_LEVELS.map((level) => ({ value: level, label: t(`live.levels.${level}`) })),
          ]}
          onChange={(level) => onFilter({ ...filter, level, page: 1 })}
          data-testid="level-filter"
        />
        <Select
          value={filter.state}
          style={{ minWidth: 150 }}
          aria-label={t('live.alarms.state')}
          options={ALARM_STATES.map((state) => ({ value: state, label: t(`live.alarms.states.${state}`) }))}
          onChange={(state) => onFilter({ ...filter, state, page: 1 })}
          data-testid="state-filter"
        />
      </Space>
      {error ? (
        <ErrorState error={error} onRetry={onRetry} />
      ) : (
        <Table<AlarmEntry>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={data?.list ?? []}
          loading={loading}
          scroll={{ x: 960 }}
          pagination={{
            current: filter.page,
            pageSize: filter.size,
            total: data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showTotal: (total) => t('live.alarms.total', { count: total }),
            onChange: (page, size) =>
              onFilter({ ...filter, page: size === filter.size ? page : 1, size: size as AlarmFilter['size'] }),
          }}
          locale={{ emptyText: t('live.alarms.noHistory') }}
        />
      )}
      <AckDialog alarm={acking} token={token} onClose={() => setAcking(null)} />
      <ShelveDialog alarm={shelving} token={token} onClose={() => setShelving(null)} />
    </Card>
  );
}
