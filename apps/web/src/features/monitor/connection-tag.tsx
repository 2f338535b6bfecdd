// Whether live values arrive: "live" while the realtime connection is open and the set reports, "set offline"
// while the connection is open but the server has the set offline (no data from it), "offline" while the
// connection is lost (and being re-established where the page retries, spec 4), with the reading time of the
// values shown.
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConnectionState } from '../../realtime/index.ts';
import { formatTime } from './format.ts';

export function ConnectionTag({
  connection,
  ts,
  retrying = true,
  setOffline = false,
  timeZone,
}: {
  connection: ConnectionState;
  ts?: number | null;
  /** The page re-establishes a lost connection (all but the maintenance tab). */
  retrying?: boolean;
  /** The server's status for the set is offline: what arrives is not current. */
  setOffline?: boolean;
  /** The set's time zone: the reading time is given there, the zone named (as in the offline notice). */
  timeZone?: string | null;
}) {
  const { t } = useTranslation();
  const state =
    connection === 'open'
      ? setOffline
        ? 'setOffline'
        : 'live'
      : connection === 'connecting' || connection === 'idle'
        ? 'connecting'
        : retrying
          ? 'offline'
          : 'lost';
  const color =
    state === 'live' ? 'green' : state === 'offline' || state === 'lost' || state === 'setOffline' ? 'red' : 'default';
  return (
    <Space size={8} wrap>
      <Tag color={color} style={{ marginInlineEnd: 0 }} data-testid="live-connection" data-state={state}>
        {t(`live.connection.${state}`)}
      </Tag>
      {ts !== undefined ? (
        <Typography.Text type="secondary" data-testid="live-updated">
          {ts ? t('live.updatedAt', { time: formatTime(ts, timeZone) }) : t('live.noReadings')}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
