// Presence: whether a module is there. Its hello marks it online and records what it is (model, firmware,
// SIM); its events update its telemetry; 'offline' on its state topic (its last will, or its goodbye) and
// three missed report periods take its sets offline (status-alarms.ts).
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
}

export function createPresence({ db, sets, statusAlarms, bus, log, expectedPeriodMs, onHello }: PresenceOptions) {
  const lastSeen = new Map<string, number>();
  let watchdog: NodeJS.Timeout | undefined;

  /** Modules whose going offline could not be written (the database away): tried again every second. */
  const offlinePending = new Map<string, string>();

  const offline = (modemKey: string, reason: string) => {
    const retry = offlinePending.has(modemKey);
    offlinePending.delete(modemKey);
    void statusAlarms.setOffline(modemKey, reason).catch((err: unknown) => {
      if (!retry) log.error({ err, module: modemKey }, 'offline update failed; trying again every second');
      // unless the module came back meanwhile, its sets must not stay shown online
      if (!lastSeen.has(modemKey)) offlinePending.set(modemKey, reason);
    });
  };

  return {
    /** Any message from the module. */
    seen(modemKey: string) {
      lastSeen.set(modemKey, Date.now());
      offlinePending.delete(modemKey);
    },

    /** 'offline' on the state topic: the module's last will, or its own goodbye when it closes cleanly. */
    gone(modemKey: string) {
      lastSeen.delete(modemKey);
      offline(modemKey, 'moduleOffline');
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
      lastSeen.delete(modemKey);
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
          for (const r of rows) if (!lastSeen.has(r.modem_key)) lastSeen.set(r.modem_key, now);
        })
        .catch((err: unknown) => log.warn({ err }, 'could not read modules online at start'));

      // Three missed report periods: the module's sets are offline even without a last will.
      watchdog = setInterval(() => {
        const now = Date.now();
        for (const [modemKey, seen] of lastSeen) {
          if (now - seen > 3 * expectedPeriodMs(modemKey) + 1000) {
            lastSeen.delete(modemKey);
            offline(modemKey, 'noData');
          }
        }
        for (const [modemKey, reason] of offlinePending) offline(modemKey, reason);
      }, 1000);
      watchdog.unref();
    },

    stop() {
      clearInterval(watchdog);
    },
  };
}
