// HTTP of a company's threshold rules (company:manage): the list with what a rule may watch, save, delete.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alarmPolicyResponse,
  alarmPolicySaveRequest,
  alarmRuleIdRequest,
  alarmRuleListResponse,
  alarmRuleSaveRequest,
  Permission,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { AlarmRuleService } from './service.ts';
import type { AlarmPolicyService } from './policy.ts';

export async function alarmRuleRoutes(
  app: FastifyInstance,
  opts: { rules: AlarmRuleService; policy: AlarmPolicyService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { rules, policy } = opts;
  const tags = ['alarms'];
  const access = { permission: Permission.companyManage, scope: 'company' } as const;

  r.post('/alarm/rule/list', {
    schema: {
      tags,
      summary:
        'The company’s threshold rules with the alarms each has open, the numeric items and the controller models ' +
        'its sets have (company:manage)',
      response: { 200: envelope(alarmRuleListResponse) },
    },
    config: { access },
    handler: async (req, reply) => reply.ok(await rules.list(req.companyId, req.lang)),
  });

  r.post('/alarm/rule/save', {
    schema: {
      tags,
      summary:
        'Adds a threshold rule (without id) or edits one: name, item, above or below a threshold, hysteresis, ' +
        'delay in seconds, level, and the sets it watches (the fleet, controller models, chosen sets) (company:manage)',
      body: alarmRuleSaveRequest,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    config: { fieldLabels: { name: 'alarmRuleName', item: 'alarmRuleItem', threshold: 'alarmRuleThreshold' }, access },
    handler: async (req, reply) =>
      reply.ok(await rules.save(req.session!, req.companyId, req.ip, req.body), 'success.saved'),
  });

  r.post('/alarm/rule/delete', {
    schema: {
      tags,
      summary:
        'Deletes a threshold rule of the company; its open alarms end with their sets’ next readings (company:manage)',
      body: alarmRuleIdRequest,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    config: { access },
    handler: async (req, reply) =>
      reply.ok(await rules.remove(req.session!, req.companyId, req.ip, req.body.id), 'success.operation'),
  });

  r.post('/alarm/policy', {
    schema: {
      tags,
      summary:
        'The company’s alarm policy: the hold time of its episodes, and whom an episode nobody acknowledged is ' +
        'escalated to after how long, with the people who may be named (company:manage)',
      response: { 200: envelope(alarmPolicyResponse) },
    },
    config: { access },
    handler: async (req, reply) => reply.ok(await policy.get(req.companyId)),
  });

  r.post('/alarm/policy/save', {
    schema: {
      tags,
      summary:
        'Sets the company’s alarm policy: hold time (0–3,600 s), escalation after minutes (or null) and the ' +
        'people it goes to (company:manage)',
      body: alarmPolicySaveRequest,
      response: { 200: envelope(z.object({ ok: z.boolean() })) },
    },
    config: {
      fieldLabels: { holdSeconds: 'alarmHold', escalateAfterMinutes: 'escalateAfter', escalateTo: 'escalateTo' },
      access,
    },
    handler: async (req, reply) =>
      reply.ok(await policy.save(req.session!, req.companyId, req.ip, req.body), 'success.saved'),
  });
}
