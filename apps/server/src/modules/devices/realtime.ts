// The realtime WebSocket (/ws): the console names the set it watches in its `wshb` heartbeat; the server
// checks the user's token and rights, then pushes `monitor` and `alarm` messages for that set only.
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import { pickLanguage, ResultCode, type Language } from '@genset/protocol';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { AuthService } from '../auth/service.ts';
import type { AccountService } from '../account/service.ts';
import type { RealtimeBus, MonitorMessage, AlarmMessage } from './bus.ts';
import type { Fleet } from './fleet.ts';
import type { Planner } from './plans.ts';

/** The console sends a heartbeat every 120 s; two missed ones end the connection. */
export const HEARTBEAT_TIMEOUT_MS = 300_000;

const heartbeat = z.object({
  method: z.literal('wshb'),
  token: z.string().max(64).default(''),
  utoken: z.string().max(100),
  language: z.string().max(20).optional(),
});

interface Watcher {
  socket: WebSocket;
  gensetId: number | null;
  token: string;
  lang: Language;
  timer: NodeJS.Timeout;
}

export interface RealtimeOptions {
  auth: AuthService;
  accounts: AccountService;
  fleet: Fleet;
  planner: Planner;
  bus: RealtimeBus;
  snapshot: (gensetId: number) => Promise<{ monitor: MonitorMessage; alarm: AlarmMessage } | null>;
}

export async function realtimeRoutes(app: FastifyInstance, opts: RealtimeOptions) {
  const bySet = new Map<number, Set<Watcher>>();

  const send = (w: Watcher, message: unknown) => {
    if (w.socket.readyState === w.socket.OPEN) w.socket.send(JSON.stringify(message));
  };
  const monitorPush = (w: Watcher, m: MonitorMessage) =>
    send(w, {
      method: 'monitor',
      token: m.token,
      data: { status: m.status, alarmnum: m.alarmnum, ts: m.ts, values: m.values },
    });
  const alarmPush = (w: Watcher, m: AlarmMessage) =>
    send(w, {
      method: 'alarm',
      token: m.token,
      alarmnum: m.alarmnum,
      list: m.list.map((a) => ({ ...a, title: a.title[w.lang] ?? a.title['en-US'] ?? a.code })),
    });

  const unsubscribeMonitor = opts.bus.subscribe('monitor', (m) => {
    for (const w of bySet.get(m.gensetId) ?? []) monitorPush(w, m);
  });
  const unsubscribeAlarm = opts.bus.subscribe('alarm', (m) => {
    for (const w of bySet.get(m.gensetId) ?? []) alarmPush(w, m);
  });
  app.addHook('onClose', async () => {
    unsubscribeMonitor();
    unsubscribeAlarm();
  });

  async function stopWatching(w: Watcher) {
    if (w.gensetId === null) return;
    const set = bySet.get(w.gensetId);
    set?.delete(w);
    if (set && set.size === 0) bySet.delete(w.gensetId);
    const id = w.gensetId;
    w.gensetId = null;
    w.token = '';
    await opts.planner.unwatch(id);
  }

  app.get('/ws', { websocket: true }, (socket) => {
    const w: Watcher = {
      socket,
      gensetId: null,
      token: '',
      lang: 'en-US',
      timer: setTimeout(() => socket.close(4000, 'heartbeat timeout'), HEARTBEAT_TIMEOUT_MS),
    };

    socket.on('message', (raw) => {
      void (async () => {
        let parsed;
        try {
          parsed = heartbeat.safeParse(JSON.parse(String(raw)));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) {
          send(w, { method: 'error', code: ResultCode.invalid, msg: translate(w.lang, 'errors.invalidBody') });
          return;
        }
        const hb = parsed.data;
        w.lang = pickLanguage(hb.language);
        clearTimeout(w.timer);
        w.timer = setTimeout(() => socket.close(4000, 'heartbeat timeout'), HEARTBEAT_TIMEOUT_MS);
        let session;
        try {
          session = await opts.auth.authenticate(hb.utoken);
        } catch (err) {
          const code = err instanceof AppError ? err.code : ResultCode.notSignedIn;
          const msg = translate(w.lang, err instanceof AppError ? err.key : 'errors.notSignedIn');
          send(w, { method: 'error', code, msg });
          socket.close(4001, msg.slice(0, 100));
          return;
        }
        if (hb.token === w.token && w.gensetId !== null) return;
        await stopWatching(w);
        if (!hb.token) return;
        const set = await opts.fleet.byToken(hb.token);
        const grant = await opts.accounts.grant(session.user);
        const rights = set ? await opts.fleet.rightsOn(session.user, grant, set) : null;
        if (!set || !rights) {
          send(w, {
            method: 'error',
            code: ResultCode.notFound,
            token: hb.token,
            msg: translate(w.lang, 'errors.notFound'),
          });
          return;
        }
        w.gensetId = set.id;
        w.token = set.token;
        let watchers = bySet.get(set.id);
        if (!watchers) bySet.set(set.id, (watchers = new Set()));
        watchers.add(w);
        await opts.planner.watch(set.id);
        const snap = await opts.snapshot(set.id);
        if (snap && w.gensetId === set.id) {
          monitorPush(w, snap.monitor);
          alarmPush(w, snap.alarm);
        }
      })().catch((err: unknown) => app.log.error({ err }, 'realtime message failed'));
    });

    socket.on('close', () => {
      clearTimeout(w.timer);
      void stopWatching(w).catch((err: unknown) => app.log.warn({ err }, 'unwatch failed'));
    });
  });
}
