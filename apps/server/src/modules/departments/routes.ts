// HTTP of a company's department tree (spec 7, "Department").
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Permission,
  departmentAddRequest,
  departmentIdRequest,
  departmentTreeResponse,
  departmentUpdateRequest,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { DepartmentService } from './service.ts';

export async function departmentRoutes(app: FastifyInstance, opts: { departments: DepartmentService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { departments } = opts;
  const tags = ['department'];
  const preHandler = app.requireUser;
  const manage = { access: { permission: Permission.departmentManage, scope: 'company' } } as const;

  r.get('/dept/list', {
    schema: {
      tags,
      summary:
        'The department tree of the company with the number of people of each department (department:manage or ' +
        'user:manage), as far as the role’s data scope reaches: the whole company with a company scope, the ' +
        'caller’s department and those below it with a department-tree scope, else the caller’s department alone',
      response: { 200: envelope(departmentTreeResponse) },
    },
    config: { access: { permission: [Permission.departmentManage, Permission.userManage], scope: 'company' } },
    preHandler,
    handler: async (req, reply) => reply.ok(await departments.tree(req.companyId, req.session!)),
  });

  r.post('/dept/add', {
    schema: {
      tags,
      summary:
        'Add a department (department:manage), at the top (a company scope) or under another within the role’s ' +
        'data scope, else 403 naming what lies beyond reach',
      body: departmentAddRequest,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    config: { ...manage, fieldLabels: { name: 'departmentName', parentId: 'departmentParent' } },
    preHandler,
    handler: async (req, reply) =>
      reply.ok(await departments.add(req.session!, req.companyId, req.ip, req.body), 'departments.added'),
  });

  r.post('/dept/update', {
    schema: {
      tags,
      summary:
        'Rename or move a department (department:manage) within the role’s data scope; a move into its own branch ' +
        'is refused (409), and a move takes reaching the department with those below it and the new parent (the ' +
        'top of the tree: a company scope), else 403 naming what lies beyond reach',
      body: departmentUpdateRequest,
      response: { 200: envelope(z.null()) },
    },
    config: { ...manage, fieldLabels: { name: 'departmentName', parentId: 'departmentParent' } },
    preHandler,
    handler: async (req, reply) => {
      await departments.update(req.session!, req.companyId, req.ip, req.body);
      return reply.ok(null, 'success.saved');
    },
  });

  r.post('/dept/delete', {
    schema: {
      tags,
      summary:
        'Delete a department (department:manage) within the role’s data scope (else 403 naming what lies beyond ' +
        'reach); refused (409) while it has people or departments below',
      body: departmentIdRequest,
      response: { 200: envelope(z.null()) },
    },
    config: manage,
    preHandler,
    handler: async (req, reply) => {
      await departments.remove(req.session!, req.companyId, req.ip, req.body.id);
      return reply.ok(null, 'departments.deleted');
    },
  });
}
