// HTTP of monitoring and commands (spec 7, "Monitoring").
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  commandListResponse,
  commandResult,
  monitorListResponse,
  restartModemRequest,
  sendActionRequest,
  setInfoResponse,
  tokenRequest,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { DeviceService } from './service.ts';
import type { AuthService } from '../auth/service.ts';

export async function deviceRoutes(app: FastifyInstance, opts: { devices: DeviceService; auth: AuthService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { devices } = opts;
  const tags = ['monitoring'];

  r.post('/devicedata/getstatus', {
    schema: {
      tags,
      summary: 'Set info for the top bar (refreshed every 10 s)',
      body: tokenRequest,
      response: { 200: envelope(setInfoResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await devices.info(req.session!, req.body.token)),
  });

  r.post('/realTimeData/monitorList', {
    schema: {
      tags,
      summary: 'Latest value of every data item of a set',
      body: tokenRequest,
      response: { 200: envelope(monitorListResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await devices.monitorList(req.session!, req.body.token, req.lang)),
  });

  r.post('/devicedata/commands', {
    schema: {
      tags,
      summary: 'Commands the set’s protocol offers',
      body: tokenRequest,
      response: { 200: envelope(commandListResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await devices.commandList(req.session!, req.body.token, req.lang)),
  });

  r.post('/devicedata/sendaction', {
    schema: {
      tags,
      summary:
        'Send a command of the set’s protocol; answers with the controller’s result or a timeout (never a false success)',
      body: sendActionRequest,
      response: { 200: envelope(commandResult) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await devices.sendAction(req.session!, req.body, req.lang, req.ip), 'success.operation'),
  });

  r.post('/devicedata/restartmodem', {
    schema: {
      tags,
      summary: 'Restart the set’s cloud module (form data token, utoken)',
      body: restartModemRequest,
      response: { 200: envelope(commandResult) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    // The form carries the user token as `utoken`; it stands in for a missing X-Token header (read by the access
    // gate, which runs after this step).
    preValidation: async (req) => {
      const body = req.body as { utoken?: string } | undefined;
      if (!req.headers['x-token'] && body?.utoken) req.headers['x-token'] = body.utoken;
    },
    handler: async (req, reply) =>
      reply.ok(await devices.restartModem(req.session!, req.body.token, req.ip, req.lang), 'success.operation'),
  });
}
