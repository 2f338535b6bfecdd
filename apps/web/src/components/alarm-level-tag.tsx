// An alarm's level (warning, shutdown, trip) as a coloured tag with its word.
import { useTranslation } from 'react-i18next';
import { ToneTag, type Tone } from './tone-tag.tsx';

const ALARM_LEVEL_TONE: Record<string, Tone> = { warning: 'gold', shutdown: 'red', trip: 'magenta' };
export const ALARM_LEVEL_HEX: Record<string, string> = { warning: '#d48806', shutdown: '#cf1322', trip: '#9e1068' };

export function AlarmLevelTag({ level }: { level: string }) {
  const { t } = useTranslation();
  const known = level in ALARM_LEVEL_TONE;
  return (
    <ToneTag tone={ALARM_LEVEL_TONE[level] ?? 'grey'} data-level={level}>
      {known ? t(`gensets.levels.${level}`) : level}
    </ToneTag>
  );
}
