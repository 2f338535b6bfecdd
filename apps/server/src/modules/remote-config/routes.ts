// HTTP of remote configuration (spec 7, "Monitoring"): read a menu of settings from the controller, write
// changed settings. Both answer the envelope; the console reads their raw result, errors included.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { configReadRequest, configReadResponse, configWriteRequest, configWriteResponse } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { RemoteConfigService } from './service.ts';

export async function remoteConfigRoutes(app: FastifyInstance, opts: { config: RemoteConfigService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = opts;
  const tags = ['remote configuration'];

  r.post('/configdata/readconfignew', {
    schema: {
      tags,
      summary:
        'Read the settings of a menu (and its sub-menus; all without a menu) from the controller, with names, units, ranges and dropdown labels',
      body: configReadRequest,
      response: { 200: envelope(configReadResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await config.read(req.session!, req.body, req.lang)),
  });

  r.post('/configdata/writeconfignew', {
    schema: {
      tags,
      summary:
        'Write settings (control rights and the account password): every value is checked before anything is sent, only changed values are written, each is read back; the operation log keeps old and new values',
      body: configWriteRequest,
      response: { 200: envelope(configWriteResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await config.write(req.session!, req.body, req.lang, req.ip), 'success.operation'),
  });
}
