// Set management and subscriptions: the calls built on the device side (rights on each set, poll plans,
// ingestion bindings that change when a set is added, moved or deleted).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { AuthService } from '../modules/auth/service.ts';
import { createSetDirectory, type SetDirectory } from '../modules/gensets/directory.ts';
import { createListQueries, type ListQueries } from '../modules/gensets/list.ts';
import { createGensetService } from '../modules/gensets/service.ts';
import { createSubscriptionService } from '../modules/gensets/subscriptions.ts';
import { gensetRoutes } from '../modules/gensets/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    gensets: { directory: SetDirectory; lists: ListQueries };
  }
}

export default fp(
  async function gensets(app: FastifyInstance, opts: { auth: AuthService }) {
    const db = app.database.db;
    const devices = app.devices;
    const directory = createSetDirectory({ db, bus: devices.bus, log: app.log });
    app.decorate('gensets', { directory, lists: createListQueries(db, directory, devices.fleet.scope) });
    app.addHook('onClose', async () => directory.close());
    // the directory is read before the server takes calls: with 100,000 sets the first list waited a minute for it
    app.addHook('onReady', async () => {
      await directory.current().catch((err: unknown) => app.log.warn({ err }, 'set directory not loaded at start'));
    });
    const gensetService = createGensetService({
      db,
      fleet: devices.fleet,
      devices: devices.service,
      protocols: devices.protocols,
      planner: devices.planner,
      ingest: devices.ingest,
      directory,
      log: app.log,
    });
    const subscriptions = createSubscriptionService({
      db,
      fleet: devices.fleet,
      devices: devices.service,
      log: app.log,
      onChanged: (userIds) => {
        for (const id of userIds) opts.auth.forgetUser(id);
      },
    });
    await app.register(gensetRoutes, { prefix: API_BASE, gensets: gensetService, subscriptions });
  },
  { name: 'gensets', dependencies: ['devices'] },
);
