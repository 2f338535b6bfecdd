// HTTP of set reports (spec 7: /data/dieselGeneratorReport, /data/airCompressorReport, /baobiao/info,
// /baobiao/add, /genset/reportone) and their export. Every call needs genset:report and the right to see the set.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  reportExportRequest,
  reportInfoRequest,
  reportInfoResponse,
  reportOneResponse,
  reportPrefillRequest,
  reportPrefillResponse,
  reportSaveRequest,
  reportSaveResponse,
  tokenRequest,
  type ReportType,
  Permission,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { ReportExport } from './export.ts';
import type { ReportService } from './service.ts';

const FORM_RULES =
  ' A refused form answers code 400 naming the first field and its rule; `data.fields` holds every problem by its path (`one5`, `rows.2.six4`), worded in the request’s language. Nothing is saved.';

/**
 * The schema check of a save decides only about the fields around the form: the form itself is checked by the
 * service, which names the exact field (row and column) of every problem.
 */
function passFormProblems(req: FastifyRequest) {
  const error = req.validationError as (Error & { validation?: { instancePath: string }[] }) | undefined;
  if (!error) return;
  const body = req.body as Record<string, unknown> | null;
  const outside = (error.validation ?? []).some(
    (issue) => issue.instancePath.split('/')[1] !== 'form' || body?.form === undefined,
  );
  if (outside) throw error;
}

export async function reportRoutes(app: FastifyInstance, opts: { reports: ReportService; exportReport: ReportExport }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { reports } = opts;
  const tags = ['reports'];
  const fieldLabels = { type: 'reportType', from: 'periodFrom', to: 'periodTo' };

  const prefill = (path: string, type: ReportType, what: string) =>
    r.post(path, {
      schema: {
        tags,
        summary: `A ${what} report prefilled from the set’s history over a period of its own days (six rows, one sixth of the period each), with the weather of its place in the header`,
        body: reportPrefillRequest,
        response: { 200: envelope(reportPrefillResponse) },
      },
      config: { fieldLabels, access: { permission: Permission.gensetReport, scope: 'set' } },
      handler: async (req, reply) => reply.ok(await reports.prefill(req.session!, type, req.body, req.lang)),
    });
  prefill('/data/dieselGeneratorReport', 1, 'diesel generator (type 1)');
  prefill('/data/airCompressorReport', 2, 'air compressor (type 2)');

  r.post('/baobiao/info', {
    schema: {
      tags,
      summary: 'A saved report of a set (the latest version unless one is named) and every version, newest first',
      body: reportInfoRequest,
      response: { 200: envelope(reportInfoResponse) },
    },
    config: { fieldLabels, access: { permission: Permission.gensetReport, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await reports.info(req.session!, req.body)),
  });

  r.post('/baobiao/add', {
    schema: {
      tags,
      summary: `Saves a report form as the next version of the set’s report of that type.${FORM_RULES}`,
      body: reportSaveRequest,
      response: { 200: envelope(reportSaveResponse) },
    },
    config: { fieldLabels, access: { permission: Permission.gensetReport, scope: 'set' } },
    attachValidation: true,
    handler: async (req, reply) => {
      passFormProblems(req);
      const saved = await reports.save(req.session!, req.body);
      const set = await app.database.db
        .selectFrom('genset')
        .select(['company_id', 'name'])
        .where('token', '=', req.body.token)
        .executeTakeFirst();
      await writeOperationLog(app.database.db, {
        ctx: req.session!,
        companyId: set?.company_id ?? req.companyId,
        ip: req.ip,
        matter: 'log.reportSaved',
        feedback: { name: set?.name ?? req.body.token, type: req.body.type },
        target: req.body.token,
      });
      return reply.ok(saved, 'success.saved');
    },
  });

  r.post('/genset/reportone', {
    schema: {
      tags,
      summary:
        'The set as its report page shows it, the latest saved version of each report type, and whether a weather service is configured',
      body: tokenRequest,
      response: { 200: envelope(reportOneResponse) },
    },
    config: { access: { permission: Permission.gensetReport, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await reports.reportOne(req.session!, req.body.token)),
  });

  r.post('/baobiao/export', {
    schema: {
      tags,
      summary:
        'A saved report version (the latest unless one is named) as a PDF or XLSX file in the user’s language; the file itself, errors as envelopes',
      body: reportExportRequest,
    },
    config: { fieldLabels, access: { permission: Permission.gensetReport, scope: 'set' } },
    handler: async (req, reply) => {
      const file = await opts.exportReport(req.session!, req.body, req.lang);
      const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
      return reply
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('cache-control', 'no-store')
        .type(file.contentType)
        .send(file.body);
    },
  });
}
