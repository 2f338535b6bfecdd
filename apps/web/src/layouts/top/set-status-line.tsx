// Set name and status line of the top bar: status in colour and word, module, alarm count. Live pushes
// update status and alarm count between the 10 s refreshes; while the realtime connection is lost the
// status reads "offline" (spec 4).
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { useSetInfo } from './use-set-info.ts';

export interface LiveStatus {
  status: number | null;
  alarmnum: number | null;
  /** The realtime connection is lost and being re-established. */
  offline: boolean;
}

const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'orange', 2: 'blue', 3: 'green' };

export function SetStatusLine({
  token,
  info,
  live,
}: {
  token: string;
  info: ReturnType<typeof useSetInfo>;
  live?: LiveStatus;
}) {
  const { t } = useTranslation();
  const { data, isPending, isError, error } = info;
  let name = t('top.noSet');
  let status = <Typography.Text type="secondary">{t('top.status.none')}</Typography.Text>;
  if (token && isPending) {
    name = t('common.states.loading');
    status = <Typography.Text type="secondary">{t('common.states.loading')}</Typography.Text>;
  } else if (token && isError) {
    name = t('top.setName', { token });
    status = <Typography.Text type="danger">{error.message}</Typography.Text>;
  } else if (token && data) {
    name = data.gsname || t('top.setName', { token });
    const code = live?.offline ? 0 : (live?.status ?? data.status);
    const alarms = live?.alarmnum ?? data.alarmnum;
    status = (
      <Space size={8} wrap>
        <Tag
          color={STATUS_COLORS[code] ?? 'default'}
          style={{ marginInlineEnd: 0 }}
          data-testid="set-status-tag"
          data-status={code}
        >
          {t(`top.status.values.${code in STATUS_COLORS ? code : 'unknown'}`)}
        </Tag>
        {data.modulename ? <Typography.Text type="secondary">{data.modulename}</Typography.Text> : null}
        <Typography.Text type={alarms > 0 ? 'danger' : 'secondary'} data-testid="set-alarm-count">
          {t('top.alarmCount', { count: alarms })}
        </Typography.Text>
      </Space>
    );
  }
  return (
    <div style={{ flex: 1, minWidth: 160 }}>
      <Typography.Title level={1} style={{ fontSize: 18, margin: 0 }} ellipsis data-testid="set-name">
        {name}
      </Typography.Title>
      <div data-testid="set-status">{status}</div>
    </div>
  );
}
