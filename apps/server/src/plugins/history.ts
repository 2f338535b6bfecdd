// History, alarms, charts, the runtime-data export, the home summary and the multi-set grid: read-only
// calls over what ingestion stored, with the rights of the device side.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createHistoryService } from '../modules/history/service.ts';
import { createRuntimeExport } from '../modules/history/export.ts';
import { historyRoutes } from '../modules/history/routes.ts';
import { createDashboardService } from '../modules/dashboard/service.ts';
import { createAlarmActions } from '../modules/history/alarm-actions.ts';
import { createAlarmAnalytics } from '../modules/history/alarm-analytics.ts';
import { dashboardRoutes } from '../modules/dashboard/routes.ts';
import { createAlarmRuleService } from '../modules/alarm-rules/service.ts';
import { alarmRuleRoutes } from '../modules/alarm-rules/routes.ts';
import { createAlarmPolicyService } from '../modules/alarm-rules/policy.ts';

export default fp(
  async function history(app: FastifyInstance) {
    const { db, kind } = app.database;
    const devices = app.devices;
    const history = createHistoryService({
      db,
      kind,
      devices: devices.service,
      protocols: devices.protocols,
      scope: devices.fleet.scope,
    });
    const exportRuntimeData = createRuntimeExport({ devices: devices.service, protocols: devices.protocols, history });
    const dashboard = createDashboardService({
      db,
      kind,
      protocols: devices.protocols,
      scope: devices.fleet.scope,
      lists: app.gensets.lists,
      mapSets: app.config.homeMapSets,
      states: () => app.gensets.directory.states(),
    });
    // the first home page after a start does not wait for a read over every set's past (at 100,000 sets: seconds)
    app.addHook('onReady', async () => {
      await dashboard.warm().catch((err: unknown) => app.log.warn({ err }, 'energy ranking not read at start'));
    });
    const alarms = createAlarmActions({ db, devices: devices.service });
    const analytics = createAlarmAnalytics({ db, kind, devices: devices.service, scope: devices.fleet.scope });
    await app.register(historyRoutes, { prefix: API_BASE, history, alarms, analytics, exportRuntimeData });
    await app.register(dashboardRoutes, { prefix: API_BASE, dashboard });
    const rules = createAlarmRuleService({ db, protocols: devices.protocols, rules: devices.ingest.rules });
    const policy = createAlarmPolicyService(db);
    await app.register(alarmRuleRoutes, { prefix: API_BASE, rules, policy });
  },
  { name: 'history', dependencies: ['devices', 'gensets'] },
);
