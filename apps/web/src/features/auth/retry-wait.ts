// After a call answered "too many attempts" (429 with retryAfter), the form waits: its button counts the
// seconds down and stays disabled until they have passed.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResultCode } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';

export function useRetryWait() {
  const { t } = useTranslation();
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const remaining = Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (remaining <= 0) return;
    // counted from the deadline, not by ticks: a background tab's timers are slowed down
    const timer = window.setTimeout(() => setNow(Date.now()), 500);
    return () => window.clearTimeout(timer);
  }, [remaining, now]);

  /** Starts the wait when `error` is a 429 that says how long. */
  const waitAfter = useCallback((error: unknown) => {
    if (error instanceof ApiError && error.code === ResultCode.tooMany && error.retryAfter) {
      const start = Date.now();
      setNow(start);
      setUntil(start + error.retryAfter * 1000);
    }
  }, []);

  /** What the button says while waiting (undefined when it may be used). */
  const label =
    remaining <= 0
      ? undefined
      : remaining >= 120
        ? t('auth.retry.minutes', { minutes: Math.ceil(remaining / 60) })
        : t('auth.retry.seconds', { seconds: remaining });

  return { waiting: remaining > 0, label, waitAfter };
}
