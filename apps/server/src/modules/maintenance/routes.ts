// HTTP of maintenance plans: a set's plan, items, tasks and history; the pending tasks over the sets one sees
// and their counts; the company's templates; maintenance links and the public, read-only view they open.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  maintCountsResponse,
  maintDoneResponse,
  maintHistoryRequest,
  maintHistoryResponse,
  maintIdResponse,
  maintItemRef,
  maintItemSaveRequest,
  maintItemToggleRequest,
  maintPlanRequest,
  maintPlanResponse,
  maintPublicRequest,
  maintPublicResponse,
  maintTaskDoneRequest,
  maintTasksRequest,
  maintTasksResponse,
  maintTemplateApplyRequest,
  maintTemplateApplyResponse,
  maintTemplateDeleteRequest,
  maintTemplateListRequest,
  maintTemplateListResponse,
  maintTemplateSaveRequest,
  mtokenCreateRequest,
  mtokenCreateResponse,
  mtokenRevokeRequest,
  Permission,
} from '@genset/protocol';
import { z } from 'zod';
import { clientInfo } from '../../plugins/auth.ts';
import { envelope } from '../../lib/envelope.ts';
import type { MaintCaller, MaintenanceService } from './service.ts';

export async function maintenanceRoutes(app: FastifyInstance, opts: { maintenance: MaintenanceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { maintenance: m } = opts;
  const tags = ['maintenance'];
  const caller = (req: FastifyRequest): MaintCaller => ({ ctx: req.session!, ip: clientInfo(req).ip });
  const config = {
    fieldLabels: {
      name: 'maintName',
      cycleDays: 'maintCycleDays',
      cycleHours: 'maintCycleHours',
      remindDays: 'maintRemindDays',
      remindHours: 'maintRemindHours',
      latestDate: 'maintLatestDate',
      latestHours: 'maintLatestHours',
      plannedDate: 'maintPlannedDate',
      actualDate: 'maintActualDate',
      runHours: 'maintRunHours',
      replacedModel: 'maintReplacedModel',
      remark: 'maintRemark',
      model: 'maintModel',
      items: 'maintItems',
      tokens: 'maintSets',
      days: 'maintLinkDays',
      mtoken: 'maintLink',
    },
  };

  r.post('/maintain/plan', {
    schema: {
      tags,
      summary:
        'A set’s maintenance plan (view rights): each item with its cycle, latest service, planned date, its ' +
        'pending task’s due date and hours and its state now (ok, due within the reminder, overdue); the set’s ' +
        'calendar day and run hours; what the caller may do; the valid maintenance links (manage rights)',
      body: maintPlanRequest,
      response: { 200: envelope(maintPlanResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.plan(caller(req), req.body.token)),
  });

  r.post('/maintain/item/save', {
    schema: {
      tags,
      summary:
        'Add or change an item (manage rights): a cycle in days and/or run hours is needed, a reminder no ' +
        'longer than its cycle, a latest date not in the future, a name not used twice in the set. The pending ' +
        'task is due from the latest service (or on the planned date)',
      body: maintItemSaveRequest,
      response: { 200: envelope(maintIdResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.saveItem(caller(req), req.body), 'maintenance.saved'),
  });

  r.post('/maintain/item/delete', {
    schema: {
      tags,
      summary: 'Delete an item with its tasks (manage rights)',
      body: maintItemRef,
      response: { 200: envelope(maintIdResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.deleteItem(caller(req), req.body), 'maintenance.deleted'),
  });

  r.post('/maintain/item/toggle', {
    schema: {
      tags,
      summary: 'Enable or disable an item (manage rights); a disabled item is neither reminded of nor counted',
      body: maintItemToggleRequest,
      response: { 200: envelope(maintIdResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.toggleItem(caller(req), req.body), 'maintenance.saved'),
  });

  r.post('/maintain/task/done', {
    schema: {
      tags,
      summary:
        'Mark a pending task done (control rights): the actual date (not in the future), run hours then ' +
        '(default: the set’s run hours now), replaced model and remark, by the caller. The item’s next task is ' +
        'due from the actual date and hours. 409 when it was done already',
      body: maintTaskDoneRequest,
      response: { 200: envelope(maintDoneResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.done(caller(req), req.body), 'maintenance.doneSaved'),
  });

  r.post('/maintain/history', {
    schema: {
      tags,
      summary: 'The done tasks of a set (view rights), latest first',
      body: maintHistoryRequest,
      response: { 200: envelope(maintHistoryResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.history(caller(req), req.body)),
  });

  r.post('/maintain/tasks', {
    schema: {
      tags,
      summary:
        'Pending tasks of enabled items over the sets the caller sees: due and overdue ones (default), only ' +
        'overdue ones, or all; overdue first, then by due date',
      body: maintTasksRequest,
      response: { 200: envelope(maintTasksResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await m.tasks(req.session!, req.body)),
  });

  r.post('/maintain/counts', {
    schema: {
      tags,
      summary: 'How many tasks are due (within their reminder) and overdue over the sets the caller sees',
      body: z.strictObject({}).optional(),
      response: { 200: envelope(maintCountsResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await m.counts(req.session!)),
  });

  r.post('/maintain/template/list', {
    schema: {
      tags,
      summary:
        'The company’s templates of maintenance items per set model (genset:manage), with how many sets have the model',
      body: maintTemplateListRequest.optional(),
      response: { 200: envelope(maintTemplateListResponse) },
    },
    config: { ...config, access: { permission: Permission.gensetManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await m.templates(req.session!)),
  });

  r.post('/maintain/template/save', {
    schema: {
      tags,
      summary: 'Add or change a template (genset:manage): a name, the set model and its items (each with a cycle)',
      body: maintTemplateSaveRequest,
      response: { 200: envelope(maintIdResponse) },
    },
    config: { ...config, access: { permission: Permission.gensetManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await m.saveTemplate(caller(req), req.body), 'maintenance.saved'),
  });

  r.post('/maintain/template/delete', {
    schema: {
      tags,
      summary: 'Delete a template (genset:manage); the items it added to sets stay',
      body: maintTemplateDeleteRequest,
      response: { 200: envelope(maintIdResponse) },
    },
    config: { ...config, access: { permission: Permission.gensetManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await m.deleteTemplate(caller(req), req.body.id), 'maintenance.deleted'),
  });

  r.post('/maintain/template/apply', {
    schema: {
      tags,
      summary:
        'Apply a template to the sets named (manage rights on each) and/or every set of its model the caller ' +
        'manages, in one transaction; items a set already has under the same name are left out',
      body: maintTemplateApplyRequest,
      response: { 200: envelope(maintTemplateApplyResponse) },
    },
    config: { ...config, access: { permission: Permission.gensetManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await m.applyTemplate(caller(req), req.body), 'maintenance.applied'),
  });

  r.post('/maintain/mtoken/create', {
    schema: {
      tags,
      summary:
        'A maintenance link of a set (manage rights), valid for 1 to 90 days: the token is shown once and ' +
        'opens /top/maintain?mtoken=… read-only without an account',
      body: mtokenCreateRequest,
      response: { 200: envelope(mtokenCreateResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.createLink(caller(req), req.body), 'maintenance.linkCreated'),
  });

  r.post('/maintain/mtoken/revoke', {
    schema: {
      tags,
      summary: 'Revoke a maintenance link of a set (manage rights); it opens nothing from then on',
      body: mtokenRevokeRequest,
      response: { 200: envelope(maintIdResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await m.revokeLink(caller(req), req.body), 'maintenance.linkRevoked'),
  });

  r.post('/maintain/public', {
    schema: {
      tags,
      summary:
        'What a maintenance link shows, without a session: the set’s name, plan and latest done tasks, ' +
        'read-only. 403 with the reason when the link is unknown, revoked or expired',
      body: maintPublicRequest,
      response: { 200: envelope(maintPublicResponse) },
    },
    config: { ...config, access: { public: true } },
    handler: async (req, reply) => reply.ok(await m.publicView(req.body.mtoken)),
  });
}
