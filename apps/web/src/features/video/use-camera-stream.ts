// The viewing lease of one camera: taken when the player shows, renewed every few seconds while it does, and
// given back when it goes (by beacon when the page itself closes). A lease the server no longer knows (the
// camera was changed, the server restarted) is taken again once; a camera that cannot be reached, a server
// without ffmpeg, or lost rights end in a state the player explains.
import { useCallback, useEffect, useRef, useState } from 'react';
import { API_BASE, ResultCode } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { leaveLease, renewLease, watchCamera } from './api.ts';

export type StreamProblem = 'unreachable' | 'timeout' | 'unavailable' | 'gone' | 'denied' | 'network';

export type StreamView =
  { kind: 'starting' } | { kind: 'playing'; playlist: string } | { kind: 'failed'; problem: StreamProblem };

function problemOf(error: unknown): StreamProblem {
  if (!(error instanceof ApiError)) return 'network';
  switch (error.code) {
    case ResultCode.unavailable:
      return 'unavailable';
    case ResultCode.deviceFailed:
      return 'unreachable';
    case ResultCode.deviceTimeout:
      return 'timeout';
    case ResultCode.forbidden:
      return 'denied';
    case ResultCode.notFound:
      return 'gone';
    default:
      return 'unreachable';
  }
}

const STARTING: StreamView = { kind: 'starting' };

export function useCameraStream(token: string, cameraId: number | null) {
  /** Bumped to take a new lease (retry, or a lease the server forgot). */
  const [attempt, setAttempt] = useState(0);
  // What a lease attempt found, kept with the attempt it belongs to: a new attempt starts out "starting".
  const current = `${token}|${cameraId}|${attempt}`;
  const [found, setFound] = useState<{ key: string; view: StreamView }>({ key: '', view: STARTING });
  const view = found.key === current ? found.view : STARTING;
  const check = useRef<() => void>(() => undefined);
  const retaken = useRef(0);

  useEffect(() => {
    if (!token || cameraId === null) return;
    const abort = new AbortController();
    let lease: string | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    const key = `${token}|${cameraId}|${attempt}`;
    const setView = (next: StreamView) => setFound({ key, view: next });

    const renew = async () => {
      if (!lease || stopped) return;
      try {
        const state = await renewLease(lease);
        if (stopped) return;
        retaken.current = 0;
        if (state.state === 'failed') {
          setView({ kind: 'failed', problem: state.problem === 'timeout' ? 'timeout' : 'unreachable' });
          clearInterval(timer);
        }
      } catch (error) {
        if (stopped) return;
        if (error instanceof ApiError && error.code === ResultCode.notFound && retaken.current < 1) {
          // the lease has ended on the server: take a new one once
          retaken.current += 1;
          lease = null;
          setAttempt((n) => n + 1);
          return;
        }
        if (error instanceof ApiError) {
          clearInterval(timer);
          setView({ kind: 'failed', problem: problemOf(error) });
        }
        // a renewal lost on the way is made up by the next one
      }
    };
    check.current = () => void renew();

    const giveBack = () => {
      if (lease && navigator.sendBeacon)
        navigator.sendBeacon(`${API_BASE}/video/live/${encodeURIComponent(lease)}/leave`);
      lease = null;
    };
    window.addEventListener('pagehide', giveBack);

    void (async () => {
      try {
        const watched = await watchCamera(token, cameraId, abort.signal);
        if (stopped) {
          void leaveLease(watched.lease).catch(() => undefined);
          return;
        }
        lease = watched.lease;
        setView({ kind: 'playing', playlist: watched.playlist });
        timer = setInterval(() => void renew(), watched.renewSeconds * 1000);
      } catch (error) {
        if (!stopped) setView({ kind: 'failed', problem: problemOf(error) });
      }
    })();

    return () => {
      stopped = true;
      abort.abort();
      clearInterval(timer);
      window.removeEventListener('pagehide', giveBack);
      check.current = () => undefined;
      if (lease) void leaveLease(lease).catch(() => undefined);
    };
  }, [token, cameraId, attempt]);

  return {
    view,
    /** Take a new lease (after a failure). */
    retry: useCallback(() => {
      retaken.current = 0;
      setAttempt((n) => n + 1);
    }, []),
    /** Ask the server now how the stream is (the player lost it). */
    check: useCallback(() => check.current(), []),
  };
}
