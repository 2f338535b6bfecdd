// SIM cards: their usage against their plans. The usage itself is counted by ingestion as modules report
// their counters (modules/iotcard/usage.ts); an adapter for a carrier's API may be given in place of the
// module's counters as the source of the figures.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { CarrierAdapter } from '../modules/iotcard/carrier.ts';
import { createSimService, type SimService } from '../modules/iotcard/service.ts';
import { iotcardRoutes } from '../modules/iotcard/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    iotcard: { service: SimService };
  }
}

export default fp(
  async function iotcard(app: FastifyInstance, opts: { carrier?: CarrierAdapter }) {
    const service = createSimService({
      db: app.database.db,
      fleet: app.devices.fleet,
      ...(opts.carrier ? { carrier: opts.carrier } : {}),
    });
    app.decorate('iotcard', { service });
    await app.register(iotcardRoutes, { prefix: API_BASE, sims: service });
  },
  { name: 'iotcard', dependencies: ['devices'] },
);
