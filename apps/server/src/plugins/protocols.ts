// Protocol management, remote configuration and realtime data selection: the calls built on the device side
// (its protocol store, poll planner, command dispatcher and the rights on each set).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { Config } from '../config.ts';
import { createProtocolRepository } from '../modules/protocols/repository.ts';
import { createProtocolService } from '../modules/protocols/service.ts';
import { protocolRoutes } from '../modules/protocols/routes.ts';
import { createRemoteConfigService } from '../modules/remote-config/service.ts';
import { remoteConfigRoutes } from '../modules/remote-config/routes.ts';
import { createDataSelectionService } from '../modules/data-selection/service.ts';
import { dataSelectionRoutes } from '../modules/data-selection/routes.ts';

export default fp(
  async function protocols(app: FastifyInstance, opts: { config: Config }) {
    const db = app.database.db;
    const devices = app.devices;
    const protocolService = createProtocolService({
      db,
      repo: createProtocolRepository(db),
      store: devices.protocols,
      planner: devices.planner,
      log: app.log,
    });
    const config = createRemoteConfigService({
      db,
      devices: devices.service,
      protocols: devices.protocols,
      commands: devices.commands,
      transport: devices.transport,
      commandTimeoutMs: opts.config.commandTimeoutMs,
    });
    const selection = createDataSelectionService({ db, devices: devices.service, protocols: devices.protocols });
    await app.register(protocolRoutes, { prefix: API_BASE, protocols: protocolService });
    await app.register(remoteConfigRoutes, { prefix: API_BASE, config });
    await app.register(dataSelectionRoutes, { prefix: API_BASE, selection });
  },
  { name: 'protocols', dependencies: ['devices'] },
);
