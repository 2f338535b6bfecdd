// HTTP of the operation-log page (log:view): the entries, filtered and paged, and the same as an XLSX file.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { logExportRequest, logListRequest, logListResponse, Permission } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { Access } from '../../plugins/access.ts';
import { attachment, XLSX_TYPE } from '../gensets/export.ts';
import { adminCaller } from '../roles/routes.ts';
import type { LogService } from './service.ts';

export async function logRoutes(app: FastifyInstance, opts: { logs: LogService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { logs } = opts;
  const tags = ['operation log'];
  const preHandler = app.requireUser;
  const access: Access = { permission: Permission.logView, scope: 'company' };
  const config = { access, fieldLabels: { keyword: 'operator', start: 'startTime', end: 'endTime' } };

  r.get('/log/list', {
    schema: {
      tags,
      summary:
        'The operation log, newest first (log:view): by part of the operator’s account or nickname, matter and ' +
        'time range; the caller’s company only (the platform: all, or the one named). Matters are worded in the ' +
        'reader’s language; the answer lists the matters one can filter by',
      querystring: logListRequest,
      response: { 200: envelope(logListResponse) },
    },
    config,
    preHandler,
    handler: async (req, reply) => reply.ok(await logs.list(adminCaller(req), req.query, req.timezone)),
  });

  r.post('/log/export', {
    schema: {
      tags,
      summary:
        'The operation log as an XLSX file (log:view), with the filters of /log/list (in the body), newest first',
      body: logExportRequest,
    },
    config,
    preHandler,
    handler: async (req, reply) => {
      const body = await logs.xlsx(adminCaller(req), req.body, req.timezone);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', attachment(`operation-log-${day}.xlsx`))
        .header('cache-control', 'no-store')
        .send(body);
    },
  });
}
