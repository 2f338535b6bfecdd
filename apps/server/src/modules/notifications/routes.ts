// HTTP of notifications: the message centre of the signed-in person, and the webhooks of their company
// (company administrators: company:manage).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  noticeListRequest,
  noticeListResponse,
  noticeReadRequest,
  noticeUnreadResponse,
  Permission,
  webhookDeliveriesResponse,
  webhookIdRequest,
  webhookListResponse,
  webhookSaveRequest,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { NoticeService } from './service.ts';
import type { WebhookService } from './webhooks.ts';

export async function notificationRoutes(
  app: FastifyInstance,
  opts: { notices: NoticeService; webhooks: WebhookService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notices, webhooks } = opts;
  const tags = ['notifications'];

  r.post('/notice/list', {
    schema: {
      tags,
      summary: 'The caller’s notices, newest first (only unread ones with `unread`), in the request’s language',
      body: noticeListRequest,
      response: { 200: envelope(noticeListResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await notices.list(req.session!.user.id, req.lang, req.body)),
  });

  r.get('/notice/unread', {
    schema: {
      tags,
      summary: 'How many of the caller’s notices are unread',
      response: { 200: envelope(noticeUnreadResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok({ unread: await notices.unread(req.session!.user.id) }),
  });

  r.post('/notice/read', {
    schema: {
      tags,
      summary: 'Marks some of the caller’s notices read (or unread again); others’ notices are left alone',
      body: noticeReadRequest,
      response: { 200: envelope(noticeUnreadResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await notices.mark(req.session!.user.id, req.body.ids, req.body.read)),
  });

  r.post('/notice/readAll', {
    schema: {
      tags,
      summary: 'Marks all of the caller’s notices read',
      response: { 200: envelope(noticeUnreadResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await notices.markAll(req.session!.user.id)),
  });

  r.post('/webhook/list', {
    schema: {
      tags,
      summary: 'The company’s webhooks with their signing secrets and last delivery (company:manage)',
      response: { 200: envelope(webhookListResponse) },
    },
    config: { access: { permission: Permission.companyManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await webhooks.list(req.companyId)),
  });

  r.post('/webhook/save', {
    schema: {
      tags,
      summary:
        'Adds a webhook (without id) or edits one: name, http(s) address (not this server, no credentials), the ' +
        'notice kinds posted to it, enabled (company:manage)',
      body: webhookSaveRequest,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    config: {
      fieldLabels: { name: 'webhookName', url: 'webhookUrl' },
      access: { permission: Permission.companyManage, scope: 'company' },
    },
    handler: async (req, reply) =>
      reply.ok(await webhooks.save(req.session!, req.companyId, req.ip, req.body), 'success.saved'),
  });

  r.post('/webhook/delete', {
    schema: {
      tags,
      summary: 'Deletes a webhook of the company (company:manage)',
      body: webhookIdRequest,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    config: { access: { permission: Permission.companyManage, scope: 'company' } },
    handler: async (req, reply) =>
      reply.ok(await webhooks.remove(req.session!, req.companyId, req.ip, req.body.id), 'success.operation'),
  });

  r.post('/webhook/deliveries', {
    schema: {
      tags,
      summary: 'The delivery log of a webhook: the last 100 messages, their state, tries and answers (company:manage)',
      body: webhookIdRequest,
      response: { 200: envelope(webhookDeliveriesResponse) },
    },
    config: { access: { permission: Permission.companyManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await webhooks.deliveries(req.companyId, req.body.id)),
  });
}
