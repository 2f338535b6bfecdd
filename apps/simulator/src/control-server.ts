// A small JSON-over-HTTP control endpoint for demos: list the simulated sets, read one, and act on it
// (load, mains, faults, fuel, position, mode, buttons), without touching Modbus.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

export interface ControlServer {
  port: number;
  close(): Promise<void>;
}

export interface ControlServerOptions {
  port?: number;
  host?: string;
}

class BadRequest extends Error {}

const MODES: readonly ControllerMode[] = ['stop', 'manual', 'auto', 'test'];
const MAX_BODY_BYTES = 64 * 1024;

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BadRequest('body too large');
    chunks.push(chunk);
  }
  if (size === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BadRequest('body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequest('body must be a JSON object');
  return body as Record<string, unknown>;
}

function numberField(body: Record<string, unknown>, field: string, optional = false): number | undefined {
  const value = body[field];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new BadRequest(`"${field}" must be a number`);
  return value;
}

function booleanField(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (typeof value !== 'boolean') throw new BadRequest(`"${field}" must be true or false`);
  return value;
}

function oneOf<T extends string>(body: Record<string, unknown>, field: string, allowed: readonly T[]): T {
  const value = body[field];
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new BadRequest(`"${field}" must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

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
        simulator.setLoad(numberField(body, 'kw')!);
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
      simulator.refuel(numberField(body, 'percent', true) ?? 100);
      break;
    case 'position':
      if (Array.isArray(body.path)) {
        const path = body.path.map((point: unknown, i) => positionOf(point, `path[${i}]`));
        simulator.followPath(path, numberField(body, 'speedKmh', true) ?? 40, body.loop !== false);
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
      simulator.setSetting(oneOf<SettingKey>(body, 'key', SETTING_KEYS), numberField(body, 'value')!);
      break;
    case 'tick':
      simulator.tick(Math.min(86_400_000, Math.max(0, numberField(body, 'ms')!)));
      break;
    default:
      return undefined;
  }
  return simulator.state;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * Routes: GET /simulators, GET /simulators/:id, and POST /simulators/:id/{load | mains | faults | refuel |
 * position | mode | commands | remote-lock | settings | tick}, DELETE /simulators/:id/faults/:code.
 */
export async function startControlServer(
  simulators: readonly GensetSimulator[],
  options: ControlServerOptions = {},
): Promise<ControlServer> {
  const byId = new Map(simulators.map((simulator) => [simulator.id, simulator]));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://control');
    const [root, id, action, ...rest] = url.pathname.split('/').filter(Boolean);
    const method = request.method ?? 'GET';
    void (async () => {
      if (root !== 'simulators') return send(response, 404, { error: 'not found: try GET /simulators' });
      if (!id) {
        if (method !== 'GET') return send(response, 405, { error: 'use GET' });
        return send(response, 200, simulators.map(summary));
      }
      const simulator = byId.get(decodeURIComponent(id));
      if (!simulator)
        return send(response, 404, { error: `no simulator "${id}"; known: ${[...byId.keys()].join(', ')}` });
      if (!action) {
        if (method !== 'GET') return send(response, 405, { error: 'use GET' });
        return send(response, 200, simulator.state);
      }
      const result = await act(simulator, action, method, request, rest);
      if (result === undefined) return send(response, 404, { error: `no action ${method} ${action}` });
      send(response, 200, result);
    })().catch((error: unknown) => {
      if (error instanceof BadRequest) send(response, 400, { error: error.message });
      else send(response, 500, { error: error instanceof Error ? error.message : 'unexpected error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
