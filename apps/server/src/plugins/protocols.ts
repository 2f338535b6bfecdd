// Protocol management: the calls built on the device side (its protocol store and poll planner).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { Config } from '../config.ts';
import { createProtocolRepository } from '../modules/protocols/repository.ts';
import { createProtocolService } from '../modules/protocols/service.ts';
import { protocolRoutes } from '../modules/protocols/routes.ts';

export default fp(
  async function protocols(app: FastifyInstance, _opts: { config: Config }) {
    const db = app.database.db;
    const devices = app.devices;
    const protocolService = createProtocolService({
      db,
      repo: createProtocolRepository(db),
      store: devices.protocols,
      planner: devices.planner,
      log: app.log,
    });
    await app.register(protocolRoutes, { prefix: API_BASE, protocols: protocolService });
  },
  { name: 'protocols', dependencies: ['devices'] },
);
