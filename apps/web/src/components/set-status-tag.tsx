// A set's state as a coloured tag with its word (never colour alone), and beside it, apart, its active alarm count.
import { Space } from 'antd';
import { WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { STATUS_TONE, stateWordKey, statusKey } from './set-status.ts';
import { ToneTag } from './tone-tag.tsx';

export function SetStatusTag({ status, alarmCount = 0 }: { status: number | null | undefined; alarmCount?: number }) {
  const { t } = useTranslation();
  const key = statusKey(status);
  return (
    <Space size={4} wrap={false}>
      <ToneTag tone={STATUS_TONE[key]} data-status={key} data-state={key}>
        {t(stateWordKey(status))}
      </ToneTag>
      {alarmCount > 0 ? (
        <ToneTag tone="red" icon={<WarningFilled />} data-testid="alarm-count">
          {t('gensets.status.alarmCount', { count: alarmCount })}
        </ToneTag>
      ) : null}
    </Space>
  );
}
