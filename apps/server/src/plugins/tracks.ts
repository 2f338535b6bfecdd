// Where sets are and have been: the fence and track calls. The fixes themselves come in through ingestion
// (modules/devices/ingest/positions.ts).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createTrackService } from '../modules/tracks/service.ts';
import { trackRoutes } from '../modules/tracks/routes.ts';

export default fp(
  async function tracks(app: FastifyInstance) {
    const service = createTrackService({ db: app.database.db, fleet: app.devices.fleet });
    await app.register(trackRoutes, { prefix: API_BASE, tracks: service });
  },
  { name: 'tracks', dependencies: ['devices'] },
);
