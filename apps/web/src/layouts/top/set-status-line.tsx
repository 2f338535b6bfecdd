// Set name and status line of the top bar: status in colour and word, module, alarm count.
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { useSetInfo } from './use-set-info.ts';

const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'orange', 2: 'blue', 3: 'green' };

export function SetStatusLine({ token, info }: { token: string; info: ReturnType<typeof useSetInfo> }) {
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
    status = (
      <Space size={8} wrap>
        <Tag color={STATUS_COLORS[data.status] ?? 'default'} style={{ marginInlineEnd: 0 }}>
          {t(`top.status.values.${data.status in STATUS_COLORS ? data.status : 'unknown'}`)}
        </Tag>
        {data.modulename ? <Typography.Text type="secondary">{data.modulename}</Typography.Text> : null}
        <Typography.Text type={data.alarmnum > 0 ? 'danger' : 'secondary'}>
          {t('top.alarmCount', { count: data.alarmnum })}
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
