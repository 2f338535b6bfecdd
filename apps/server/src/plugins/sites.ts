// Energy-storage stations: their calls, and their part in the realtime channel (a station token is watchable).
// Their energy is counted and their module's EMS status kept by ingestion (modules/sites/energy.ts and
// ems-status.ts), which the devices plugin runs.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createSiteService, type SiteService } from '../modules/sites/service.ts';
import { siteRoutes } from '../modules/sites/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sites: { service: SiteService };
  }
}

export default fp(
  async function sites(app: FastifyInstance, opts: { now?: () => number }) {
    const devices = app.devices;
    const service = createSiteService({
      db: app.database.db,
      fleet: devices.fleet,
      protocols: devices.protocols,
      commands: devices.commands,
      transport: devices.transport,
      bus: devices.bus,
      commandTimeoutMs: app.config.commandTimeoutMs,
      live: (gensetId) => devices.ingest.latestRow(gensetId),
      changed: () => devices.ingest.sitesChanged(),
      ...(opts.now ? { now: opts.now } : {}),
    });
    devices.stations = service.watch;
    app.decorate('sites', { service });
    await app.register(siteRoutes, { prefix: API_BASE, sites: service });
  },
  { name: 'sites', dependencies: ['devices'] },
);
