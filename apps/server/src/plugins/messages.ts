// Messages: the delivery log, test messages and one-click unsubscribe over HTTP (the dispatcher itself is made in
// app.ts, before the services that send through it).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { MessageService } from '../modules/messages/service.ts';
import { createMessageLogRepository } from '../modules/messages/repository.ts';
import { createMessageTests } from '../modules/messages/tests.ts';
import { createUnsubscribe } from '../modules/messages/unsubscribe.ts';
import { messageRoutes } from '../modules/messages/routes.ts';
import { createDeliveryReports } from '../modules/messages/delivery-reports.ts';
import { twilioCallback } from '../modules/messages/providers.ts';

export default fp(
  async function messages(app: FastifyInstance, opts: { messages: MessageService }) {
    const db = app.database.db;
    const log = createMessageLogRepository(db);
    const push = app.notifications.push;
    const tests = createMessageTests({
      db,
      messages: opts.messages,
      log,
      // a test push to each of the caller's own browsers, each logged
      async pushTest(userId, companyId, title, body) {
        const { list } = await push.devices(userId);
        await Promise.all(
          list.map((device) =>
            opts.messages
              .track({ channel: 'push', to: String(device.id), purpose: 'test', companyId, userId }, 'webpush', () =>
                push.send(
                  device.id,
                  { title, body, url: '/index', tag: 'test' },
                  { urgency: 'normal', ttlSeconds: 3600 },
                ),
              )
              .catch(() => undefined),
          ),
        );
        return list.length;
      },
    });
    await app.register(messageRoutes, {
      prefix: API_BASE,
      messages: opts.messages,
      log,
      tests,
      unsubscribe: createUnsubscribe({ db, signSecret: app.config.signSecret }),
      reports: createDeliveryReports({ db, twilio: twilioCallback(app.config) }),
    });
  },
  { name: 'messages', dependencies: ['notifications'] },
);
