// HTTP of a company's threshold rules (company:manage): the list with what a rule may watch, save, delete.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alarmRuleIdRequest, alarmRuleListResponse, alarmRuleSaveRequest, Permission } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { AlarmRuleService } from './service.ts';

export async function alarmRuleRoutes(app: FastifyInstance, opts: { rules: AlarmRuleService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { rules } = opts;
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
}
