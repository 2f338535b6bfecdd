// HTTP of parallel and multi-machine groups (spec 7, "Genset"): the navigation list, one group's members and
// items, saving a group's members and layout, deleting a group.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  groupCommandJob,
  groupCommandJobRequest,
  groupCommandJobResponse,
  groupCommandRequest,
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
import type { GroupCommands } from './commands.ts';

export async function groupRoutes(app: FastifyInstance, opts: { groups: GroupService; commands: GroupCommands }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { groups, commands } = opts;
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

  r.post('/genset/groupCommand', {
    schema: {
      tags,
      summary:
        'Give a command to every set of a group (a risky one with the password): the server records the job and ' +
        'sends it set by set through each set’s command path (a parallel group’s sets at once), each outcome in the ' +
        'job and the operation log, whether or not the page stays open; a set the caller may not control is refused, ' +
        'the others carry on. 409 while a command to the group is still running. Answers the job as it starts',
      body: groupCommandRequest,
      response: { 200: envelope(groupCommandJob) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await commands.start(req.session!, req.body, req.lang, req.ip)),
  });

  r.post('/genset/groupCommandJob', {
    schema: {
      tags,
      summary:
        'A command given to a group (by id, else the latest): each set’s state and outcome in the request’s ' +
        'language, and whether it is still running; null when the group has had none',
      body: groupCommandJobRequest,
      response: { 200: envelope(groupCommandJobResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await commands.job(req.session!, req.body.token, req.body.id, req.lang)),
  });
}
