// An alarm's level as a coloured tag with its word.
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const LEVEL_COLORS: Record<string, string> = { warning: 'orange', shutdown: 'red', trip: 'magenta' };

export function AlarmLevelTag({ level }: { level: string }) {
  const { t } = useTranslation();
  const known = level in LEVEL_COLORS;
  return (
    <Tag color={known ? LEVEL_COLORS[level] : 'default'} style={{ marginInlineEnd: 0 }} data-level={level}>
      {t(`live.levels.${known ? level : 'unknown'}`)}
    </Tag>
  );
}
