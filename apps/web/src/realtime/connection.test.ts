// The shared realtime connection against a real WebSocket server: heartbeat contents and timing rules,
// which pushes reach the page, retries after a close, and closing when nobody watches. Timers are stepped
// by hand, so the tests wait for events, never for time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { RealtimeConnection, type ConnectionState, type Timers } from './connection.ts';
import type { RealtimePush } from './messages.ts';

interface Timer {
  id: number;
  ms: number;
  repeat: boolean;
  run: () => void;
}

/** Timers that only fire when the test says so. */
function manualTimers() {
  const pending = new Map<number, Timer>();
  let next = 1;
  const add = (run: () => void, ms: number, repeat: boolean) => {
    const id = next++;
    pending.set(id, { id, ms, repeat, run });
    return id as unknown as ReturnType<typeof setTimeout>;
  };
  const remove = (id: ReturnType<typeof setTimeout>) => void pending.delete(id as unknown as number);
  const timers: Timers = {
    setTimeout: (run, ms) => add(run, ms, false),
    clearTimeout: remove,
    setInterval: (run, ms) => add(run, ms, true),
    clearInterval: remove,
  };
  return {
    timers,
    /** Delays of the timers now pending, one-shot ones only. */
    delays: () => [...pending.values()].filter((t) => !t.repeat).map((t) => t.ms),
    intervals: () => [...pending.values()].filter((t) => t.repeat).map((t) => t.ms),
    /** Fires the pending timer with this delay. */
    fire(ms: number, repeat = false) {
      const timer = [...pending.values()].find((t) => t.ms === ms && t.repeat === repeat);
      if (!timer) throw new Error(`no ${repeat ? 'interval' : 'timer'} of ${ms} ms`);
      if (!timer.repeat) pending.delete(timer.id);
      timer.run();
    },
  };
}

/** Resolves when `check` holds, re-checking on each event the test reports through `poke`. */
function until(check: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() - started > 5000) return reject(new Error(`gave up waiting for ${what}`));
      setTimeout(tick, 5);
    };
    tick();
  });
}

let server: WebSocketServer;
let url: string;
let sockets: ServerSocket[];
let received: { socket: number; message: Record<string, unknown> }[];

beforeEach(async () => {
  sockets = [];
  received = [];
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const address = server.address();
  url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/ws`;
  server.on('connection', (socket) => {
    const index = sockets.push(socket) - 1;
    socket.on('message', (data) =>
      received.push({ socket: index, message: JSON.parse(String(data)) as Record<string, unknown> }),
    );
  });
});

afterEach(async () => {
  for (const socket of sockets) socket.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function connect(utoken = 'user-token') {
  const clock = manualTimers();
  const states: ConnectionState[] = [];
  const pushes: RealtimePush[] = [];
  const connection = new RealtimeConnection({
    url: () => url,
    utoken: () => utoken,
    language: () => 'zh-CN',
    listener: { state: (s) => states.push(s), push: (p) => pushes.push(p) },
    timers: clock.timers,
  });
  return { connection, clock, states, pushes };
}

const heartbeats = (socket = 0) => received.filter((r) => r.socket === socket).map((r) => r.message);

describe('realtime connection', () => {
  it('sends the heartbeat at once with the set, the user token and the language, then every 120 s', async () => {
    const { connection, clock, states } = connect();
    connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats().length === 1, 'the first heartbeat');
    expect(heartbeats()[0]).toEqual({ method: 'wshb', token: 'setA', utoken: 'user-token', language: 'zh-CN' });
    expect(states).toEqual(['connecting', 'open']);
    expect(clock.intervals()).toEqual([120_000]);
    clock.fire(120_000, true);
    await until(() => heartbeats().length === 2, 'the periodic heartbeat');
    expect(heartbeats()[1]).toEqual(heartbeats()[0]);
    connection.dispose();
  });

  it('names further sets in tokens (at most 100) and tells the server whenever the watches change', async () => {
    const { connection } = connect();
    const releaseA = connection.watch({ token: 'setA', reconnect: true });
    connection.watch({ tokens: ['setA', 'setB', 'setC'], reconnect: true });
    await until(() => heartbeats().some((m) => Array.isArray(m.tokens)), 'a heartbeat with tokens');
    expect(heartbeats().at(-1)).toMatchObject({ token: 'setA', tokens: ['setB', 'setC'] });

    releaseA();
    await until(() => heartbeats().at(-1)?.token === '', 'a heartbeat without the close watch');
    expect(heartbeats().at(-1)).toMatchObject({ token: '', tokens: ['setA', 'setB', 'setC'] });

    connection.watch({ tokens: Array.from({ length: 150 }, (_, i) => `many${i}`), reconnect: true });
    await until(() => (heartbeats().at(-1)?.tokens as string[]).length === 100, 'a capped list');
    expect((heartbeats().at(-1)?.tokens as string[]).slice(0, 3)).toEqual(['setA', 'setB', 'setC']);
    connection.dispose();
  });

  it('names the group of a group page, whose members come in tokens, until that page goes', async () => {
    const { connection } = connect();
    const releaseGroup = connection.watch({ tokens: ['m1', 'm2'], group: 'groupA', reconnect: true });
    await until(() => heartbeats().length === 1, 'the first heartbeat');
    expect(heartbeats()[0]).toMatchObject({ token: '', tokens: ['m1', 'm2'], group: 'groupA' });
    releaseGroup();
    connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats().at(-1)?.token === 'setA', 'a heartbeat without the group');
    expect(heartbeats().at(-1)).not.toHaveProperty('group');
    connection.dispose();
  });

  it('hands over pushes of the watched sets only', async () => {
    const { connection, pushes } = connect();
    connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats().length === 1, 'the heartbeat');
    const data = { status: 3, alarmnum: 1, ts: 1_700_000_000_000, values: { engine_rpm: 1500, fuel_level: null } };
    sockets[0]!.send(JSON.stringify({ method: 'monitor', token: 'other', data }));
    sockets[0]!.send(JSON.stringify({ method: 'monitor', token: '', data }));
    sockets[0]!.send('not json');
    sockets[0]!.send(JSON.stringify({ method: 'monitor', token: 'setA', data }));
    sockets[0]!.send(
      JSON.stringify({
        method: 'alarm',
        token: 'setA',
        alarmnum: 1,
        list: [{ id: 7, code: 'battery_low', level: 'warning', title: '电池欠压', start: 5, end: null }],
      }),
    );
    await until(() => pushes.length === 2, 'two pushes');
    expect(pushes).toEqual([
      { method: 'monitor', token: 'setA', status: 3, alarmnum: 1, ts: 1_700_000_000_000, values: data.values },
      {
        method: 'alarm',
        token: 'setA',
        alarmnum: 1,
        list: [{ id: 7, code: 'battery_low', level: 'warning', title: '电池欠压', start: 5, end: null }],
      },
    ]);
    connection.dispose();
  });

  it('shows offline after a close, retries at once, then every 20 s until the server speaks again', async () => {
    const { connection, clock, states, pushes } = connect();
    connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats(0).length === 1, 'the first connection');

    sockets[0]!.close();
    await until(() => states.at(-1) === 'offline', 'offline');
    expect(clock.delays()).toEqual([0]);
    clock.fire(0);
    await until(() => heartbeats(1).length === 1, 'the immediate retry');
    expect(states.at(-1)).toBe('open');

    sockets[1]!.close();
    await until(() => states.at(-1) === 'offline', 'offline again');
    expect(clock.delays()).toEqual([20_000]);
    clock.fire(20_000);
    await until(() => heartbeats(2).length === 1, 'the retry after 20 s');

    // the server spoke: the next loss retries at once again
    sockets[2]!.send(JSON.stringify({ method: 'alarm', token: 'setA', alarmnum: 0, list: [] }));
    await until(() => pushes.length === 1, 'a push');
    sockets[2]!.close();
    await until(() => states.at(-1) === 'offline', 'offline a third time');
    expect(clock.delays()).toEqual([0]);
    connection.dispose();
  });

  it('stays offline without retrying when no watcher asks for retries', async () => {
    const { connection, clock, states } = connect();
    connection.watch({ token: 'setA', reconnect: false });
    await until(() => heartbeats().length === 1, 'the heartbeat');
    sockets[0]!.close();
    await until(() => states.at(-1) === 'offline', 'offline');
    expect(clock.delays()).toEqual([]);

    // a watcher that wants retries (back on the realtime tab) connects again at once
    connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats(1).length === 1, 'a new connection');
    connection.dispose();
  });

  it('gives up when the server refuses the user token', async () => {
    const { connection, clock, states } = connect('revoked');
    connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats().length === 1, 'the heartbeat');
    sockets[0]!.close(4001, 'not signed in');
    await until(() => states.at(-1) === 'offline', 'offline');
    expect(clock.delays()).toEqual([]);
    connection.dispose();
  });

  it('opens nothing without a signed-in user', () => {
    const { connection, states } = connect('');
    connection.watch({ token: 'setA', reconnect: true });
    expect(states).toEqual(['offline']);
    expect(sockets).toHaveLength(0);
    connection.dispose();
  });

  it('keeps the socket across a change of watcher and closes it a moment after the last one left', async () => {
    const { connection, clock, states } = connect();
    const release = connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats().length === 1, 'the heartbeat');
    release();
    expect(clock.delays()).toEqual([3_000]);
    const releaseB = connection.watch({ token: 'setB', reconnect: true });
    await until(() => heartbeats().length === 2, 'a heartbeat for the new set');
    expect(heartbeats()[1]).toMatchObject({ token: 'setB' });
    expect(sockets).toHaveLength(1);
    expect(clock.delays()).toEqual([]);

    releaseB();
    let closed = false;
    sockets[0]!.on('close', () => (closed = true));
    clock.fire(3_000);
    await until(() => closed, 'the socket to close');
    expect(states.at(-1)).toBe('idle');
    expect(clock.delays()).toEqual([]);
    connection.dispose();
  });

  it('counts a set as still pushed while the server was not told otherwise (a watch replaced at once)', async () => {
    const { connection, clock } = connect();
    const layout = connection.watch({ token: 'setA', reconnect: true });
    await until(() => heartbeats().length === 1, 'the heartbeat');
    expect(connection.toldTokens()).toEqual(new Set(['setA']));

    // the layout's watch changes its retry option: released, then registered again, with no heartbeat between
    layout();
    expect(connection.watchedTokens()).toEqual(new Set());
    expect(connection.toldTokens()).toEqual(new Set(['setA']));
    const again = connection.watch({ token: 'setA', reconnect: false });
    expect(heartbeats()).toHaveLength(1);

    // another set: the server is told, and setA is no longer pushed
    const other = connection.watch({ token: 'setB', reconnect: true });
    again();
    await until(() => heartbeats().at(-1)?.token === 'setB' && !heartbeats().at(-1)?.tokens, 'setB alone');
    expect(connection.toldTokens()).toEqual(new Set(['setB']));

    other();
    clock.fire(3_000);
    expect(connection.toldTokens()).toEqual(new Set());
    connection.dispose();
  });
});
