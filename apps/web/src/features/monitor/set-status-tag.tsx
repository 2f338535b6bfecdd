// A set's status as a coloured tag with its word: offline, stopped, standby, running (spec 3).
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = { 0: 'default', 1: 'orange', 2: 'blue', 3: 'green' };

export function SetStatusTag({ status }: { status: number | null | undefined }) {
  const { t } = useTranslation();
  const code = status ?? 0;
  const known = code in COLORS;
  return (
    <Tag
      color={known ? COLORS[code] : 'default'}
      style={{ marginInlineEnd: 0 }}
      data-testid="status-tag"
      data-status={code}
    >
      {t(`top.status.values.${known ? code : 'unknown'}`)}
    </Tag>
  );
}
