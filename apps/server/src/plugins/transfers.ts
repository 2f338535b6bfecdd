// Handing sets over, built on the device side (rights on each set) and the set directory (the lists that
// must show a set with its new owner at once). The service is on the instance as `app.transfers`, so that
// whoever tells users of a step (notifications) can listen to it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { AuthService } from '../modules/auth/service.ts';
import { createTransferRepository } from '../modules/transfers/repository.ts';
import { createTransferService, type TransferEvent, type TransferService } from '../modules/transfers/service.ts';
import { transferRoutes } from '../modules/transfers/routes.ts';

type TransferListener = (event: TransferEvent) => Promise<void> | void;

/** The service, and a way to hear of every committed step (requested, accepted, rejected, revoked). */
export type TransfersHandle = TransferService & { listen(listener: TransferListener): void };

declare module 'fastify' {
  interface FastifyInstance {
    transfers: TransfersHandle;
  }
}

export default fp(
  async function transfers(app: FastifyInstance, opts: { auth: AuthService; onEvent?: TransferListener }) {
    const db = app.database.db;
    const listeners: TransferListener[] = opts.onEvent ? [opts.onEvent] : [];
    const service = createTransferService({
      db,
      repository: createTransferRepository(db),
      devices: app.devices.service,
      log: app.log,
      onSetsChanged: () => app.gensets.directory.invalidate(),
      onUsersChanged: (userIds) => {
        for (const id of userIds) opts.auth.forgetUser(id);
      },
      onEvent: async (event) => {
        for (const listener of listeners) {
          try {
            await listener(event);
          } catch (err) {
            app.log.error({ err, transfer: event.transferId, kind: event.kind }, 'transfer event listener failed');
          }
        }
      },
    });
    const handle: TransfersHandle = { ...service, listen: (listener) => void listeners.push(listener) };
    app.decorate('transfers', handle);
    await app.register(transferRoutes, { prefix: API_BASE, transfers: service });
  },
  { name: 'transfers', dependencies: ['devices', 'gensets'] },
);
