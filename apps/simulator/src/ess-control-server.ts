// A small JSON-over-HTTP control endpoint for simulated storage stations, for demos and tests in other
// processes: list the stations, read one's true state and its devices' register values, and act on it (load,
// PV, faults, SOC, the PCS's panel, the clock), without touching Modbus.
import type { IncomingMessage } from 'node:http';
import type { LayoutEDevice } from '@genset/protocol';
import { BMS_ALARMS, PCS_COMMANDS, PCS_FAULT_KINDS, PCS_SETTING_KEYS } from './ess-model.ts';
import { ESS_DEVICES, type EssSiteSimulator } from './ess-simulator.ts';
import {
  BadRequest,
  asBadRequest,
  booleanField,
  numberField,
  oneOf,
  readJson,
  serveControl,
  type ControlHttpOptions,
  type ControlHttpServer,
} from './control-http.ts';

export type EssControlServer = ControlHttpServer;
export type EssControlServerOptions = ControlHttpOptions;

/** The longest single advance the endpoint takes: a month of simulated time. */
const MAX_ADVANCE_MS = 31 * 86_400_000;

function summary(site: EssSiteSimulator) {
  const state = site.state;
  return {
    id: state.id,
    port: state.port,
    unitIds: state.unitIds,
    ts: state.ts,
    speed: state.speed,
    realtime: state.realtime,
    loadKw: state.loadKw,
    pvKw: state.pv?.powerKw ?? null,
    gridKw: state.meter.gridKw,
    pcsState: state.pcs.state,
    pcsKw: state.pcs.powerKw,
    soc: state.bms.soc,
    pcsFault: state.pcs.fault,
    bmsFault: state.bms.fault,
  };
}

/** Applies one action; returns what to answer, or undefined for an unknown route. */
async function act(site: EssSiteSimulator, action: string, method: string, request: IncomingMessage) {
  if (method === 'DELETE') {
    if (action === 'pcs-fault') site.clearPcsFault();
    else if (action === 'bms-fault') site.clearBmsFault();
    else return undefined;
    return site.state;
  }
  if (method !== 'POST') return undefined;
  const body = await readJson(request);
  switch (action) {
    case 'load':
      if ('addKw' in body) site.addLoad(numberField(body, 'addKw'));
      else if (body.kw === null) site.setLoad(null);
      else asBadRequest(() => site.setLoad(numberField(body, 'kw')));
      break;
    case 'pv':
      asBadRequest(() => {
        if ('enabled' in body) site.setPvEnabled(booleanField(body, 'enabled'));
        if ('limitPct' in body) site.setPvLimit(numberField(body, 'limitPct'));
      });
      break;
    case 'pcs-fault':
      site.injectPcsFault(body.kind === undefined ? undefined : oneOf(body, 'kind', PCS_FAULT_KINDS));
      break;
    case 'bms-fault':
      site.injectBmsFault(body.alarm === undefined ? undefined : oneOf(body, 'alarm', BMS_ALARMS));
      break;
    case 'pcs-command': {
      const accepted = site.pcsCommand(oneOf(body, 'command', PCS_COMMANDS));
      return { accepted, state: site.state };
    }
    case 'pcs-mode':
      site.setPcsControlMode(oneOf(body, 'mode', ['remote', 'local'] as const));
      break;
    case 'pcs-settings':
      asBadRequest(() => site.setPcsSetting(oneOf(body, 'key', PCS_SETTING_KEYS), numberField(body, 'value')));
      break;
    case 'setpoint':
      site.writeSetpoint(numberField(body, 'kw'));
      break;
    case 'soc':
      site.setSoc(numberField(body, 'soc'));
      break;
    case 'clock':
      if ('speed' in body) asBadRequest(() => site.setSpeed(numberField(body, 'speed')));
      if ('realtime' in body) {
        if (booleanField(body, 'realtime')) site.startClock();
        else site.stopClock();
      }
      break;
    case 'advance': {
      const ms = numberField(body, 'ms');
      if (ms < 0 || ms > MAX_ADVANCE_MS) throw new BadRequest(`"ms" must be 0…${MAX_ADVANCE_MS}`);
      site.advance(ms);
      break;
    }
    default:
      return undefined;
  }
  return site.state;
}

/** Each device's register values by item key. */
function values(site: EssSiteSimulator) {
  const values: Partial<Record<LayoutEDevice, unknown>> = {};
  for (const device of ESS_DEVICES) if (site.devices[device]) values[device] = site.values(device);
  return values;
}

/**
 * Routes: GET /sites, GET /sites/:id, GET /sites/:id/values (each device's register values by item key);
 * POST /sites/:id/{load | pv | pcs-fault | bms-fault | pcs-command | pcs-mode | pcs-settings | setpoint | soc |
 * clock | advance}; DELETE /sites/:id/{pcs-fault | bms-fault}.
 */
export function startEssControlServer(
  sites: readonly EssSiteSimulator[],
  options: EssControlServerOptions = {},
): Promise<EssControlServer> {
  return serveControl(
    {
      root: 'sites',
      noun: 'site',
      items: sites,
      idOf: (site) => site.id,
      summary,
      state: (site) => site.state,
      views: { values },
      act,
    },
    options,
  );
}
