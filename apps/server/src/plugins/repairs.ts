// Repair requests of the sets: the calls, the picture folder, and `app.repairs` for whoever listens to their
// steps (`app.repairs.setEventListener`, or the `onEvent` option).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createPictureStore } from '../modules/repairs/pictures.ts';
import { createRepairService, type RepairEventListener, type RepairService } from '../modules/repairs/service.ts';
import { repairRoutes } from '../modules/repairs/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    repairs: RepairService;
  }
}

export default fp(
  async function repairs(app: FastifyInstance, opts: { onEvent?: RepairEventListener }) {
    const store = createPictureStore(app.config.uploadsDir);
    await store.prepare();
    const service = createRepairService({
      db: app.database.db,
      fleet: app.devices.fleet,
      store,
      log: app.log,
      ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
    });
    app.decorate('repairs', service);
    await app.register(repairRoutes, { prefix: API_BASE, repairs: service, store });
  },
  { name: 'repairs', dependencies: ['devices'] },
);
