// An alarm's level (warning, shutdown, trip) as a coloured tag with its word.
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export const ALARM_LEVEL_COLOR: Record<string, string> = { warning: 'gold', shutdown: 'red', trip: 'magenta' };
export const ALARM_LEVEL_HEX: Record<string, string> = { warning: '#d48806', shutdown: '#cf1322', trip: '#9e1068' };

export function AlarmLevelTag({ level }: { level: string }) {
  const { t } = useTranslation();
  const known = level in ALARM_LEVEL_COLOR;
  return (
    <Tag color={ALARM_LEVEL_COLOR[level] ?? 'default'} style={{ marginInlineEnd: 0 }} data-level={level}>
      {known ? t(`gensets.levels.${level}`) : level}
    </Tag>
  );
}
