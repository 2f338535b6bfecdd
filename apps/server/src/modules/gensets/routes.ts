// HTTP of set management and subscriptions (spec 7, "Genset"): /genset/* and /sub/*. Every call needs a
// signed-in user; what each may do on a set is decided by the services from the user's rights on it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  gensetAddRequest,
  gensetAddResponse,
  gensetCodesResponse,
  gensetDeleteRequest,
  gensetDeleteResponse,
  gensetExportRequest,
  gensetInfoResponse,
  gensetListRequest,
  gensetListResponse,
  gensetProtocolOptionsResponse,
  gensetSetDepartmentRequest,
  departmentOptionsResponse,
  setDepartmentResponse,
  gensetResetCodesRequest,
  gensetUpdateRequest,
  gensetUpdateResponse,
  subAddRequest,
  subAddResponse,
  subDelRequest,
  subDelResponse,
  subListRequest,
  subListResponse,
  subUpdateRequest,
  tokenRequest,
  Permission,
} from '@genset/protocol';
import { clientInfo } from '../../plugins/auth.ts';
import { emptyEnvelope, envelope } from '../../lib/envelope.ts';
import type { Caller, GensetService } from './service.ts';
import type { SubscriptionService } from './subscriptions.ts';
import { attachment, XLSX_TYPE, gensetsCsv, gensetsXlsx } from './export.ts';

export async function gensetRoutes(
  app: FastifyInstance,
  opts: { gensets: GensetService; subscriptions: SubscriptionService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { gensets, subscriptions } = opts;
  const tags = ['gensets'];
  const subTags = ['subscriptions'];
  const caller = (req: FastifyRequest): Caller => ({
    ctx: req.session!,
    grant: req.grant!,
    companyId: req.companyId,
    ip: clientInfo(req).ip,
    lang: req.lang,
    timeZone: req.timezone,
  });

  r.post('/genset/add', {
    schema: {
      tags,
      summary:
        'Add a set (needs genset:manage). A new module id is registered and its password returned once; a module ' +
        'of another company answers 409, as does a module port and address already taken.',
      body: gensetAddRequest,
      response: { 200: envelope(gensetAddResponse) },
    },
    // `size` of a set is its dimensions; elsewhere `size` is a page size
    config: { fieldLabels: { size: 'dimensions' }, access: { permission: Permission.gensetManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await gensets.add(caller(req), req.body), 'success.operation'),
  });

  r.post('/genset/update', {
    schema: {
      tags,
      summary: 'Change a set’s fields (manage rights): only the fields sent change; null clears one',
      body: gensetUpdateRequest,
      response: { 200: envelope(gensetUpdateResponse) },
    },
    config: { fieldLabels: { size: 'dimensions' }, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await gensets.update(caller(req), req.body), 'success.operation'),
  });

  r.post('/genset/del', {
    schema: {
      tags,
      summary: 'Delete up to 20 sets (manage rights on each; all or none). Their history stays for the audit period.',
      body: gensetDeleteRequest,
      response: { 200: envelope(gensetDeleteResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await gensets.remove(caller(req), req.body.tokens), 'success.operation'),
  });

  r.post('/genset/info', {
    schema: {
      tags,
      summary: 'Everything about one set; the codes only with manage rights',
      body: tokenRequest,
      response: { 200: envelope(gensetInfoResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await gensets.info(caller(req), req.body.token)),
  });

  r.post('/genset/mylist', {
    schema: {
      tags,
      summary: 'My gensets: owned and subscribed, by status and name or number, paged',
      body: gensetListRequest,
      response: { 200: envelope(gensetListResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    handler: async (req, reply) => reply.ok(await gensets.list(caller(req), 'mine', req.body)),
  });

  r.post('/genset/list', {
    schema: {
      tags,
      summary: 'The company’s sets within the role’s data scope (needs genset:manage), paged',
      body: gensetListRequest,
      response: { 200: envelope(gensetListResponse) },
    },
    config: { access: { permission: Permission.gensetManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await gensets.list(caller(req), 'company', req.body)),
  });

  r.post('/genset/export', {
    schema: {
      tags,
      summary:
        'The filtered list (mylist or list) as an XLSX or CSV file; the answer is the file itself, errors are envelopes',
      body: gensetExportRequest,
    },
    config: { access: { signedIn: true, scope: 'company' } },
    handler: async (req, reply) => {
      const { scope, format, ...query } = req.body;
      const rows = await gensets.exportRows(caller(req), scope === 'list' ? 'company' : 'mine', query);
      const day = new Date().toISOString().slice(0, 10);
      const name = `gensets-${day}.${format}`;
      const body =
        format === 'csv' ? gensetsCsv(rows, req.lang, req.timezone) : await gensetsXlsx(rows, req.lang, req.timezone);
      return reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE)
        .header('content-disposition', attachment(name))
        .header('cache-control', 'no-store')
        .send(body);
    },
  });

  r.post('/genset/setDepartment', {
    schema: {
      tags,
      summary:
        'Move up to 20 sets (manage rights on each; all or none) to a department of the company, or back to their owners’ (null)',
      body: gensetSetDepartmentRequest,
      response: { 200: envelope(setDepartmentResponse) },
    },
    config: { access: { permission: Permission.gensetManage, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await gensets.setDepartment(caller(req), req.body), 'success.operation'),
  });

  r.post('/genset/departments', {
    schema: {
      tags,
      summary: 'The company’s departments in tree order (the department field of the set and station forms)',
      body: z.object({}).optional(),
      response: { 200: envelope(departmentOptionsResponse) },
    },
    config: { access: { permission: [Permission.gensetManage, Permission.siteManage], scope: 'company' } },
    handler: async (req, reply) => reply.ok(await gensets.departments(caller(req))),
  });

  r.post('/genset/protocols', {
    schema: {
      tags,
      summary: 'Published protocols a set may use (for the add and edit forms)',
      body: z.object({}).optional(),
      response: { 200: envelope(gensetProtocolOptionsResponse) },
    },
    config: { access: { signedIn: true, scope: 'none' } },
    handler: async (req, reply) => reply.ok(await gensets.protocolOptions(req.lang)),
  });

  r.post('/genset/resetcodes', {
    schema: {
      tags,
      summary: 'New subscription and control codes (manage rights); the old codes stop working',
      body: gensetResetCodesRequest,
      response: { 200: envelope(gensetCodesResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await gensets.resetCodes(caller(req), req.body.token), 'success.operation'),
  });

  r.post('/sub/add', {
    schema: {
      tags: subTags,
      summary:
        'Subscribe with a subscription code (view rights) or a control code (control rights). A wrong code answers ' +
        '400 without saying whether the set exists; repeated wrong codes answer 429 with retryAfter.',
      body: subAddRequest,
      response: { 200: envelope(subAddResponse) },
    },
    config: { fieldLabels: { code: 'subscriptionCode' }, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await subscriptions.subscribe(caller(req), req.body.code), 'gensets.subscribed'),
  });

  r.post('/sub/list', {
    schema: {
      tags: subTags,
      summary: 'With a token: the set’s subscribers (manage rights). Without: my subscriptions.',
      body: subListRequest,
      response: { 200: envelope(subListResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await subscriptions.list(caller(req), req.body)),
  });

  r.post('/sub/update', {
    schema: {
      tags: subTags,
      summary: 'The owner (manage rights) changes a subscriber’s rights',
      body: subUpdateRequest,
      response: { 200: emptyEnvelope },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await subscriptions.update(caller(req), req.body), 'success.operation'),
  });

  r.post('/sub/del', {
    schema: {
      tags: subTags,
      summary: '`token`: unsubscribe myself from that set. `ids`: the owner removes up to 20 subscribers.',
      body: subDelRequest,
      response: { 200: envelope(subDelResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await subscriptions.remove(caller(req), req.body), 'success.operation'),
  });
}
