// Energy-storage stations: the stations a person sees (site:view, within their role's data scope; never another
// company's), added, edited and deleted with site:manage; their live overview from their sets' latest values,
// their energy and income per day and tariff period (counted by ingestion, sites/energy.ts), price templates
// saved in versions, the tactic sent to their module (a risky operation: the account password is checked) and
// demand-response events, their run records, operation log and alarms. A refused call changes nothing.
//
// The calls are made in files of their own, each given what context.ts shares (the options, the repository,
// who may see and change what, the operation log):
//   live.ts        the stations' live figures and state, what their pages are pushed, their devices, /ws
//   stations.ts    the stations themselves: list, info, add, edit, department, delete, made by the server
//   records.ts     the operation log, the run records and the alarms of a station
//   templates.ts   price templates and their versions
//   delivery.ts    the tactic and demand-response events sent to a station's module
//   statistics.ts  energy and money per day, month or year and tariff period
// figures.ts rounds and sums energy and money. This file puts the calls together as the routes use them.
import { createSiteContext, type SiteServiceOptions } from './context.ts';
import { createDelivery } from './delivery.ts';
import { createLiveFigures } from './live.ts';
import { createStationRecords } from './records.ts';
import { createStations } from './stations.ts';
import { createStatistics } from './statistics.ts';
import { createTemplates } from './templates.ts';

export type { SiteCaller, SiteServiceOptions } from './context.ts';
export type { SendTactic } from './delivery.ts';
export { kwh, money } from './figures.ts';

export function createSiteService(opts: SiteServiceOptions) {
  const context = createSiteContext(opts);
  const live = createLiveFigures(context);
  const stations = createStations(context, live);
  const records = createStationRecords(context);
  const templates = createTemplates(context);
  const delivery = createDelivery(context);
  const statistics = createStatistics(context);

  return {
    // ---- the station calls ----------------------------------------------------------------------------------
    list: stations.list,
    info: stations.info,
    add: stations.add,
    edit: stations.edit,
    setDepartment: stations.setDepartment,
    del: stations.del,
    devices: live.devices,
    log: records.log,
    logInfo: records.logInfo,
    runRecords: records.runRecords,

    // ---- templates -------------------------------------------------------------------------------------------
    templateList: templates.templateList,
    templateSave: templates.templateSave,
    templateInfo: templates.templateInfo,
    templateDelete: templates.templateDelete,

    // ---- tactics and demand response ---------------------------------------------------------------------------
    sendTactic: delivery.sendTactic,
    sendTacticAsServer: delivery.sendTacticAsServer,
    demandResponse: delivery.demandResponse,

    // ---- statistics ------------------------------------------------------------------------------------------
    stats: statistics.stats,

    // ---- alarms -----------------------------------------------------------------------------------------------
    currentAlarms: records.currentAlarms,
    alarmHistory: records.alarmHistory,

    // ---- the realtime channel ------------------------------------------------------------------------------
    watch: live.watch,

    // ---- for the demo and other server code ------------------------------------------------------------------
    createStation: stations.createStation,
    createTemplate: templates.createTemplate,
    templateVersions: templates.templateVersions,
  };
}
export type SiteService = ReturnType<typeof createSiteService>;
