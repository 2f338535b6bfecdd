// The set's active alarms as the realtime channel reports them: level, title, since when and for how long.
// While the set is offline its alarm state is unknown: the card says so, with the alarms last reported.
import type { ReactNode } from 'react';
import { Card, List, Skeleton, Space, Typography } from 'antd';
import { CheckCircleOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { LiveAlarm } from '../../realtime/index.ts';
import { AlarmLevelTag } from './alarm-level-tag.tsx';
import { AlarmDuration } from './alarm-duration.tsx';
import { formatTime } from './format.ts';

const LEVEL_RANK: Record<string, number> = { shutdown: 0, trip: 1, warning: 2 };

export function sortAlarms(alarms: readonly LiveAlarm[]): LiveAlarm[] {
  return [...alarms].sort((a, b) => (LEVEL_RANK[a.level] ?? 3) - (LEVEL_RANK[b.level] ?? 3) || b.start - a.start);
}

export function CurrentAlarms({
  alarms,
  title,
  extra,
  unknown = false,
  timeZone,
}: {
  alarms: LiveAlarm[] | null;
  /** The set is offline: nothing says which alarms are active now. */
  unknown?: boolean;
  title?: string;
  extra?: ReactNode;
  /** The set's time zone: an alarm's start is given there, the zone named. */
  timeZone?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={
        <Space size={8}>
          {title ?? t('live.alarms.current')}
          {alarms && alarms.length > 0 ? (
            <Typography.Text type="danger" data-testid="current-alarm-count">
              ({alarms.length})
            </Typography.Text>
          ) : null}
        </Space>
      }
      extra={extra}
      data-testid="current-alarms"
    >
      {unknown ? (
        <Space size={8} align="start" data-testid="alarms-unknown">
          <QuestionCircleOutlined style={{ color: '#8c8c8c', marginTop: 4 }} />
          <Typography.Text type="secondary">
            {alarms && alarms.length > 0 ? t('live.alarms.unknownLast') : t('live.alarms.unknown')}
          </Typography.Text>
        </Space>
      ) : null}
      {unknown && !alarms?.length ? null : alarms === null ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : alarms.length === 0 ? (
        <Space size={8} data-testid="no-alarms">
          <CheckCircleOutlined style={{ color: '#389e0d' }} />
          <Typography.Text>{t('live.alarms.none')}</Typography.Text>
        </Space>
      ) : (
        <List
          size="small"
          dataSource={sortAlarms(alarms)}
          rowKey={(alarm) => alarm.id}
          renderItem={(alarm) => (
            <List.Item style={{ paddingInline: 0 }} data-testid="current-alarm">
              <Space size={8} wrap style={{ width: '100%', justifyContent: 'space-between' }}>
                <Space size={8}>
                  <AlarmLevelTag level={alarm.level} />
                  <Typography.Text strong>{alarm.title}</Typography.Text>
                </Space>
                <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {t('live.alarms.since', { time: formatTime(alarm.start, timeZone) })} ·{' '}
                  <AlarmDuration start={alarm.start} />
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
