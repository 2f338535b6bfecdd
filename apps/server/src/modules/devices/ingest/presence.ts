// Presence: whether a module is there. Its hello marks it online and records what it is (model, firmware,
// SIM); its events update its telemetry; 'offline' on its state topic (its last will, or its goodbye) and
// three missed report periods take its sets offline (status-alarms.ts).
//
// Silence is judged from when the module was last heard (the time its message was received), never from when
// the watchdog happened to run: a module is overdue once three report periods (the longer of the period it had
// then and the one it has now) and a second of grace have passed since. A watchdog that finds a module overdue
// does not decide at once: it lets the messages already received in (one turn of the event loop, then the
// ingestion's own order, after everything queued before it), and takes the module offline only if nothing was
// heard from it meanwhile. The offline record is stamped with the deadline, not the moment the decision ran.
// A module whose message waits for room in the ingestion queue is not silent: the wait is the server's.
import { modemEvent, modemHello } from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/database.ts';
import type { RealtimeBus } from '../bus.ts';
import type { Sets } from './sets.ts';
import type { StatusAlarms } from './status-alarms.ts';
import { recordSimUsage } from '../../iotcard/usage.ts';

interface PresenceOptions {
  db: Db;
  sets: Sets;
  statusAlarms: StatusAlarms;
  bus: RealtimeBus;
  log: FastifyBaseLogger;
  expectedPeriodMs: (modemKey: string) => number;
  onHello: (modemKey: string) => void;
  /** Runs `work` in the ingestion's order: between batches, after every message queued before the call. */
  ordered: (work: () => Promise<void>) => Promise<void>;
}

/** Report periods a module may miss before its sets are offline, and the grace on top of them. */
export const MISSED_PERIODS = 3;
export const OFFLINE_GRACE_MS = 1000;

/** When a module was last heard from (its message received) and the report period it had then. */
interface Heard {
  at: number;
  periodMs: number;
}

export function createPresence({
  db,
  sets,
  statusAlarms,
  bus,
  log,
  expectedPeriodMs,
  onHello,
  ordered,
}: PresenceOptions) {
  const heard = new Map<string, Heard>();
  /** Modules whose message waits for room in the ingestion queue, by how many of their messages wait. */
  const held = new Map<string, number>();
  /** Modules being decided on, so that one watchdog round does not queue a second decision. */
  const deciding = new Set<string>();
  let watchdog: NodeJS.Timeout | undefined;

  /** Modules whose going offline could not be written (the database away): tried again every second. */
  const offlinePending = new Map<string, { reason: string; at: number }>();

  const deadlineOf = (modemKey: string, h: Heard) =>
    h.at + MISSED_PERIODS * Math.max(h.periodMs, expectedPeriodMs(modemKey)) + OFFLINE_GRACE_MS;

  const offline = (modemKey: string, reason: string, at: number) => {
    const retry = offlinePending.has(modemKey);
    offlinePending.delete(modemKey);
    return statusAlarms.setOffline(modemKey, reason, at).catch((err: unknown) => {
      if (!retry) log.error({ err, module: modemKey }, 'offline update failed; trying again every second');
      // unless the module came back meanwhile, its sets must not stay shown online
      if (!heard.has(modemKey)) offlinePending.set(modemKey, { reason, at });
    });
  };

  /**
   * The module seemed silent past its deadline: once the messages already received are in (one turn of the
   * event loop, then the ingestion's order), it goes offline unless it was heard from meanwhile.
   */
  async function decide(modemKey: string, was: Heard | undefined, reason: string, at: number) {
    deciding.add(modemKey);
    try {
      // a timer that ran late runs before the reading of what arrived while it waited: let that in first
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      await new Promise<void>((resolve) => setImmediate(resolve));
      await ordered(async () => {
        const now = heard.get(modemKey);
        if (now !== was || held.has(modemKey)) return;
        if (now && deadlineOf(modemKey, now) >= Date.now()) return;
        heard.delete(modemKey);
        await offline(modemKey, reason, now ? deadlineOf(modemKey, now) : at);
      });
    } finally {
      deciding.delete(modemKey);
    }
  }

  /** Any message from the module, at the moment it was received. */
  function seen(modemKey: string, at = Date.now()) {
    heard.set(modemKey, { at, periodMs: expectedPeriodMs(modemKey) });
    offlinePending.delete(modemKey);
  }

  return {
    seen,

    /**
     * The module's message waits for room in the queue until `released` settles: meanwhile it is not silent,
     * and it counts as heard when its wait ends.
     */
    hold(modemKey: string, released: Promise<void>) {
      held.set(modemKey, (held.get(modemKey) ?? 0) + 1);
      const end = () => {
        const left = (held.get(modemKey) ?? 1) - 1;
        if (left > 0) held.set(modemKey, left);
        else held.delete(modemKey);
        if (heard.has(modemKey)) seen(modemKey);
      };
      released.then(end, end);
    },

    /** 'offline' on the state topic: the module's last will, or its own goodbye when it closes cleanly. */
    gone(modemKey: string) {
      heard.delete(modemKey);
      void decide(modemKey, undefined, 'moduleOffline', Date.now()).catch((err: unknown) =>
        log.error({ err, module: modemKey }, 'offline not decided'),
      );
    },

    /** Records what the module is; returns the module and its hello for the stages that read more of it. */
    async hello(modemKey: string, payload: Buffer) {
      const hello = modemHello.parse(JSON.parse(payload.toString('utf8')));
      const modem = await sets.modemByKey(modemKey);
      if (!modem) return;
      await db
        .updateTable('modem')
        .set({
          model: hello.model,
          firmware: hello.firmware,
          imei: hello.imei,
          iccid: hello.iccid,
          imsi: hello.imsi ?? '',
          online: 1,
          last_seen_at: Date.now(),
        })
        .where('id', '=', modem.id)
        .execute();
      // the firmware each controller says it runs
      for (const c of hello.controllers)
        if (c.firmware)
          await db
            .updateTable('genset')
            .set({ controller_firmware: c.firmware })
            .where('modem_id', '=', modem.id)
            .where('port', '=', c.port)
            .where('address', '=', c.address)
            .where('deleted_at', 'is', null)
            .execute();
      sets.online.add(modem.id);
      bus.publish('modem', { modemId: modem.id, online: true });
      onHello(modemKey);
      return { modem, hello };
    },

    /** Stores the module's telemetry; returns the module and its event for the stages that read more of it. */
    async event(modemKey: string, payload: Buffer) {
      const parsed = modemEvent.safeParse(JSON.parse(payload.toString('utf8')));
      if (!parsed.success) throw parsed.error;
      const modem = await sets.modemByKey(modemKey);
      if (!modem) return undefined;
      const row = await db.selectFrom('modem').select('telemetry').where('id', '=', modem.id).executeTakeFirst();
      const telemetry = { ...(JSON.parse(row?.telemetry ?? '{}') as object), ...parsed.data };
      await db
        .updateTable('modem')
        .set({ telemetry: JSON.stringify(telemetry), last_seen_at: Date.now() })
        .where('id', '=', modem.id)
        .execute();
      await recordSimUsage(db, modem.id, parsed.data);
      return { modem, event: parsed.data };
    },

    /** Forgets the module (handed to another instance, which watches it now). */
    forget(modemKey: string) {
      heard.delete(modemKey);
    },

    start() {
      // Modules that were online when the server last stopped count as just seen: if they stay silent, the
      // watchdog below marks them offline after three periods, as if the server had never been away.
      void db
        .selectFrom('modem')
        .select('modem_key')
        .where('online', '=', 1)
        .execute()
        .then((rows) => {
          const now = Date.now();
          for (const r of rows) if (!heard.has(r.modem_key)) seen(r.modem_key, now);
        })
        .catch((err: unknown) => log.warn({ err }, 'could not read modules online at start'));

      // Three missed report periods: the module's sets are offline even without a last will.
      watchdog = setInterval(() => {
        const now = Date.now();
        for (const [modemKey, h] of heard) {
          if (deciding.has(modemKey) || held.has(modemKey)) continue;
          const deadline = deadlineOf(modemKey, h);
          if (now > deadline)
            void decide(modemKey, h, 'noData', deadline).catch((err: unknown) =>
              log.error({ err, module: modemKey }, 'offline not decided'),
            );
        }
        for (const [modemKey, { reason, at }] of offlinePending) void offline(modemKey, reason, at);
      }, 1000);
      watchdog.unref();
    },

    stop() {
      clearInterval(watchdog);
    },
  };
}
