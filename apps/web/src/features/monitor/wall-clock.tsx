// The time on the monitor pages' header, updated every second.
import { useEffect, useState } from 'react';
import dayjs from 'dayjs';

export function WallClock() {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(dayjs()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return <time dateTime={now.toISOString()}>{now.format('YYYY-MM-DD HH:mm:ss')}</time>;
}
