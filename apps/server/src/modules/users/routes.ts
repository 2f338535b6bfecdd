// HTTP of a company's people (spec 7, "User"): the administrators' calls (user:manage). The account's own calls
// (sign-in, password, profile, deleting one's own account) are in modules/auth/routes.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Permission,
  idParams,
  userAddRequest,
  userIdRequest,
  userItem,
  userListRequest,
  userListResponse,
  userMoveRequest,
  userResetPasswordRequest,
  userStatusRequest,
  userUpdateRequest,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { UserAdmin } from './service.ts';

export async function userAdminRoutes(app: FastifyInstance, opts: { users: UserAdmin }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users } = opts;
  const tags = ['user'];
  const preHandler = app.requireUser;
  const manage = { access: { permission: Permission.userManage, scope: 'company' } } as const;
  const fieldLabels = {
    account: 'username',
    password: 'temporaryPassword',
    departmentId: 'department',
    roleId: 'role',
    userId: 'user',
  };

  r.get('/user/list', {
    schema: {
      tags,
      summary:
        'People of the company (user:manage): search by account or nickname, filter by department, role, status and ' +
        'account type, a page at a time',
      querystring: userListRequest,
      response: { 200: envelope(userListResponse) },
    },
    config: { ...manage, fieldLabels },
    preHandler,
    handler: async (req, reply) => reply.ok(await users.list(req.session!, req.companyId, req.query, req.lang)),
  });

  r.get('/user/info/:id', {
    schema: {
      tags,
      summary: 'One person of the company (user:manage); another company’s is not found',
      params: idParams,
      response: { 200: envelope(userItem) },
    },
    config: manage,
    preHandler,
    handler: async (req, reply) => reply.ok(await users.info(req.session!, req.companyId, req.params.id, req.lang)),
  });

  r.post('/user/add', {
    schema: {
      tags,
      summary:
        'Add a person to the company with a temporary password (user:manage); they change it at the first sign-in',
      body: userAddRequest,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    config: { ...manage, fieldLabels },
    preHandler,
    handler: async (req, reply) =>
      reply.ok(await users.add(req.session!, req.companyId, req.ip, req.body), 'users.added'),
  });

  r.post('/user/update', {
    schema: {
      tags,
      summary: 'Edit a person of the company: nickname, account type, department, role (user:manage)',
      body: userUpdateRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { ...manage, fieldLabels },
    preHandler,
    handler: async (req, reply) => {
      await users.update(req.session!, req.companyId, req.ip, req.body);
      return reply.ok(null, 'success.saved');
    },
  });

  r.post('/user/updateUserid', {
    schema: {
      tags,
      summary: 'Move a person to another department and/or role (user:manage)',
      body: userMoveRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { ...manage, fieldLabels },
    preHandler,
    handler: async (req, reply) => {
      await users.move(req.session!, req.companyId, req.ip, req.body);
      return reply.ok(null, 'success.saved');
    },
  });

  r.post('/user/delete', {
    schema: {
      tags,
      summary:
        'Remove a person from the company (user:manage); the last administrator cannot be removed. One who belongs ' +
        'to no other company has their account closed',
      body: userIdRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { ...manage, fieldLabels },
    preHandler,
    handler: async (req, reply) => {
      await users.remove(req.session!, req.companyId, req.ip, req.body.userId);
      return reply.ok(null, 'users.removed');
    },
  });

  r.post('/user/resetpassword', {
    schema: {
      tags,
      summary:
        'Set a temporary password (user:manage, home company): the person is signed out and must change it at the ' +
        'next sign-in',
      body: userResetPasswordRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { ...manage, fieldLabels },
    preHandler,
    handler: async (req, reply) => {
      await users.resetPassword(req.session!, req.companyId, req.ip, req.body.userId, req.body.password);
      return reply.ok(null, 'users.passwordSet');
    },
  });

  r.post('/user/userStatus', {
    schema: {
      tags,
      summary:
        'Enable or disable an account (user:manage, home company); a disabled person is signed out at once ' +
        'everywhere. The last administrator cannot be disabled',
      body: userStatusRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { ...manage, fieldLabels },
    preHandler,
    handler: async (req, reply) => {
      await users.setStatus(req.session!, req.companyId, req.ip, req.body.userId, req.body.status);
      return reply.ok(null, req.body.status === 'enabled' ? 'users.enabled' : 'users.disabled');
    },
  });
}
