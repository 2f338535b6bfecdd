// Parallel and multi-machine groups of sets, built on the device side (rights on each set, latest values).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createGroupRepository } from '../modules/groups/repository.ts';
import { createGroupService } from '../modules/groups/service.ts';
import { groupRoutes } from '../modules/groups/routes.ts';

export default fp(
  async function groups(app: FastifyInstance) {
    const db = app.database.db;
    const devices = app.devices;
    const service = createGroupService({
      db,
      repository: createGroupRepository(db),
      fleet: devices.fleet,
      devices: devices.service,
      protocols: devices.protocols,
    });
    await app.register(groupRoutes, { prefix: API_BASE, groups: service });
  },
  { name: 'groups', dependencies: ['devices'] },
);
