// The time on the monitor pages' header, updated every second: the reader's, its zone named.
import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { formatMoment, readerZone } from '../../components/format.ts';

export function WallClock() {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(dayjs()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <time dateTime={now.toISOString()}>{formatMoment(now.valueOf(), { seconds: true, timeZone: readerZone() })}</time>
  );
}
