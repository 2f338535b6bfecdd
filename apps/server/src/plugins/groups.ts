// Parallel and multi-machine groups of sets, built on the device side (rights on each set, latest values), and
// commands to a whole group run by the server.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createGroupRepository } from '../modules/groups/repository.ts';
import { createGroupService } from '../modules/groups/service.ts';
import { groupRoutes } from '../modules/groups/routes.ts';
import { createGroupCommands, type GroupCommands } from '../modules/groups/commands.ts';

declare module 'fastify' {
  interface FastifyInstance {
    groupCommands: GroupCommands;
  }
}

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
    // commands to whole groups: run on one instance at a time (job lease), taken up again after a restart
    const commands = createGroupCommands({
      db,
      groups: service,
      devices: devices.service,
      protocols: devices.protocols,
      log: app.log,
    });
    app.decorate('groupCommands', commands);
    await app.register(groupRoutes, { prefix: API_BASE, groups: service, commands });
    app.addHook('onReady', async () => commands.run());
    app.addHook('preClose', async () => commands.stop());
  },
  { name: 'groups', dependencies: ['devices'] },
);
