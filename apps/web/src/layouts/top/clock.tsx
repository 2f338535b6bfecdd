// A clock updated every second, shown only in zh-CN, zh-TW and en-US (spec 2).
import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { storedLanguage } from '../../i18n/languages.ts';

const CLOCK_LANGUAGES = new Set(['zh-CN', 'zh-TW', 'en-US']);

export function Clock() {
  const [now, setNow] = useState(() => dayjs());
  const shown = CLOCK_LANGUAGES.has(storedLanguage());
  useEffect(() => {
    if (!shown) return;
    const timer = window.setInterval(() => setNow(dayjs()), 1000);
    return () => window.clearInterval(timer);
  }, [shown]);
  if (!shown) return null;
  return (
    <time dateTime={now.toISOString()} data-testid="clock" style={{ fontVariantNumeric: 'tabular-nums' }}>
      {now.format('YYYY-MM-DD HH:mm:ss')}
    </time>
  );
}
