// Set name and status line of the top bar: status in colour and word, module, alarm count. Live pushes
// update status and alarm count between the 10 s refreshes; while the realtime connection is lost the
// status reads "offline" (spec 4).
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_TONE, stateWordKey, statusKey } from '../../components/set-status.ts';
import { ToneTag } from '../../components/tone-tag.tsx';
import type { useSetInfo } from './use-set-info.ts';

export interface LiveStatus {
  status: number | null;
  alarmnum: number | null;
  /** The realtime connection is lost and being re-established. */
  offline: boolean;
}

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
        {data.runs === false ? (
          // a station's grid meter only measures: connected or not, never stopped or running
          <ToneTag tone={code === 0 ? 'grey' : 'green'} data-testid="set-status-tag" data-status={String(code)}>
            {code === 0 ? t('gensets.status.offline') : t('ems.devices.measuring')}
          </ToneTag>
        ) : (
          <ToneTag
            tone={STATUS_TONE[statusKey(code)]}
            data-testid="set-status-tag"
            data-status={String(code)}
            data-state={statusKey(code)}
          >
            {t(stateWordKey(code))}
          </ToneTag>
        )}
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
