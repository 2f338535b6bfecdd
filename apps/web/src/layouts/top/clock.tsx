// A clock updated every second, shown only in zh-CN, zh-TW and en-US (spec 2): the reader's time, its zone named,
// so that it is not taken for a set's time (which names the set's zone).
import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { formatMoment, readerZone } from '../../components/format.ts';
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
      {formatMoment(now.valueOf(), { seconds: true, timeZone: readerZone() })}
    </time>
  );
}
