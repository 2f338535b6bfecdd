// A small JSON-over-HTTP control endpoint for demos: list the simulated sets, read one, and act on it
// (load, mains, faults, fuel, position, mode, buttons), without touching Modbus.
import type { IncomingMessage } from 'node:http';
import {
  ALARM_CODES,
  GENSET_COMMANDS,
  SETTING_KEYS,
  type ControllerMode,
  type GensetCommand,
  type Position,
  type SettingKey,
} from './genset-model.ts';
import type { GensetSimulator } from './genset-simulator.ts';
import {
  BadRequest,
  booleanField,
  numberField,
  oneOf,
  optionalNumber,
  readJson,
  serveControl,
  type ControlHttpOptions,
  type ControlHttpServer,
} from './control-http.ts';

export type ControlServer = ControlHttpServer;
export type ControlServerOptions = ControlHttpOptions;

const MODES: readonly ControllerMode[] = ['stop', 'manual', 'auto', 'test'];

function positionOf(value: unknown, field: string): Position {
  const point = value as Record<string, unknown> | null;
  const lat = point?.lat;
  const lon = point?.lon;
  if (typeof lat !== 'number' || typeof lon !== 'number' || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    throw new BadRequest(`"${field}" needs lat (−90…90) and lon (−180…180)`);
  }
  return { lat, lon };
}

function summary(simulator: GensetSimulator) {
  const state = simulator.state;
  return {
    id: state.id,
    layout: state.layout,
    port: state.port,
    unitId: state.unitId,
    mode: state.mode,
    engineState: state.engineState,
    mainsAvailable: state.mainsAvailable,
    genBreakerClosed: state.genBreakerClosed,
    loadKw: state.loadKw,
    alarms: state.alarms,
  };
}

/** Applies one action; returns what to answer. */
async function act(
  simulator: GensetSimulator,
  action: string,
  method: string,
  request: IncomingMessage,
  rest: string[],
) {
  if (method === 'DELETE' && action === 'faults' && rest[0]) {
    simulator.clearFault(oneOf({ code: decodeURIComponent(rest[0]) }, 'code', ALARM_CODES));
    return simulator.state;
  }
  if (method !== 'POST') return undefined;
  const body = await readJson(request);
  switch (action) {
    case 'load':
      if (Array.isArray(body.profile)) {
        simulator.setLoadProfile(
          body.profile.map((point: unknown, i) => {
            const { hour, kw } = (point ?? {}) as Record<string, unknown>;
            if (typeof hour !== 'number' || typeof kw !== 'number')
              throw new BadRequest(`profile[${i}] needs hour and kw`);
            return { hour, kw };
          }),
        );
      } else {
        simulator.setLoad(numberField(body, 'kw'));
      }
      break;
    case 'mains':
      if (booleanField(body, 'available')) simulator.restoreMains();
      else simulator.cutMains();
      break;
    case 'faults':
      simulator.injectFault(oneOf(body, 'code', ALARM_CODES));
      break;
    case 'refuel':
      simulator.refuel(optionalNumber(body, 'percent') ?? 100);
      break;
    case 'position':
      if (Array.isArray(body.path)) {
        const path = body.path.map((point: unknown, i) => positionOf(point, `path[${i}]`));
        simulator.followPath(path, optionalNumber(body, 'speedKmh') ?? 40, body.loop !== false);
      } else {
        simulator.moveTo(positionOf(body, 'position'));
      }
      break;
    case 'mode':
      simulator.setMode(oneOf(body, 'mode', MODES));
      break;
    case 'commands':
      simulator.command(oneOf<GensetCommand>(body, 'command', GENSET_COMMANDS));
      break;
    case 'remote-lock':
      simulator.setRemoteLock(booleanField(body, 'locked'));
      break;
    case 'settings':
      simulator.setSetting(oneOf<SettingKey>(body, 'key', SETTING_KEYS), numberField(body, 'value'));
      break;
    case 'tick':
      simulator.tick(Math.min(86_400_000, Math.max(0, numberField(body, 'ms'))));
      break;
    default:
      return undefined;
  }
  return simulator.state;
}

/**
 * Routes: GET /simulators, GET /simulators/:id, and POST /simulators/:id/{load | mains | faults | refuel |
 * position | mode | commands | remote-lock | settings | tick}, DELETE /simulators/:id/faults/:code.
 */
export function startControlServer(
  simulators: readonly GensetSimulator[],
  options: ControlServerOptions = {},
): Promise<ControlServer> {
  return serveControl(
    {
      root: 'simulators',
      noun: 'simulator',
      items: simulators,
      idOf: (simulator) => simulator.id,
      summary,
      state: (simulator) => simulator.state,
      act,
    },
    options,
  );
}
