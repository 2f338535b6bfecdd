// Set management and subscriptions: the calls built on the device side (rights on each set, poll plans,
// ingestion bindings that change when a set is added, moved or deleted).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createGensetService } from '../modules/gensets/service.ts';
import { createSubscriptionService } from '../modules/gensets/subscriptions.ts';
import { gensetRoutes } from '../modules/gensets/routes.ts';

export default fp(
  async function gensets(app: FastifyInstance) {
    const db = app.database.db;
    const devices = app.devices;
    const gensetService = createGensetService({
      db,
      fleet: devices.fleet,
      devices: devices.service,
      protocols: devices.protocols,
      planner: devices.planner,
      ingest: devices.ingest,
      log: app.log,
    });
    const subscriptions = createSubscriptionService({
      db,
      fleet: devices.fleet,
      devices: devices.service,
      log: app.log,
    });
    await app.register(gensetRoutes, { prefix: API_BASE, gensets: gensetService, subscriptions });
  },
  { name: 'gensets', dependencies: ['devices'] },
);
