// Whether live values arrive: "live" while the realtime connection is open, "offline" while it is lost
// (and being re-established where the page retries, spec 4), with the reading time of the values shown.
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConnectionState } from '../../realtime/index.ts';
import { formatTime } from './format.ts';

export function ConnectionTag({
  connection,
  ts,
  retrying = true,
}: {
  connection: ConnectionState;
  ts?: number | null;
  /** The page re-establishes a lost connection (all but the maintenance tab). */
  retrying?: boolean;
}) {
  const { t } = useTranslation();
  const state =
    connection === 'open'
      ? 'live'
      : connection === 'connecting' || connection === 'idle'
        ? 'connecting'
        : retrying
          ? 'offline'
          : 'lost';
  const color = state === 'live' ? 'green' : state === 'offline' || state === 'lost' ? 'red' : 'default';
  return (
    <Space size={8} wrap>
      <Tag color={color} style={{ marginInlineEnd: 0 }} data-testid="live-connection" data-state={state}>
        {t(`live.connection.${state}`)}
      </Tag>
      {ts !== undefined ? (
        <Typography.Text type="secondary" data-testid="live-updated">
          {ts ? t('live.updatedAt', { time: formatTime(ts) }) : t('live.noReadings')}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
