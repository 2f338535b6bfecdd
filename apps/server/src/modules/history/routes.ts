// HTTP of a set's history, alarms and charts, its maintenance countdown and the runtime-data export (spec 7,
// "Monitoring" and "Genset").
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alarmAckRequest,
  alarmAckResponse,
  alarmAnalyticsRequest,
  alarmAnalyticsResponse,
  alarmChartRequest,
  alarmChartResponse,
  alarmHistoryRequest,
  alarmHistoryResponse,
  alarmShelveRequest,
  alarmUnshelveRequest,
  currentAlarmsResponse,
  historyChartRequest,
  historyChartResponse,
  historyTableRequest,
  historyTableResponse,
  maintainCountdownResponse,
  runtimeExportRequest,
  Permission,
  tokenRequest,
} from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { HistoryService } from './service.ts';
import type { RuntimeExport } from './export.ts';
import type { AlarmActions } from './alarm-actions.ts';
import type { AlarmAnalytics } from './alarm-analytics.ts';
import { attachment, XLSX_TYPE } from '../gensets/export.ts';

export async function historyRoutes(
  app: FastifyInstance,
  opts: { history: HistoryService; alarms: AlarmActions; analytics: AlarmAnalytics; exportRuntimeData: RuntimeExport },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { history, alarms, analytics } = opts;
  const tags = ['history'];

  r.post('/history/chart', {
    schema: {
      tags,
      summary:
        'Chart series of chosen items over a range: samples up to two days, hourly or daily rollups beyond; at most 2,000 points per series',
      body: historyChartRequest,
      response: { 200: envelope(historyChartResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await history.chart(req.session!, req.body, req.lang, req.timezone)),
  });

  r.post('/devicedata/gethistory', {
    schema: {
      tags,
      summary: 'History table of chosen items over a range, paged (newest first unless asked otherwise)',
      body: historyTableRequest,
      response: { 200: envelope(historyTableResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await history.table(req.session!, req.body, req.lang, req.timezone)),
  });

  r.post('/devicedata/getalarmhistory', {
    schema: {
      tags,
      summary:
        'Alarms that started within a range, by level and state, paged (newest first), with the set that raised each: ' +
        'of one set, or without token of every set the caller sees',
      body: alarmHistoryRequest,
      response: { 200: envelope(alarmHistoryResponse) },
    },
    config: { access: { permission: Permission.alarmView, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await history.alarmHistory(req.session!, req.body, req.lang)),
  });

  r.post('/alarm/current', {
    schema: {
      tags,
      summary: 'Active alarms of a set, oldest first',
      body: tokenRequest,
      response: { 200: envelope(currentAlarmsResponse) },
    },
    config: { access: { permission: Permission.alarmView, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await history.currentAlarms(req.session!, req.body.token, req.lang)),
  });

  r.post('/alarm/ack', {
    schema: {
      tags,
      summary:
        'Acknowledges an alarm with a comment (who may command its set): who, when and why are kept; once per alarm',
      body: alarmAckRequest,
      response: { 200: envelope(alarmAckResponse) },
    },
    config: { access: { permission: Permission.alarmView, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await alarms.acknowledge(req.session!, req.body, req.lang, req.ip)),
  });

  r.post('/alarm/shelve', {
    schema: {
      tags,
      summary:
        'Shelves an active alarm for a while with a reason (who may command its set): it notifies no one, a new episode of it on the set included, until the time is up; then it is told again if still active',
      body: alarmShelveRequest,
      response: { 200: envelope(alarmAckResponse) },
    },
    config: { access: { permission: Permission.alarmView, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await alarms.shelve(req.session!, req.body, req.lang, req.ip)),
  });

  r.post('/alarm/unshelve', {
    schema: {
      tags,
      summary: 'Takes an alarm off its shelf before its time is up (who may command its set)',
      body: alarmUnshelveRequest,
      response: { 200: envelope(alarmAckResponse) },
    },
    config: { access: { permission: Permission.alarmView, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await alarms.unshelve(req.session!, req.body, req.lang, req.ip)),
  });

  r.post('/alarm/chart', {
    schema: {
      tags,
      summary: 'Alarms started per day and level (days of the request’s time zone); without token: every set seen',
      body: alarmChartRequest,
      response: { 200: envelope(alarmChartResponse) },
    },
    config: { access: { permission: Permission.alarmView, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await history.alarmChart(req.session!, req.body, req.timezone)),
  });

  r.post('/alarm/analytics', {
    schema: {
      tags,
      summary:
        'What the alarms started within the range say (of one set, or without token of every set seen): the most frequent and longest alarms, the sets with most, mean time between shutdowns, when in the week (the request’s time zone), time to acknowledge',
      body: alarmAnalyticsRequest,
      response: { 200: envelope(alarmAnalyticsResponse) },
    },
    config: { access: { permission: Permission.alarmView, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await analytics.summary(req.session!, req.body, req.lang, req.timezone)),
  });

  r.post('/alarm/analytics/export', {
    schema: {
      tags,
      summary: 'The alarm analytics of /alarm/analytics as an XLSX workbook, with every alarm of the range',
      body: alarmAnalyticsRequest,
    },
    config: { access: { permission: Permission.alarmView, scope: 'company' } },
    handler: async (req, reply) => {
      const body = await analytics.xlsx(req.session!, req.body, req.lang, req.timezone);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', attachment(`alarm-analytics-${day}.xlsx`))
        .header('cache-control', 'no-store')
        .send(body);
    },
  });

  r.post('/maintain/countdown', {
    schema: {
      tags,
      summary: 'Hours to the next service as the controller counts them, run hours, and whether service is due',
      body: tokenRequest,
      response: { 200: envelope(maintainCountdownResponse) },
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => reply.ok(await history.maintainCountdown(req.session!, req.body.token)),
  });

  r.post('/genset/exportruntimedata', {
    schema: {
      tags,
      summary:
        'A set’s history over a range as an XLSX (or CSV) file, titles in the user’s language, times in their zone',
      body: runtimeExportRequest,
    },
    config: { access: { signedIn: true, scope: 'set' } },
    handler: async (req, reply) => {
      const file = await opts.exportRuntimeData(req.session!, req.body, req.lang, req.timezone);
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
