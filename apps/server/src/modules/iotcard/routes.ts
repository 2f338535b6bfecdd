// HTTP of SIM cards: a card's usage against its plan (`/iotcard/getinfo`, the spec's call) and setting the plan.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  iotcardInfoRequest,
  iotcardInfoResponse,
  iotcardSetPlanRequest,
  iotcardSetPlanResponse,
} from '@genset/protocol';
import { clientInfo } from '../../plugins/auth.ts';
import { envelope } from '../../lib/envelope.ts';
import type { SimService } from './service.ts';

export async function iotcardRoutes(app: FastifyInstance, opts: { sims: SimService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sims } = opts;
  const tags = ['iotcard'];
  const config = {
    fieldLabels: {
      token: 'simSet',
      iccid: 'simIccid',
      month: 'simMonth',
      sizeMb: 'simPlanSize',
      startDay: 'simStartDay',
      alarmShare: 'simAlarmShare',
    },
  };

  r.post('/iotcard/getinfo', {
    schema: {
      tags,
      summary:
        'A SIM card’s use (view rights on its set): by the set’s token or the card’s ICCID; ICCID, IMSI, the ' +
        'plan, MB used in the billing month (default: now), left and the share used, the last report and the ' +
        'signal then, the month’s days and the last 12 months. A set whose module reported no card answers ' +
        'iccid null',
      body: iotcardInfoRequest,
      response: { 200: envelope(iotcardInfoResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await sims.info(req.session!, req.body)),
  });

  r.post('/iotcard/setPlan', {
    schema: {
      tags,
      summary:
        'Set the plan of a set’s SIM card (manage rights): size in MB, the day its billing month starts on ' +
        '(1–28) and the share of it (per cent) past which the set’s people are told. 409 when the module has ' +
        'reported no card',
      body: iotcardSetPlanRequest,
      response: { 200: envelope(iotcardSetPlanResponse) },
    },
    config: { ...config, access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await sims.setPlan({ ctx: req.session!, ip: clientInfo(req).ip }, req.body), 'iotcard.planSaved'),
  });
}
