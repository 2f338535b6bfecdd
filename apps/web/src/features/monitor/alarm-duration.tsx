// How long an alarm has lasted ("2 h 5 min"); an active one counts on every minute.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { durationParts } from './format.ts';

export function AlarmDuration({ start, end = null }: { start: number; end?: number | null }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (end !== null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, [end]);
  const { d, h, m, s } = durationParts((end ?? now) - start);
  if (d > 0) return <>{t('live.duration.days', { d, h })}</>;
  if (h > 0) return <>{t('live.duration.hours', { h, m })}</>;
  if (m > 0) return <>{t('live.duration.minutes', { m })}</>;
  return <>{t('live.duration.seconds', { s })}</>;
}
