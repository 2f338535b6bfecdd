// HTTP of a company's roles (role:manage): the list, one role, creating, editing, deleting and enabling or
// disabling one, and the editor's choices (/role/getDataAuthRole).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  dataAuthRoleResponse,
  Permission,
  roleDeleteRequest,
  roleIdParams,
  roleItem,
  roleListRequest,
  roleListResponse,
  roleSaveRequest,
  roleSaveResponse,
  roleStatusRequest,
  roleUpdateRequest,
} from '@genset/protocol';
import { z } from 'zod';
import { envelope, emptyEnvelope } from '../../lib/envelope.ts';
import { clientInfo } from '../../plugins/auth.ts';
import type { Access } from '../../plugins/access.ts';
import { ROLE_READERS, type AdminCaller, type RoleService } from './service.ts';

export function adminCaller(req: FastifyRequest): AdminCaller {
  return { ctx: req.session!, companyId: req.companyId, ip: clientInfo(req).ip, lang: req.lang };
}

export async function roleRoutes(app: FastifyInstance, opts: { roles: RoleService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { roles } = opts;
  const tags = ['roles'];
  const preHandler = app.requireUser;
  const access: Access = { permission: Permission.roleManage, scope: 'company' };
  const config = { access, fieldLabels: { name: 'roleName', sets: 'roleSets', sites: 'roleSites' } };

  r.get('/role/list', {
    schema: {
      tags,
      summary:
        'The company’s roles (role:manage, or user:manage to give people a role), optionally by part of the name ' +
        'and by status: permissions, pages, data scope, chosen sets and stations, how many people hold each',
      querystring: roleListRequest,
      response: { 200: envelope(roleListResponse) },
    },
    config: { ...config, access: { permission: ROLE_READERS, scope: 'company' } },
    preHandler,
    handler: async (req, reply) => reply.ok(await roles.list(adminCaller(req), req.query)),
  });

  r.get('/role/info/:id', {
    schema: {
      tags,
      summary: 'One role of the company (role:manage); another company’s is not found',
      params: roleIdParams,
      response: { 200: envelope(roleItem) },
    },
    config,
    preHandler,
    handler: async (req, reply) => reply.ok(await roles.info(adminCaller(req), req.params.id)),
  });

  r.post('/role/save', {
    schema: {
      tags,
      summary:
        'Create a role (role:manage): a name, at least one permission, the pages shown (none: every page the ' +
        'permissions allow), the data scope and, for the custom scope, sets and stations of the company',
      body: roleSaveRequest,
      response: { 200: envelope(roleSaveResponse) },
    },
    config,
    preHandler,
    handler: async (req, reply) => reply.ok(await roles.save(adminCaller(req), req.body), 'roles.saved'),
  });

  r.post('/role/update', {
    schema: {
      tags,
      summary: 'Edit a role (role:manage): the same fields as /role/save; its holders get the change at once',
      body: roleUpdateRequest,
      response: { 200: envelope(roleSaveResponse) },
    },
    config,
    preHandler,
    handler: async (req, reply) => reply.ok(await roles.update(adminCaller(req), req.body), 'roles.saved'),
  });

  r.post('/role/delete', {
    schema: {
      tags,
      summary: 'Delete a role (role:manage); refused for the built-in roles and while anyone holds it',
      body: roleDeleteRequest,
      response: { 200: emptyEnvelope },
    },
    config,
    preHandler,
    handler: async (req, reply) => {
      await roles.remove(adminCaller(req), req.body.id);
      return reply.ok(null, 'roles.deleted');
    },
  });

  r.post('/user/roleStatus', {
    schema: {
      tags,
      summary: 'Enable (1) or disable (0) a role (role:manage); a disabled role grants nothing, at once',
      body: roleStatusRequest,
      response: { 200: emptyEnvelope },
    },
    config,
    preHandler,
    handler: async (req, reply) => {
      await roles.setStatus(adminCaller(req), req.body.id, req.body.status);
      return reply.ok(null, req.body.status === 1 ? 'roles.enabled' : 'roles.disabled');
    },
  });

  r.get('/role/getDataAuthRole', {
    schema: {
      tags,
      summary:
        'What the role editor offers (role:manage): the tree of actions and pages with their titles, the data ' +
        'scopes, and the company’s sets and stations for the custom scope',
      querystring: z.strictObject({}),
      response: { 200: envelope(dataAuthRoleResponse) },
    },
    config,
    preHandler,
    handler: async (req, reply) => reply.ok(await roles.dataAuth(adminCaller(req))),
  });
}
