// HTTP of the home page summary and the multi-set monitor grid.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { homeSummaryRequest, homeSummaryResponse, multiStatusRequest, multiStatusResponse } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { DashboardService } from './service.ts';

export async function dashboardRoutes(app: FastifyInstance, opts: { dashboard: DashboardService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { dashboard } = opts;
  const tags = ['monitoring'];

  r.post('/home/summary', {
    schema: {
      tags,
      summary:
        'Home page: the user’s sets by status, active alarms by level, output now, positions, 30-day energy ranking, latest alarms',
      body: homeSummaryRequest,
      response: { 200: envelope(homeSummaryResponse) },
    },
    config: { access: { signedIn: true, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await dashboard.summary(req.session!, req.lang)),
  });

  r.post('/devicedata/getmutilstatus', {
    schema: {
      tags,
      summary: 'Status and key values of the listed sets (at most 100), or of the user’s sets paged',
      body: multiStatusRequest,
      response: { 200: envelope(multiStatusResponse) },
    },
    config: { access: { signedIn: true, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await dashboard.multiStatus(req.session!, req.body, req.lang)),
  });
}
