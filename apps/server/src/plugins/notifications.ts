// Notifications: the engine that turns events into notices and sends them (e-mail through SMTP or the
// development outbox, SMS through the message sender, the companies' webhooks), the offline watch, the
// message centre and the webhook calls.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { Config } from '../config.ts';
import type { MessageSender } from '../modules/sms/sender.ts';
import {
  createNotificationEngine,
  recordNoticeEvent,
  type EmailTransport,
  type NoticeEvent,
  type NotificationEngine,
} from '../modules/notifications/engine.ts';
import { returnShelvedAlarms, escalateAlarms, tellEndedEpisodes } from '../modules/devices/ingest/episodes.ts';
import { createNoticeService } from '../modules/notifications/service.ts';
import {
  createWebhookPoster,
  createWebhookService,
  createWebhookUrlCheck,
  type WebhookPoster,
} from '../modules/notifications/webhooks.ts';
import { createOfflineWatch } from '../modules/notifications/offline-watch.ts';
import { notificationRoutes } from '../modules/notifications/routes.ts';
import { createPushRepository } from '../modules/push/repository.ts';
import { createPushService, pushSettingsFromEnv, type PushService } from '../modules/push/service.ts';
import type { MessageService } from '../modules/messages/service.ts';
import { pushRoutes } from '../modules/push/routes.ts';

export interface NotificationsHandle {
  engine: NotificationEngine;
  /** Records an event (outside a transaction) and starts a round at once. */
  notify(event: NoticeEvent): Promise<void>;
  /** Looks for sets offline longer than their people asked, now (tests; it also runs every 30 s). */
  checkOffline(): Promise<number>;
  /** Posts to a webhook address through the address policy (the engine's way out; engines built by tests). */
  postWebhook: WebhookPoster;
  /** Web Push to people's browsers. */
  push: PushService;
}

declare module 'fastify' {
  interface FastifyInstance {
    notifications: NotificationsHandle;
  }
}

/** Notice e-mail goes through the message dispatcher, as every message does (SMTP, or the outbox without one). */
function emailTransport(sender: MessageSender): EmailTransport {
  return {
    send: (m) => sender.send({ channel: 'email', purpose: 'notice', ...m }),
  };
}

export default fp(
  async function notifications(
    app: FastifyInstance,
    opts: { config: Config; sender: MessageSender; messages?: MessageService; tickMs?: number },
  ) {
    const { config } = opts;
    const db = app.database.db;
    const bus = app.devices.bus;
    const use = { policy: app.outbound, allowPrivate: config.webhookAllowPrivate };
    const check = createWebhookUrlCheck(use);
    const postWebhook = createWebhookPoster(use);
    // Web Push to the browsers people subscribed (the address policy's own rules: modules/push/service.ts)
    const push = createPushService({
      repo: createPushRepository(db),
      policy: app.outbound,
      settings: pushSettingsFromEnv(process.env, config.smtpFrom),
    });
    const engine = createNotificationEngine({
      db,
      log: app.log,
      sender: opts.sender,
      email: emailTransport(opts.sender),
      ...(opts.messages ? { track: opts.messages.track } : {}),
      bus,
      postWebhook,
      push,
      scope: app.devices.fleet.scope,
      ...(opts.tickMs ? { tickMs: opts.tickMs } : {}),
      beforeRound: async (now) => {
        await tellEndedEpisodes(db, now);
        await returnShelvedAlarms(db, now);
        await escalateAlarms(db, now);
      },
    });
    const startedAt = Date.now();
    const offline = createOfflineWatch({ db, holder: engine.holder, startedAt, scope: app.devices.fleet.scope });
    const handle: NotificationsHandle = {
      engine,
      async notify(event) {
        await recordNoticeEvent(db, event);
        void engine.kick();
      },
      checkOffline: offline,
      postWebhook,
      push,
    };
    app.decorate('notifications', handle);
    await app.register(notificationRoutes, {
      prefix: API_BASE,
      notices: createNoticeService({ db, bus }),
      webhooks: createWebhookService({ db, check }),
    });
    await app.register(pushRoutes, { prefix: API_BASE, push });

    let offlineTimer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      engine.start();
      offlineTimer = setInterval(() => {
        offline()
          .then((n) => (n ? engine.kick() : undefined))
          .catch((err: unknown) => app.log.warn({ err }, 'offline watch failed'));
      }, 30_000);
      offlineTimer.unref();
    });
    app.addHook('preClose', async () => {
      if (offlineTimer) clearInterval(offlineTimer);
      await engine.close();
    });
  },
  { name: 'notifications', dependencies: ['devices'] },
);
