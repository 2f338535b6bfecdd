// HTTP of handing sets over (spec 7, "Genset": /genset/transferdevice, and the console's transfer lists):
// request a handover, list one's pending and done records, accept or reject (the receiver), revoke (the sender).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  transferActionRequest,
  transferActionResponse,
  transferDeviceRequest,
  transferDeviceResponse,
  transferListRequest,
  transferListResponse,
} from '@genset/protocol';
import { clientInfo } from '../../plugins/auth.ts';
import { envelope } from '../../lib/envelope.ts';
import type { TransferCaller, TransferService } from './service.ts';

export async function transferRoutes(app: FastifyInstance, opts: { transfers: TransferService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { transfers } = opts;
  const tags = ['transfers'];
  const caller = (req: FastifyRequest): TransferCaller => ({ ctx: req.session!, ip: clientInfo(req).ip });
  // `account` is the receiving account, `id` a handover record
  const config = {
    fieldLabels: {
      account: 'transferRecipient',
      keepSubscription: 'transferKeep',
      remark: 'transferRemark',
      box: 'transferBox',
      id: 'transfer',
    },
  };

  r.post('/genset/transferdevice', {
    schema: {
      tags,
      summary:
        'Hand a set over (manage rights): the receiving account (not the caller; the answer is the same whether ' +
        'or not it exists, a record for a name nobody holds is never answered and stays until revoked), what the sender ' +
        'keeps once it is accepted (none, a view or a control subscription) and a remark. The record stays ' +
        'untreated until the receiver accepts or rejects it or the sender revokes it; a set has at most one ' +
        'untreated record (409). A refused request stores nothing',
      body: transferDeviceRequest,
      response: { 200: envelope(transferDeviceResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await transfers.request(caller(req), req.body), 'transfers.requested'),
  });

  r.post('/genset/transfer/list', {
    schema: {
      tags,
      summary:
        'The caller’s handover records, incoming and outgoing: pending (untreated, newest first) or done ' +
        '(accepted, rejected, revoked; latest processed first), with sender, receiver, set, status, handover ' +
        'time and processing time',
      body: transferListRequest,
      response: { 200: envelope(transferListResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await transfers.list(caller(req), req.body)),
  });

  r.post('/genset/transfer/accept', {
    schema: {
      tags,
      summary:
        'The receiver accepts: the set, its live data and its future history become theirs at once, the sender ' +
        'keeps the subscription chosen. 409 when the record was already accepted, rejected or revoked',
      body: transferActionRequest,
      response: { 200: envelope(transferActionResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await transfers.accept(caller(req), req.body.id), 'transfers.accepted'),
  });

  r.post('/genset/transfer/reject', {
    schema: {
      tags,
      summary: 'The receiver rejects an untreated handover; the set stays as it was',
      body: transferActionRequest,
      response: { 200: envelope(transferActionResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await transfers.reject(caller(req), req.body.id), 'transfers.rejected'),
  });

  r.post('/genset/transfer/revoke', {
    schema: {
      tags,
      summary: 'The sender revokes an untreated handover; the set stays as it was',
      body: transferActionRequest,
      response: { 200: envelope(transferActionResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await transfers.revoke(caller(req), req.body.id), 'transfers.revoked'),
  });
}
