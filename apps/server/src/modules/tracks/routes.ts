// HTTP of where a set is and has been: its fence (read, draw, remove) and its track over a time range.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  fenceRequest,
  fenceResponse,
  fenceShape,
  trackRequest,
  trackResponse,
  updateFenceRequest,
} from '@genset/protocol';
import { z } from 'zod';
import { clientInfo } from '../../plugins/auth.ts';
import { envelope } from '../../lib/envelope.ts';
import type { TrackCaller, TrackService } from './service.ts';

export async function trackRoutes(app: FastifyInstance, opts: { tracks: TrackService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { tracks } = opts;
  const tags = ['gensets'];
  const caller = (req: FastifyRequest): TrackCaller => ({ ctx: req.session!, ip: clientInfo(req).ip });
  const config = { fieldLabels: { fence: 'fence', radiusM: 'fenceRadiusM', start: 'trackStart', end: 'trackEnd' } };

  r.post('/genset/fence', {
    schema: {
      tags,
      summary:
        'A set’s fence in force (its drawn circle or polygon, else the circle of its radius field around its ' +
        'site), its latest fix and whether that is inside (view rights)',
      body: fenceRequest,
      response: { 200: envelope(fenceResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await tracks.fence(req.session!, req.body.token)),
  });

  r.post('/genset/updateFence', {
    schema: {
      tags,
      summary:
        'Draw a set’s fence (manage rights): a circle (centre, radius 1 m – 1,000 km) or a polygon (3–200 ' +
        'corners, not crossing itself); null removes it. Leaving it raises an alarm, coming back clears it',
      body: updateFenceRequest,
      response: { 200: envelope(z.object({ fence: fenceShape.nullable() })) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await tracks.updateFence(caller(req), req.body.token, req.body.fence), 'tracks.fenceSaved'),
  });

  r.post('/genset/guiji', {
    schema: {
      tags,
      summary:
        'A set’s track (view rights): its fixes from start to end (at most 31 days) in order, as ' +
        '[time, latitude, longitude, speed], simplified for the map’s zoom level',
      body: trackRequest,
      response: { 200: envelope(trackResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await tracks.track(req.session!, req.body.token, req.body.start, req.body.end, req.body.zoom)),
  });
}
