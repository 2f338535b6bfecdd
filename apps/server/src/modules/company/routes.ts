// HTTP of the company calls the console needs before and after sign-in (branding, own company).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ALL_PERMISSIONS, companyInfo, companyPublic, hostnameQuery, idParams } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import { notFound } from '../../lib/errors.ts';
import type { CompanyService } from './service.ts';

export async function companyRoutes(app: FastifyInstance, opts: { companies: CompanyService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { companies } = opts;
  const tags = ['company'];

  r.get('/company/getName', {
    schema: {
      tags,
      summary: 'Company name and title for a host name (page title)',
      querystring: hostnameQuery,
      response: { 200: envelope(companyPublic) },
    },
    config: { access: { public: true } },
    handler: async (req, reply) => reply.ok(await companies.byHost(req.query.hostname)),
  });

  r.get('/company/getlogo', {
    schema: {
      tags,
      summary: 'Company logo for a host name',
      querystring: hostnameQuery,
      response: { 200: envelope(companyPublic) },
    },
    config: { access: { public: true } },
    handler: async (req, reply) => reply.ok(await companies.byHost(req.query.hostname)),
  });

  r.get('/company/getinfo/:id', {
    schema: {
      tags,
      summary: 'A company the user belongs to (any for a platform administrator)',
      params: idParams,
      response: { 200: envelope(companyInfo) },
    },
    config: { access: { signedIn: true, scope: 'company' } },
    handler: async (req, reply) => {
      const own = req.session!.user.company_id === req.params.id;
      // Another tenant's company is "not found", never "forbidden": existence is not revealed.
      if (!own && !req.grant!.permissions.includes(ALL_PERMISSIONS)) throw notFound();
      return reply.ok(await companies.info(req.params.id));
    },
  });
}
