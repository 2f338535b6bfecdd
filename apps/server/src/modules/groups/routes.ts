// HTTP of parallel and multi-machine groups (spec 7, "Genset"): the navigation list, one group's members and
// items, saving a group's members and layout, deleting a group.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  groupDeleteRequest,
  groupDeleteResponse,
  groupItemRequest,
  groupItemResponse,
  groupNavRequest,
  groupNavResponse,
  groupSaveRequest,
  groupSaveResponse,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { GroupService } from './service.ts';

export async function groupRoutes(app: FastifyInstance, opts: { groups: GroupService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { groups } = opts;
  const tags = ['groups'];
  // `token` names a group here, not a set
  const config = { fieldLabels: { token: 'group' } };

  r.post('/genset/getNav', {
    schema: {
      tags,
      summary:
        'The navigation list: the parallel and multi-machine groups whose every set the caller sees, by name, each ' +
        'with its sets in order (status, alarms, module online) and the least of the caller’s rights on them',
      body: groupNavRequest,
      response: { 200: envelope(groupNavResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await groups.nav(req.session!, req.body.kind)),
  });

  r.post('/genset/getZuItem', {
    schema: {
      tags,
      summary:
        'One group: its members in order with rights, status, the latest values of the group’s items, breaker and ' +
        'bus readings, and the bus (voltage, frequency, total kW and kVA). 404 unless the caller sees every member',
      body: groupItemRequest,
      response: { 200: envelope(groupItemResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await groups.item(req.session!, req.body.token, req.lang)),
  });

  r.post('/genset/savedevxml', {
    schema: {
      tags,
      summary:
        'Save a group (without token: a new one): name, kind (parallel: one bus; multi: one site), the member sets ' +
        'in the order shown and the items shown for each. Needs manage rights on every member, old and new; all ' +
        'members of one company; a set is in at most one group of each kind. A refused save changes nothing',
      body: groupSaveRequest,
      response: { 200: envelope(groupSaveResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await groups.save(req.session!, req.body, req.ip), 'groups.saved'),
  });

  r.post('/genset/delZu', {
    schema: {
      tags,
      summary: 'Delete a group (manage rights on every member); its sets stay as they are',
      body: groupDeleteRequest,
      response: { 200: envelope(groupDeleteResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await groups.remove(req.session!, req.body.token, req.ip), 'groups.deleted'),
  });
}
