// The notice over the dashboard of a set the server has offline: when its last data was taken (in the set's
// time zone, named) and how long ago, counting on while the page is open; or that nothing was ever received.
import { useEffect, useState } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { storedLanguage } from '../../i18n/languages.ts';
import { formatLastData } from './last-data.ts';

export function OfflineNotice({ ts, timeZone }: { ts: number | null; timeZone?: string | null }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ts) return;
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, [ts]);
  const last = ts ? formatLastData(ts, Math.max(now, ts), { language: storedLanguage(), timeZone }) : null;
  return (
    <Alert
      type="warning"
      showIcon
      message={last ? t('live.setOfflineSince', { time: last.time, ago: last.ago }) : t('live.setNeverSeen')}
      data-testid="set-offline"
      data-ts={ts ?? undefined}
    />
  );
}
