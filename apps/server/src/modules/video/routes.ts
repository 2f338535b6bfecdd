// HTTP of a set's cameras and their live video: /video/* under the API base. The management and lease calls
// are signed calls of a signed-in user; the stream files are fetched by the player without headers, so they
// are authorised by the lease in their address alone (it ends when its viewer stops renewing it or loses the
// right to see the set).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cameraAddRequest,
  cameraAddResponse,
  cameraDeleteRequest,
  cameraListResponse,
  cameraUpdateRequest,
  tokenRequest,
  videoLeaseRequest,
  videoRenewResponse,
  videoWatchRequest,
  videoWatchResponse,
} from '@genset/protocol';
import { clientInfo } from '../../plugins/auth.ts';
import { emptyEnvelope, envelope } from '../../lib/envelope.ts';
import type { VideoCaller, VideoService } from './service.ts';
import type { Streams } from './streams.ts';

const LEASE = /^[A-Za-z0-9_-]{20,64}$/;

export async function videoRoutes(app: FastifyInstance, opts: { video: VideoService; streams: Streams | null }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { video, streams } = opts;
  const tags = ['video'];
  const caller = (req: FastifyRequest): VideoCaller => ({ ctx: req.session!, ip: clientInfo(req).ip });
  // the form calls a camera's fields by these names
  const fieldLabels = { name: 'cameraName', url: 'cameraUrl', username: 'cameraUsername', password: 'cameraPassword' };

  r.post('/video/list', {
    schema: {
      tags,
      summary:
        'The set’s cameras (view rights); addresses and whether a sign-in is stored only for managers, never the ' +
        'sign-in itself. `available` is false when the server has no ffmpeg.',
      body: tokenRequest,
      response: { 200: envelope(cameraListResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await video.list(caller(req), req.body.token)),
  });

  r.post('/video/add', {
    schema: {
      tags,
      summary:
        'Add a camera (manage rights): rtsp, http or https address without sign-in and without shell characters; ' +
        'the camera’s user name and password are stored encrypted. At most 16 per set (409).',
      body: cameraAddRequest,
      response: { 200: envelope(cameraAddResponse) },
    },
    config: { fieldLabels, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await video.add(caller(req), req.body), 'success.operation'),
  });

  r.post('/video/update', {
    schema: {
      tags,
      summary:
        'Change a camera (manage rights): only the fields sent change; `username` replaces the stored sign-in ' +
        '(null or empty removes it). Viewers of a changed address start again on the new one.',
      body: cameraUpdateRequest,
      response: { 200: emptyEnvelope },
    },
    config: { fieldLabels, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await video.update(caller(req), req.body), 'success.operation'),
  });

  r.post('/video/del', {
    schema: {
      tags,
      summary: 'Remove a camera (manage rights); its viewers are stopped',
      body: cameraDeleteRequest,
      response: { 200: emptyEnvelope },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await video.remove(caller(req), req.body.token, req.body.id), 'success.operation'),
  });

  r.post('/video/watch', {
    schema: {
      tags,
      summary:
        'Watch a camera (view rights on its set): answers once the first segment exists with a lease and the HLS ' +
        'playlist address. 503 without ffmpeg, 502 when the camera cannot be reached, 504 when it sends no ' +
        'picture within 20 s.',
      body: videoWatchRequest,
      response: { 200: envelope(videoWatchResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await video.watch(caller(req), req.body.token, req.body.id)),
  });

  r.post('/video/renew', {
    schema: {
      tags,
      summary:
        'Keep a lease (every 10 s; it ends after 20 s without): answers the stream’s state. 404 when the lease ' +
        'has ended or the rights on the set are gone.',
      body: videoLeaseRequest,
      response: { 200: envelope(videoRenewResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await video.renew(caller(req), req.body.lease)),
  });

  r.post('/video/leave', {
    schema: {
      tags,
      summary: 'Give a lease back; the last viewer leaving stops the camera’s stream',
      body: videoLeaseRequest,
      response: { 200: emptyEnvelope },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await video.leave(caller(req), req.body.lease)),
  });

  // The player's files: no signature, no session (a player sends no headers); the lease is the key.
  r.get('/video/live/:lease/:file', {
    schema: {
      tags,
      summary:
        'The HLS playlist (index.m3u8) and its segments while the lease lives: 404 for an unknown or ended ' +
        'lease, 410 when the camera was lost. Plain HTTP statuses, not envelopes, as players expect.',
    },
    config: { unsigned: true, access: { public: true } },
    handler: async (req, reply) => {
      const { lease, file } = req.params as { lease: string; file: string };
      const answer = streams && LEASE.test(lease) ? await streams.file(lease, file) : ({ status: 404 } as const);
      reply.header('cache-control', 'no-store');
      if (answer.status !== 200) return reply.status(answer.status).type('text/plain').send(String(answer.status));
      return reply.type(answer.type!).send(answer.body);
    },
  });

  // A closing page cannot sign a call: it gives its lease back by beacon, the lease in the address.
  r.post('/video/live/:lease/leave', {
    schema: { tags, summary: 'Give a lease back from a closing page (no signature: the lease is the key)' },
    config: { unsigned: true, access: { public: true } },
    handler: async (req, reply) => {
      const { lease } = req.params as { lease: string };
      if (streams && LEASE.test(lease)) streams.release(lease);
      return reply.status(204).send();
    },
  });
}
