// HTTP of energy-storage stations: the spec's Site calls (/site/list, /site/getInfo/{token}, /site/add, /site/edit,
// /site/del, /site/log, /site/logInfo, /site/logRunRecord), the station's devices, and under /ems/ what the
// energy-station layout's pages call: price templates, sending a tactic, demand-response events, statistics and
// their export, and the station's alarms.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  demandResponseRequest,
  demandResponseResponse,
  sendTacticRequest,
  sendTacticResponse,
  siteAddRequest,
  siteAddResponse,
  siteAlarmHistoryRequest,
  siteAlarmHistoryResponse,
  siteCurrentAlarmsResponse,
  siteDelRequest,
  siteDelResponse,
  siteSetDepartmentRequest,
  setDepartmentResponse,
  siteDevicesResponse,
  siteEditRequest,
  siteInfoResponse,
  siteListRequest,
  siteListResponse,
  siteLogInfoRequest,
  siteLogInfoResponse,
  siteLogRequest,
  siteLogResponse,
  siteRunRecordRequest,
  siteRunRecordResponse,
  siteStatsExportRequest,
  siteStatsRequest,
  siteStatsResponse,
  siteTokenParams,
  siteTokenRequest,
  templateDeleteRequest,
  templateDeleteResponse,
  templateInfoRequest,
  templateInfoResponse,
  templateListRequest,
  templateListResponse,
  templateSaveRequest,
  templateSaveResponse,
  Permission,
} from '@genset/protocol';
import { clientInfo } from '../../plugins/auth.ts';
import { envelope } from '../../lib/envelope.ts';
import { attachment, XLSX_TYPE } from '../gensets/export.ts';
import { statsCsv, statsXlsx } from './export.ts';
import type { SiteCaller, SiteService } from './service.ts';

export async function siteRoutes(app: FastifyInstance, opts: { sites: SiteService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sites } = opts;
  const caller = (req: FastifyRequest): SiteCaller => ({ ctx: req.session!, ip: clientInfo(req).ip, lang: req.lang });
  const config = {
    fieldLabels: {
      token: 'siteToken',
      name: 'siteName',
      address: 'siteAddress',
      lat: 'latitude',
      lon: 'longitude',
      capacityKwh: 'siteCapacityKwh',
      ratingKw: 'siteRatingKw',
      transformerKw: 'siteTransformerKw',
      buildDate: 'siteBuildDate',
      currency: 'siteCurrency',
      devices: 'siteDevices',
      templateId: 'priceTemplate',
      validFrom: 'templateValidFrom',
      ranges: 'tariffRanges',
      prices: 'tariffPrices',
      powerKw: 'templatePowerKw',
      chargeCutoffSoc: 'chargeCutoffSoc',
      dischargeCutoffSoc: 'dischargeCutoffSoc',
      socMargin: 'socMargin',
      chargeInFlat: 'chargeInFlat',
      reversePower: 'reversePower',
      demandControl: 'demandControl',
      strategy: 'emsStrategy',
      params: 'emsParams',
      kw: 'demandResponseKw',
      granularity: 'statsGranularity',
      date: 'statsDate',
    },
  };
  const site = ['sites'];
  const ems = ['ems'];

  // ---- the Site calls --------------------------------------------------------------------------------------

  r.get('/site/list', {
    schema: {
      tags: site,
      summary:
        'The stations the caller sees (site:view, within the role’s data scope), by name: status and its name, ' +
        'capacity, rating, SOC, battery power, today’s charge, discharge and income, total income, alarms, currency',
      querystring: siteListRequest,
      response: { 200: envelope(siteListResponse) },
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await sites.list(req.session!, req.query, req.lang)),
  });

  r.get('/site/getInfo/:token', {
    schema: {
      tags: site,
      summary:
        'A station as the /ems/ layout shows it: name, status, totals charged, discharged and earned since it was ' +
        'built, currency and time zone; its fields; the live overview (grid, PV, battery, load, SOC, today); the ' +
        'tactic sent and the version its module runs',
      params: siteTokenParams,
      response: { 200: envelope(siteInfoResponse) },
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.info(req.session!, req.params.token, req.lang)),
  });

  r.post('/site/add', {
    schema: {
      tags: site,
      summary:
        'Add a station (site:manage): its fields, its cloud module and which of the module’s sets are its PCS, BMS, ' +
        'grid meter and PV inverters (sets the caller manages, in no other station); a module serves one station',
      body: siteAddRequest,
      response: { 200: envelope(siteAddResponse) },
    },
    config: { ...config, access: { permission: Permission.siteManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await sites.add(caller(req), req.body), 'sites.added'),
  });

  r.post('/site/edit', {
    schema: {
      tags: site,
      summary: 'Edit a station (site:manage): the same fields as /site/add, by token',
      body: siteEditRequest,
      response: { 200: envelope(siteAddResponse) },
    },
    config: { ...config, access: { permission: Permission.siteManage, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.edit(caller(req), req.body), 'sites.saved'),
  });

  r.post('/site/setDepartment', {
    schema: {
      tags: site,
      summary:
        'Move up to 20 stations (site:manage, each within reach; all or none) to a department of the company, or back to their owners’ (null)',
      body: siteSetDepartmentRequest,
      response: { 200: envelope(setDepartmentResponse) },
    },
    config: { access: { permission: Permission.siteManage, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.setDepartment(caller(req), req.body), 'success.operation'),
  });

  r.post('/site/del', {
    schema: {
      tags: site,
      summary: 'Delete a station (site:manage); its sets stay, its past figures are kept',
      body: siteDelRequest,
      response: { 200: envelope(siteDelResponse) },
    },
    config: { ...config, access: { permission: Permission.siteManage, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.del(caller(req), req.body.token), 'sites.deleted'),
  });

  r.get('/site/devices', {
    schema: {
      tags: site,
      summary: 'The station’s sets with their role, status, alarms and key live values (realtime items and roles)',
      querystring: siteTokenRequest,
      response: { 200: envelope(siteDevicesResponse) },
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.devices(req.session!, req.query.token, req.lang)),
  });

  r.get('/site/log', {
    schema: {
      tags: site,
      summary: 'The station’s operation log, newest first: who did what, with what outcome',
      querystring: siteLogRequest,
      response: { 200: envelope(siteLogResponse) },
    },
    config: { ...config, access: { permission: Permission.logView, also: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.log(req.session!, req.query, req.lang)),
  });

  r.get('/site/logInfo', {
    schema: {
      tags: site,
      summary: 'One entry of the station’s operation log with everything it recorded',
      querystring: siteLogInfoRequest,
      response: { 200: envelope(siteLogInfoResponse) },
    },
    config: { ...config, access: { permission: Permission.logView, also: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.logInfo(req.session!, req.query, req.lang)),
  });

  r.get('/site/logRunRecord', {
    schema: {
      tags: site,
      summary:
        'The station’s run records, newest first: tactics sent, accepted, refused (with the module’s reason) or ' +
        'unanswered, strategy changes, safe stops and their end, demand-response events, state changes',
      querystring: siteRunRecordRequest,
      response: { 200: envelope(siteRunRecordResponse) },
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.runRecords(req.session!, req.query, req.lang)),
  });

  // ---- price templates -------------------------------------------------------------------------------------

  r.post('/ems/template/list', {
    schema: {
      tags: ems,
      summary: 'The company’s price templates with their newest version and how many stations use each',
      body: templateListRequest,
      response: { 200: envelope(templateListResponse) },
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await sites.templateList(req.session!, req.body)),
  });

  r.post('/ems/template/save', {
    schema: {
      tags: ems,
      summary:
        'Save a price template (site:manage): a new one, or with its id a new version of it, in force from ' +
        '`validFrom` (default now, never in the past). Periods must cover the day once; the discharge cut-off ' +
        'must be below the charge cut-off. Energy counted before keeps the prices it was counted with',
      body: templateSaveRequest,
      response: { 200: envelope(templateSaveResponse) },
    },
    config: { ...config, access: { permission: Permission.siteManage, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await sites.templateSave(caller(req), req.body), 'sites.templateSaved'),
  });

  r.post('/ems/template/info', {
    schema: {
      tags: ems,
      summary: 'A price template: its newest version (or the one asked for), every version and the stations using it',
      body: templateInfoRequest,
      response: { 200: envelope(templateInfoResponse) },
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'company' } },
    handler: async (req, reply) => reply.ok(await sites.templateInfo(req.session!, req.body)),
  });

  r.post('/ems/template/delete', {
    schema: {
      tags: ems,
      summary: 'Delete a price template (site:manage); refused (409) while a station uses it',
      body: templateDeleteRequest,
      response: { 200: envelope(templateDeleteResponse) },
    },
    config: { ...config, access: { permission: Permission.siteManage, scope: 'company' } },
    handler: async (req, reply) =>
      reply.ok(await sites.templateDelete(caller(req), req.body.id), 'sites.templateDeleted'),
  });

  // ---- tactics and demand response ---------------------------------------------------------------------------

  r.post('/ems/sendTactic', {
    schema: {
      tags: ems,
      summary:
        'Send the station’s module a tactic (site:manage and the account password): the strategy and its ' +
        'parameters with the template’s newest version, the station’s time zone and the register of each role ' +
        'from its sets’ protocols. A station lacking a role, or an invalid template, is refused naming it and ' +
        'nothing is sent; the module’s refusal answers 502 with its reason, no answer 504',
      body: sendTacticRequest,
      response: { 200: envelope(sendTacticResponse) },
    },
    config: { ...config, access: { permission: Permission.siteManage, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.sendTactic(caller(req), req.body), 'sites.tacticAccepted'),
  });

  r.post('/ems/demandResponse', {
    schema: {
      tags: ems,
      summary:
        'A demand-response event for the tactic the station runs (site:manage): from start to end the battery ' +
        'delivers kw (discharge > 0, charge < 0) within its limits, then the strategy resumes',
      body: demandResponseRequest,
      response: { 200: envelope(demandResponseResponse) },
    },
    config: { ...config, access: { permission: Permission.siteManage, scope: 'site' } },
    handler: async (req, reply) =>
      reply.ok(await sites.demandResponse(caller(req), req.body), 'sites.demandResponseSent'),
  });

  // ---- statistics ------------------------------------------------------------------------------------------

  r.post('/ems/stats', {
    schema: {
      tags: ems,
      summary:
        'Charge and discharge (kWh), charge cost, discharge income and income per bucket and per tariff period ' +
        '(sharp, peak, flat, valley) in the station’s calendar: a day, the days of a month or the months of a ' +
        'year, with totals; counted from the PCS’s energy counters at the prices of the template version in force',
      body: siteStatsRequest,
      response: { 200: envelope(siteStatsResponse) },
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.stats(req.session!, req.body)),
  });

  r.post('/ems/stats/export', {
    schema: {
      tags: ems,
      summary: 'The same statistics as an XLSX or CSV file; the answer is the file itself, errors are envelopes',
      body: siteStatsExportRequest,
    },
    config: { ...config, access: { permission: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => {
      const { format, ...query } = req.body;
      const stats = await sites.stats(req.session!, query);
      const name = `station-${query.granularity}-${query.date}.${format}`;
      const body = format === 'csv' ? statsCsv(stats, req.lang) : await statsXlsx(stats, name, req.lang);
      return reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE)
        .header('content-disposition', attachment(name))
        .header('cache-control', 'no-store')
        .send(body);
    },
  });

  // ---- alarms ---------------------------------------------------------------------------------------------------

  r.post('/ems/alarm/current', {
    schema: {
      tags: ems,
      summary: 'The active alarms of every set of the station, oldest first, with the set and its role',
      body: siteTokenRequest,
      response: { 200: envelope(siteCurrentAlarmsResponse) },
    },
    config: { ...config, access: { permission: Permission.alarmView, also: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.currentAlarms(req.session!, req.body.token, req.lang)),
  });

  r.post('/ems/alarm/history', {
    schema: {
      tags: ems,
      summary:
        'Alarms of the station’s sets that started between start and end (default: the last 30 days), newest ' +
        'first, by level and state',
      body: siteAlarmHistoryRequest,
      response: { 200: envelope(siteAlarmHistoryResponse) },
    },
    config: { ...config, access: { permission: Permission.alarmView, also: Permission.siteView, scope: 'site' } },
    handler: async (req, reply) => reply.ok(await sites.alarmHistory(req.session!, req.body, req.lang)),
  });
}
