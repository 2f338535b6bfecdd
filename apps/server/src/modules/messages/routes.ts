// HTTP of messages: whether codes leave this server at all (the public sign-in and registration forms ask), how
// each channel is served, the delivery log and a test message (company administrators: company:manage; the
// platform administrator sees every company's log and the codes sent to people in none).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALL_PERMISSIONS,
  messageChannelsResponse,
  messageLogRequest,
  messageLogResponse,
  messageStatusResponse,
  messageTestRequest,
  messageTestResponse,
  Permission,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { MessageTests } from './tests.ts';
import type { MessageService } from './service.ts';
import type { MessageLogRepository } from './repository.ts';
import type { Unsubscribe } from './unsubscribe.ts';
import { TWILIO_STATUS_PATH, type DeliveryReports } from './delivery-reports.ts';

export async function messageRoutes(
  app: FastifyInstance,
  opts: {
    messages: MessageService;
    log: MessageLogRepository;
    tests: MessageTests;
    unsubscribe: Unsubscribe;
    reports: DeliveryReports;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { messages, log, tests } = opts;
  const tags = ['messages'];

  r.get('/messages/channels', {
    schema: {
      tags,
      summary: 'Whether one-time codes leave this server by SMS and by e-mail (else they go to its outbox)',
      response: { 200: envelope(messageChannelsResponse) },
    },
    config: { access: { public: true } },
    handler: async (_req, reply) => {
      const s = messages.status();
      return reply.ok({ sms: s.sms.configured, email: s.email.configured });
    },
  });

  r.get('/messages/status', {
    schema: {
      tags,
      summary:
        'How SMS, e-mail and push are served on this installation (company:manage; push needs no provider: its key is made once)',
      response: { 200: envelope(messageStatusResponse) },
    },
    config: { access: { permission: Permission.companyManage, scope: 'company' } },
    handler: async (_req, reply) => reply.ok({ ...messages.status(), push: { configured: true } }),
  });

  r.post('/messages/log', {
    schema: {
      tags,
      summary: 'The delivery log, newest first: channel, provider, masked recipient, status, failure, tries',
      body: messageLogRequest,
      response: { 200: envelope(messageLogResponse) },
    },
    config: { access: { permission: Permission.companyManage, scope: 'company' } },
    handler: async (req, reply) => {
      const platform = req.grant!.permissions.includes(ALL_PERMISSIONS);
      return reply.ok(await log.page(platform ? null : req.companyId, req.body));
    },
  });

  // The address in a notice mail's List-Unsubscribe: a mail reader's one-click POST (RFC 8058) turns the person's
  // notice e-mail off; a person following it in a browser gets a page that asks before doing so (link checkers
  // open links, they do not post forms).
  const token = z.object({ token: z.string().max(200) });
  r.get('/messages/unsubscribe', {
    schema: { tags, summary: 'The page that turns notice e-mail off (asks first)', querystring: token },
    config: { unsigned: true, access: { public: true } },
    handler: async (req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await opts.unsubscribe.page(req.query.token, req.lang, false)),
  });
  r.post('/messages/unsubscribe', {
    schema: { tags, summary: 'Turns notice e-mail off (List-Unsubscribe-Post: one click)', querystring: token },
    config: { unsigned: true, access: { public: true } },
    handler: async (req, reply) => {
      const done = await opts.unsubscribe.apply(req.query.token);
      return reply
        .status(done ? 200 : 400)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await opts.unsubscribe.page(req.query.token, req.lang, done));
    },
  });

  // Twilio's reports of what became of a message (form-encoded, signed by Twilio; nothing else is believed)
  r.post(TWILIO_STATUS_PATH, {
    schema: {
      tags,
      summary: 'Twilio’s status callback: a message delivered or not (X-Twilio-Signature checked)',
      body: z.record(z.string(), z.string()),
    },
    config: { unsigned: true, access: { public: true } },
    handler: async (req, reply) => {
      const signature = req.headers['x-twilio-signature'];
      const taken = await opts.reports.twilio(typeof signature === 'string' ? signature : undefined, req.body);
      return reply.status(taken ? 204 : 403).send();
    },
  });

  r.post('/messages/test', {
    schema: {
      tags,
      summary:
        'Sends a test message in the caller’s language: SMS to a number, e-mail to an address, push to the caller’s ' +
        'own devices; answers its row of the delivery log (push: how many devices it went to)',
      body: messageTestRequest,
      response: { 200: envelope(messageTestResponse) },
    },
    config: { access: { permission: Permission.companyManage, scope: 'company' } },
    handler: async (req, reply) =>
      reply.ok(
        await tests.send({
          channel: req.body.channel,
          to: req.body.to,
          language: req.lang,
          companyId: req.companyId,
          userId: req.session!.user.id,
        }),
      ),
  });
}
