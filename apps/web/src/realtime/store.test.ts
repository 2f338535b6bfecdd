import { beforeEach, describe, expect, it, vi } from 'vitest';
import { socketUrl } from './client.ts';
import { parsePush } from './messages.ts';
import {
  applyPush,
  flushPushes,
  keepOnly,
  PUSH_BATCH_MS,
  queuePush,
  setConnectionState,
  useRealtimeStore,
} from './store.ts';

const push = (message: object) => {
  const parsed = parsePush(JSON.stringify(message));
  if (!parsed) throw new Error('not a push');
  applyPush(parsed);
};

beforeEach(() => useRealtimeStore.setState({ connection: 'idle', sets: {}, serverDown: [] }));

describe('realtime store', () => {
  it('keeps the latest monitor and alarm pushes of each set side by side', () => {
    push({ method: 'monitor', token: 'A', data: { status: 3, alarmnum: 0, ts: 10, values: { gen_kw: 12.5 } } });
    push({
      method: 'alarm',
      token: 'A',
      alarmnum: 1,
      list: [{ id: 1, code: 'battery_low', level: 'warning', title: 'Battery under voltage', start: 9, end: null }],
    });
    const a = useRealtimeStore.getState().sets.A!;
    expect(a).toMatchObject({ status: 3, alarmnum: 1, ts: 10, values: { gen_kw: 12.5 }, error: null });
    expect(a.alarms?.map((x) => x.title)).toEqual(['Battery under voltage']);

    push({ method: 'monitor', token: 'A', data: { status: 2, alarmnum: 1, ts: 11, values: { gen_kw: 'x' } } });
    expect(useRealtimeStore.getState().sets.A).toMatchObject({ status: 2, values: { gen_kw: null }, alarms: a.alarms });
  });

  it('notes a refusal for the sets it names and forgets sets nobody watches', () => {
    push({ method: 'error', code: 404, tokens: ['B'], msg: 'Not found' });
    push({ method: 'monitor', token: 'A', data: { status: 0, alarmnum: 0, ts: 0, values: {} } });
    expect(useRealtimeStore.getState().sets.B?.error).toBe('Not found');
    keepOnly(new Set(['A']));
    expect(Object.keys(useRealtimeStore.getState().sets)).toEqual(['A']);
  });

  it('keeps what the server cannot reach while the connection is open, and forgets it with the connection', () => {
    setConnectionState('open');
    push({ method: 'health', down: ['database', 42] });
    expect(useRealtimeStore.getState().serverDown).toEqual(['database']);
    push({ method: 'health', down: [] });
    expect(useRealtimeStore.getState().serverDown).toEqual([]);
    push({ method: 'health', down: ['broker'] });
    setConnectionState('offline');
    expect(useRealtimeStore.getState().serverDown).toEqual([]);
  });

  it('applies a burst of pushes from the connection as one change, in their order', () => {
    vi.useFakeTimers();
    try {
      const changes: number[] = [];
      const stop = useRealtimeStore.subscribe((s) => changes.push(Object.keys(s.sets).length));
      const monitor = (token: string, status: number, ts: number) =>
        queuePush(
          parsePush(JSON.stringify({ method: 'monitor', token, data: { status, alarmnum: 0, ts, values: {} } }))!,
        );
      for (let i = 0; i < 20; i++) monitor(`S${i}`, 3, 1);
      monitor('S0', 1, 2);
      expect(changes).toEqual([]);
      vi.advanceTimersByTime(PUSH_BATCH_MS);
      // twenty sets watched, twenty states pushed: the pages watching them render once
      expect(changes).toEqual([20]);
      expect(useRealtimeStore.getState().sets.S0).toMatchObject({ status: 1, ts: 2 });
      expect(useRealtimeStore.getState().sets.S19).toMatchObject({ status: 3, ts: 1 });
      // a set no longer watched is forgotten after what was pushed before, not brought back by it
      monitor('S5', 2, 3);
      keepOnly(new Set(['S0']));
      expect(Object.keys(useRealtimeStore.getState().sets)).toEqual(['S0']);
      flushPushes();
      expect(Object.keys(useRealtimeStore.getState().sets)).toEqual(['S0']);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores frames it does not understand', () => {
    expect(parsePush('{"method":"monitor","token":"A"}')).toBeNull();
    expect(parsePush('{"method":"other","token":"A"}')).toBeNull();
    expect(parsePush('[1]')).toBeNull();
  });
});

describe('realtime address', () => {
  const at = (href: string) => new URL(href) as unknown as Location;
  it('is /ws on this host unless the company names one', () => {
    expect(socketUrl('', at('http://console.example:8080/top/realtime'))).toBe('ws://console.example:8080/ws');
    expect(socketUrl('', at('https://console.example/index'))).toBe('wss://console.example/ws');
    expect(socketUrl('wss://push.example/ws', at('https://console.example/'))).toBe('wss://push.example/ws');
    expect(socketUrl('/live/ws', at('https://console.example/'))).toBe('wss://console.example/live/ws');
  });
});
