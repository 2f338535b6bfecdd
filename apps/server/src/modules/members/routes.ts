// HTTP of member invitations and applications: creating, listing and revoking invitations and reviewing the
// applications (user:manage); reading an invitation (anyone with the link) and applying through it (signed in).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APPLICATION_STATUSES,
  inviteApplyRequest,
  inviteApplyResponse,
  inviteCodeParams,
  inviteCreateRequest,
  inviteListRequest,
  inviteListResponse,
  invitePublicResponse,
  inviteRevokeRequest,
  memberAuditRequest,
  memberListRequest,
  memberListResponse,
  Permission,
} from '@genset/protocol';
import { envelope, emptyEnvelope } from '../../lib/envelope.ts';
import { clientInfo } from '../../plugins/auth.ts';
import type { Access } from '../../plugins/access.ts';
import { adminCaller } from '../roles/routes.ts';
import type { MemberService } from './service.ts';

export async function memberRoutes(app: FastifyInstance, opts: { members: MemberService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { members } = opts;
  const tags = ['members'];
  const preHandler = app.requireUser;
  const manage: Access = { permission: Permission.userManage, scope: 'company' };
  const fieldLabels = {
    roleId: 'role',
    departmentId: 'department',
    expiresAt: 'inviteExpiresAt',
    maxUses: 'inviteMaxUses',
  };
  const config = { access: manage, fieldLabels };

  r.post('/invite/create', {
    schema: {
      tags,
      summary:
        'Create an invitation link (user:manage): when it expires, how many may apply through it, and the role and ' +
        'department it proposes; answers its code and console path /invite/<code>',
      body: inviteCreateRequest,
      response: {
        200: envelope(z.object({ id: z.number().int(), code: z.string(), link: z.string() })),
      },
    },
    config,
    preHandler,
    handler: async (req, reply) =>
      reply.ok(await members.createInvitation(adminCaller(req), req.body), 'invite.created'),
  });

  r.get('/invite/list', {
    schema: {
      tags,
      summary: 'The company’s invitations, newest first (user:manage), with uses, expiry and whether still usable',
      querystring: inviteListRequest,
      response: { 200: envelope(inviteListResponse) },
    },
    config,
    preHandler,
    handler: async (req, reply) => reply.ok(await members.invitations(adminCaller(req), req.query)),
  });

  r.post('/invite/revoke', {
    schema: {
      tags,
      summary: 'Revoke an invitation (user:manage): nobody can apply through it any more',
      body: inviteRevokeRequest,
      response: { 200: emptyEnvelope },
    },
    config,
    preHandler,
    handler: async (req, reply) => {
      await members.revoke(adminCaller(req), req.body.id);
      return reply.ok(null, 'invite.revokedOk');
    },
  });

  r.get('/invite/info/:code', {
    schema: {
      tags,
      summary:
        'What an invitation offers, for anyone holding the link: the company, the role and department proposed, ' +
        'its expiry and whether it can still be used (and why not)',
      params: inviteCodeParams,
      response: { 200: envelope(invitePublicResponse) },
    },
    config: { access: { public: true, scope: 'none' } satisfies Access, fieldLabels: { code: 'inviteCode' } },
    handler: async (req, reply) => reply.ok(await members.publicInfo(req.params.code, req.lang)),
  });

  r.post('/invite/apply', {
    schema: {
      tags,
      summary:
        'Apply to join the invitation’s company (signed in); refused once it has expired, was revoked or is used ' +
        'up, and for someone already a member or with an application waiting',
      body: inviteApplyRequest,
      response: { 200: envelope(inviteApplyResponse) },
    },
    config: { access: { signedIn: true, scope: 'own' } satisfies Access, fieldLabels: { code: 'inviteCode' } },
    preHandler,
    handler: async (req, reply) =>
      reply.ok(await members.apply({ ctx: req.session!, ip: clientInfo(req).ip }, req.body.code), 'invite.applied'),
  });

  r.get('/member/list', {
    schema: {
      tags,
      summary:
        'Applications to join the company (user:manage), newest first, optionally by status (' +
        APPLICATION_STATUSES.join(', ') +
        '): the person, their account and its type, the invitation code, when applied and reviewed',
      querystring: memberListRequest,
      response: { 200: envelope(memberListResponse) },
    },
    config,
    preHandler,
    handler: async (req, reply) => reply.ok(await members.applications(adminCaller(req), req.query)),
  });

  r.post('/member/audit', {
    schema: {
      tags,
      summary:
        'Approve an application with a role and (optionally) a department of the company, or reject it ' +
        '(user:manage); a rejected person gets no access',
      body: memberAuditRequest,
      response: { 200: envelope(z.object({ status: z.enum(APPLICATION_STATUSES) })) },
    },
    config,
    preHandler,
    handler: async (req, reply) => {
      const out = await members.audit(adminCaller(req), req.body);
      return reply.ok(out, out.status === 'approved' ? 'members.approved' : 'members.rejected');
    },
  });
}
