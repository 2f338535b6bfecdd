// Energy-storage stations: their calls, and their part in the realtime channel (a station token is watchable).
// Their energy is counted and their module's EMS status kept by ingestion (modules/sites/energy.ts and
// ems-status.ts), which the devices plugin runs.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createSiteService, type SiteService } from '../modules/sites/service.ts';
import { siteRoutes } from '../modules/sites/routes.ts';
import type { DemoStations } from '../modules/devices/demo-stations.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sites: { service: SiteService; demo: DemoStations | null };
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
      // a set bound to a station (or freed from one) leaves (or rejoins) the genset lists
      changed: () => {
        devices.ingest.sitesChanged();
        app.gensets.directory.invalidate();
      },
      ...(opts.now ? { now: opts.now } : {}),
    });
    devices.stations = service.watch;
    await app.register(siteRoutes, { prefix: API_BASE, sites: service });

    // The demo's stations, live beside the demo's sets (after their past, when they are given one).
    const { config } = app;
    const brokerPort = devices.transport.port;
    const demo =
      config.demo && config.demoFleet && brokerPort !== undefined
        ? await (
            await import('../modules/devices/demo-stations.ts')
          ).startDemoStations({
            db: app.database.db,
            fleet: devices.fleet,
            sites: service,
            brokerPort,
            dataDir: config.dataDir,
            log: app.log,
            invalidate: () => {
              devices.ingest.invalidate();
              devices.ingest.sitesChanged();
              app.gensets.directory.invalidate();
            },
            ingest: devices.ingest,
            backfillDays: config.demoStationBackfillDays,
            after: devices.demoBackfilled,
          })
        : null;
    if (demo) devices.closeFirst.push(() => demo.close());
    app.decorate('sites', { service, demo });
  },
  { name: 'sites', dependencies: ['devices'] },
);
