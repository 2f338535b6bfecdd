// A small JSON-over-HTTP control endpoint for simulated storage stations, for demos and tests in other
// processes: list the stations, read one's true state and its devices' register values, and act on it (load,
// PV, faults, SOC, the PCS's panel, the clock), without touching Modbus.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { LayoutEDevice } from '@genset/protocol';
import { BMS_ALARMS, PCS_COMMANDS, PCS_FAULT_KINDS, PCS_SETTING_KEYS } from './ess-model.ts';
import { ESS_DEVICES, type EssSiteSimulator } from './ess-simulator.ts';

export interface EssControlServer {
  port: number;
  close(): Promise<void>;
}

export interface EssControlServerOptions {
  port?: number;
  host?: string;
}

class BadRequest extends Error {}

const MAX_BODY_BYTES = 64 * 1024;
/** The longest single advance the endpoint takes: a month of simulated time. */
const MAX_ADVANCE_MS = 31 * 86_400_000;

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

function numberField(body: Record<string, unknown>, field: string): number {
  const value = body[field];
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

/** The model refuses out-of-range values with an Error: that is the caller's mistake, told as a 400. */
function asBadRequest<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw new BadRequest(error instanceof Error ? error.message : String(error));
  }
}

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

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * Routes: GET /sites, GET /sites/:id, GET /sites/:id/values (each device's register values by item key);
 * POST /sites/:id/{load | pv | pcs-fault | bms-fault | pcs-command | pcs-mode | pcs-settings | setpoint | soc |
 * clock | advance}; DELETE /sites/:id/{pcs-fault | bms-fault}.
 */
export async function startEssControlServer(
  sites: readonly EssSiteSimulator[],
  options: EssControlServerOptions = {},
): Promise<EssControlServer> {
  const byId = new Map(sites.map((site) => [site.id, site]));
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://control');
    const [root, id, action] = url.pathname.split('/').filter(Boolean);
    const method = request.method ?? 'GET';
    void (async () => {
      if (root !== 'sites') return send(response, 404, { error: 'not found: try GET /sites' });
      if (!id) {
        if (method !== 'GET') return send(response, 405, { error: 'use GET' });
        return send(response, 200, sites.map(summary));
      }
      const site = byId.get(decodeURIComponent(id));
      if (!site) return send(response, 404, { error: `no site "${id}"; known: ${[...byId.keys()].join(', ')}` });
      if (!action || action === 'values') {
        if (method !== 'GET') return send(response, 405, { error: 'use GET' });
        if (!action) return send(response, 200, site.state);
        const values: Partial<Record<LayoutEDevice, unknown>> = {};
        for (const device of ESS_DEVICES) if (site.devices[device]) values[device] = site.values(device);
        return send(response, 200, values);
      }
      const result = await act(site, action, method, request);
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
