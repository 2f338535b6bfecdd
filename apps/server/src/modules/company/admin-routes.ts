// HTTP of company administration (the platform administrator) and of the companies a person belongs to.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALL_PERMISSIONS,
  LOGO_BYTES_MAX,
  Permission,
  ResultCode,
  companyAddRequest,
  companyIdRequest,
  companyIdentifie,
  companyListRequest,
  companyListResponse,
  companyUpdateRequest,
  idParams,
  logoUploadResponse,
  userCompanyListResponse,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import type { CompanyAdmin } from './admin.ts';
import { LogoRefused, type LogoStore } from './logos.ts';

const KB = Math.round(LOGO_BYTES_MAX / 1024);

export async function companyAdminRoutes(app: FastifyInstance, opts: { admin: CompanyAdmin; logos: LogoStore }) {
  const { admin, logos } = opts;
  await app.register(multipart, { limits: { fileSize: LOGO_BYTES_MAX, files: 1, fields: 5, fieldSize: 1024 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['company'];
  const preHandler = app.requireUser;
  const platform = { access: { permission: Permission.companyManage, scope: 'platform' } } as const;
  const fieldLabels = {
    name: 'companyName',
    title: 'companyTitle',
    contactPerson: 'contactPerson',
    contactPhone: 'contactPhone',
    contactEmail: 'contactEmail',
    hosts: 'hosts',
    logo: 'logo',
    mapKey: 'mapKey',
    currency: 'currency',
    timeZone: 'timeZone',
  };

  r.get('/company/list', {
    schema: {
      tags,
      summary: 'Every company (platform administrator), a page at a time, searched by name, title or host name',
      querystring: companyListRequest,
      response: { 200: envelope(companyListResponse) },
    },
    config: platform,
    preHandler,
    handler: async (req, reply) => reply.ok(await admin.list(req.session!, req.query)),
  });

  r.post('/company/add', {
    schema: {
      tags,
      summary: 'Add a company (platform administrator); a host name another company has is refused (409)',
      body: companyAddRequest,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    config: { ...platform, fieldLabels },
    preHandler,
    handler: async (req, reply) => reply.ok(await admin.add(req.session!, req.ip, req.body), 'company.added'),
  });

  r.post('/company/update', {
    schema: {
      tags,
      summary: 'Edit a company (platform administrator); a host name another company has is refused (409)',
      body: companyUpdateRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { ...platform, fieldLabels },
    preHandler,
    handler: async (req, reply) => {
      await admin.update(req.session!, req.ip, req.body);
      return reply.ok(null, 'success.saved');
    },
  });

  r.post('/company/del', {
    schema: {
      tags,
      summary: 'Delete a company (platform administrator); refused (409) while it owns sets',
      body: companyIdRequest,
      response: { 200: envelope(z.null()) },
    },
    config: platform,
    preHandler,
    handler: async (req, reply) => {
      await admin.remove(req.session!, req.ip, req.body.id);
      return reply.ok(null, 'company.deleted');
    },
  });

  r.get('/company/getIdentifie/:id', {
    schema: {
      tags,
      summary: 'A company’s name and host names (its own people, or the platform administrator)',
      params: idParams,
      response: { 200: envelope(companyIdentifie) },
    },
    config: { access: { signedIn: true, scope: 'company' } },
    preHandler,
    handler: async (req, reply) => reply.ok(await admin.identifie(req.session!, req.params.id)),
  });

  r.get('/company/getUserCompanyList', {
    schema: {
      tags,
      summary: 'The companies the signed-in person belongs to (for switching: send the id in X-Companyid)',
      response: { 200: envelope(userCompanyListResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } },
    preHandler,
    handler: async (req, reply) => reply.ok(await admin.userCompanies(req.session!.user.id, req.companyId, req.lang)),
  });

  r.post('/company/uploadLogo', {
    schema: {
      tags,
      summary:
        `Upload a company logo (platform administrator; multipart/form-data, the file in "file", at most ${KB} KB): ` +
        'PNG, JPEG or SVG by its content; an SVG with script, event handlers or outside references is refused. ' +
        'Answers the address to save with the company',
      consumes: ['multipart/form-data'],
      response: { 200: envelope(logoUploadResponse) },
    },
    config: platform,
    preHandler,
    handler: async (req, reply) => {
      if (!req.grant!.permissions.includes(ALL_PERMISSIONS)) throw forbidden();
      if (!req.isMultipart()) throw new AppError(ResultCode.invalid, 'company.logoType');
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > LOGO_BYTES_MAX + 16 * 1024)
        throw new AppError(ResultCode.invalid, 'company.logoTooLarge', { kb: KB });
      let bytes: Buffer | undefined;
      try {
        const file = await req.file();
        if (!file) throw new AppError(ResultCode.invalid, 'company.logoType');
        bytes = await file.toBuffer();
      } catch (err) {
        if (err instanceof AppError) throw err;
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError(ResultCode.invalid, 'company.logoTooLarge', { kb: KB });
        throw new AppError(ResultCode.invalid, 'errors.invalidBody');
      }
      try {
        return reply.ok({ logo: await logos.keep(bytes) }, 'company.logoUploaded');
      } catch (err) {
        if (err instanceof LogoRefused) throw new AppError(ResultCode.invalid, err.key, { kb: KB });
        throw err;
      }
    },
  });
}
