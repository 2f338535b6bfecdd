// A set's status as a coloured tag with its word (never colour alone), and its active alarm count.
import { Space, Tag } from 'antd';
import { WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { STATUS_TAG_COLOR, statusKey } from './set-status.ts';

export function SetStatusTag({ status, alarmCount = 0 }: { status: number | null | undefined; alarmCount?: number }) {
  const { t } = useTranslation();
  const key = statusKey(status);
  return (
    <Space size={4} wrap={false}>
      <Tag color={STATUS_TAG_COLOR[key]} style={{ marginInlineEnd: 0 }} data-status={key}>
        {t(`gensets.status.${key}`)}
      </Tag>
      {alarmCount > 0 ? (
        <Tag color="red" icon={<WarningFilled />} style={{ marginInlineEnd: 0 }} data-testid="alarm-count">
          {t('gensets.status.alarmCount', { count: alarmCount })}
        </Tag>
      ) : null}
    </Space>
  );
}
