// Maintenance plans: the calls, and the scheduler that raises reminders and overdue notices (one instance of
// the deployment at a time), told to the notification engine so they go out at once.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createMaintenanceService, type MaintenanceService } from '../modules/maintenance/service.ts';
import { createMaintenanceScheduler, type MaintenanceScheduler } from '../modules/maintenance/scheduler.ts';
import { maintenanceRoutes } from '../modules/maintenance/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    maintenance: { service: MaintenanceService; scheduler: MaintenanceScheduler };
  }
}

export default fp(
  async function maintenance(app: FastifyInstance) {
    const db = app.database.db;
    const service = createMaintenanceService({ db, fleet: app.devices.fleet });
    const scheduler = createMaintenanceScheduler({ db, onRecorded: () => void app.notifications.engine.kick() });
    app.decorate('maintenance', { service, scheduler });
    await app.register(maintenanceRoutes, { prefix: API_BASE, maintenance: service });
    app.addHook('onReady', async () => scheduler.start(app.log));
    app.addHook('preClose', async () => scheduler.stop());
  },
  { name: 'maintenance', dependencies: ['devices', 'notifications'] },
);
