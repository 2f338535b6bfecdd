// HTTP of Web Push: the installation's VAPID public key, and the signed-in person's own subscribed devices.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  pushDevicesResponse,
  pushKeyResponse,
  pushSubscribeRequest,
  pushSubscribeResponse,
  pushUnsubscribeRequest,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { PushService } from './service.ts';

export async function pushRoutes(app: FastifyInstance, opts: { push: PushService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { push } = opts;
  const tags = ['notifications'];

  r.get('/push/key', {
    schema: {
      tags,
      summary: 'The VAPID public key browsers subscribe with (`applicationServerKey`)',
      response: { 200: envelope(pushKeyResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (_req, reply) => reply.ok(await push.publicKey()),
  });

  r.post('/push/subscribe', {
    schema: {
      tags,
      summary:
        'Notifies this browser: its push subscription as PushSubscription.toJSON() gives it (an https address ' +
        'of a push service, its keys); the same browser again replaces its keys',
      body: pushSubscribeRequest,
      response: { 200: envelope(pushSubscribeResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) =>
      reply.ok(await push.subscribe(req.session!.user.id, req.body, req.headers['user-agent']), 'success.saved'),
  });

  r.post('/push/unsubscribe', {
    schema: {
      tags,
      summary: 'Stops notifying one of the caller’s devices, named by id or by its push address',
      body: pushUnsubscribeRequest,
      response: { 200: envelope(z.object({ removed: z.number().int() })) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) =>
      reply.ok(await push.unsubscribe(req.session!.user.id, req.body), 'success.operation'),
  });

  r.get('/push/devices', {
    schema: {
      tags,
      summary: 'The caller’s devices notified by Web Push, newest first',
      response: { 200: envelope(pushDevicesResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await push.devices(req.session!.user.id)),
  });
}
