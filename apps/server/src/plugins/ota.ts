// Firmware upgrades over the air: the calls, the firmware folder, the modules' progress replies and the
// dispatcher that starts upgrades (one instance of the deployment at a time). `app.ota` for tests and tools.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createFirmwareStore } from '../modules/ota/files.ts';
import { createOtaService, type OtaService } from '../modules/ota/service.ts';
import { otaRoutes } from '../modules/ota/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ota: OtaService;
  }
}

/** Downloaded but not updated after this long, the upgrade has failed (the module rolls back within 5 minutes). */
const UPDATE_WAIT_MS = 15 * 60_000;

export default fp(
  async function ota(app: FastifyInstance) {
    const { config } = app;
    const store = createFirmwareStore(config.dataDir);
    await store.prepare();
    const downloadBase = () => {
      if (config.ota.publicUrl) return config.ota.publicUrl;
      const address = app.server.address();
      if (address && typeof address === 'object') {
        const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
        return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
      }
      return `http://127.0.0.1:${config.port}`;
    };
    const service = createOtaService({
      db: app.database.db,
      fleet: app.devices.fleet,
      transport: app.devices.transport,
      bus: app.devices.bus,
      store,
      log: app.log,
      downloadBase,
      stallMs: config.ota.stallMs,
      updateWaitMs: UPDATE_WAIT_MS,
    });
    app.decorate('ota', service);
    // A module's replies are recorded one after the other, in the order it sent them, so each step is told to
    // the consoles before the next one is recorded.
    const queues = new Map<string, Promise<void>>();
    const stopListening = app.devices.commands.listen((modemKey, reply) => {
      const next = (queues.get(modemKey) ?? Promise.resolve())
        .then(() => service.receive(modemKey, reply))
        .catch((err: unknown) => app.log.warn({ err }, 'upgrade reply not recorded'));
      queues.set(modemKey, next);
      void next.then(() => {
        if (queues.get(modemKey) === next) queues.delete(modemKey);
      });
    });
    await app.register(otaRoutes, { prefix: API_BASE, ota: service, store });
    app.addHook('onReady', async () => service.start(config.ota.tickMs));
    app.addHook('preClose', async () => {
      stopListening();
      await service.stop();
    });
  },
  { name: 'ota', dependencies: ['devices'] },
);
