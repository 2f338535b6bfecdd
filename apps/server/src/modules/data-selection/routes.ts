// HTTP of the realtime data selection (spec 7, "Monitoring"): a user's items and their order per set, and the
// items history and alarm queries offer.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { itemSelectionEditRequest, itemSelectionResponse, monitorSelectResponse, tokenRequest } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import { clientInfo } from '../../plugins/auth.ts';
import type { DataSelectionService } from './service.ts';

export async function dataSelectionRoutes(app: FastifyInstance, opts: { selection: DataSelectionService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { selection } = opts;
  const tags = ['monitoring'];

  r.post('/deviceitems/select', {
    schema: {
      tags,
      summary: 'The data items of the realtime page in their order (the protocol’s realtime items until chosen)',
      body: tokenRequest,
      response: { 200: envelope(itemSelectionResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await selection.select(req.session!, req.body.token, req.lang)),
  });

  r.post('/deviceitems/edit', {
    schema: {
      tags,
      summary: 'Choose the data items of the realtime page and their order (this user, this set)',
      body: itemSelectionEditRequest,
      response: { 200: envelope(itemSelectionResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await selection.edit(req.session!, req.body, req.lang, clientInfo(req).ip), 'success.saved'),
  });

  r.post('/deviceitems/reset', {
    schema: {
      tags,
      summary: 'Back to the protocol’s realtime items',
      body: tokenRequest,
      response: { 200: envelope(itemSelectionResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await selection.reset(req.session!, req.body.token, req.lang, clientInfo(req).ip), 'success.operation'),
  });

  r.post('/devicedata/getmonitorwithselect', {
    schema: {
      tags,
      summary: 'Measurements a history or alarm query can use, marked when on the user’s realtime page',
      body: tokenRequest,
      response: { 200: envelope(monitorSelectResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await selection.monitorWithSelect(req.session!, req.body.token, req.lang)),
  });
}
