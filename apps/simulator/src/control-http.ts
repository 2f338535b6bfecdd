// What the simulators' JSON-over-HTTP control endpoints share: reading and checking a JSON body (a mistake is a
// 400 naming the field), and the routes GET /<root>, GET /<root>/:id[/<view>] and <METHOD> /<root>/:id/<action>…,
// whose views and actions each endpoint supplies.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface ControlHttpServer {
  port: number;
  close(): Promise<void>;
}

export interface ControlHttpOptions {
  port?: number;
  host?: string;
}

/** The caller's mistake: answered 400 with its message. */
export class BadRequest extends Error {}

export type JsonBody = Record<string, unknown>;

const MAX_BODY_BYTES = 64 * 1024;

export async function readJson(request: IncomingMessage): Promise<JsonBody> {
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
  return body as JsonBody;
}

export function numberField(body: JsonBody, field: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new BadRequest(`"${field}" must be a number`);
  return value;
}

export function optionalNumber(body: JsonBody, field: string): number | undefined {
  return body[field] === undefined ? undefined : numberField(body, field);
}

export function booleanField(body: JsonBody, field: string): boolean {
  const value = body[field];
  if (typeof value !== 'boolean') throw new BadRequest(`"${field}" must be true or false`);
  return value;
}

export function oneOf<T extends string>(body: JsonBody, field: string, allowed: readonly T[]): T {
  const value = body[field];
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new BadRequest(`"${field}" must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** The model refuses out-of-range values with an Error: that is the caller's mistake, told as a 400. */
export function asBadRequest<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw new BadRequest(error instanceof Error ? error.message : String(error));
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export interface ControlRoutes<T> {
  /** The first path segment: `simulators`, `sites`. */
  root: string;
  /** What one item is called in a "not found" answer. */
  noun: string;
  items: readonly T[];
  idOf(item: T): string;
  /** An item in the list of GET /<root>. */
  summary(item: T): unknown;
  /** What GET /<root>/:id answers. */
  state(item: T): unknown;
  /** Further read-only views, GET /<root>/:id/<view>. */
  views?: Record<string, (item: T) => unknown>;
  /** Applies one action (a POST or DELETE; `rest` is the path after the action); undefined when there is none. */
  act(item: T, action: string, method: string, request: IncomingMessage, rest: string[]): Promise<unknown>;
}

/** Starts an endpoint on the given routes (a free port on 127.0.0.1 unless told). */
export async function serveControl<T>(
  routes: ControlRoutes<T>,
  options: ControlHttpOptions,
): Promise<ControlHttpServer> {
  const byId = new Map(routes.items.map((item) => [routes.idOf(item), item]));
  const views = routes.views ?? {};
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://control');
    const [root, id, action, ...rest] = url.pathname.split('/').filter(Boolean);
    const method = request.method ?? 'GET';
    void (async () => {
      if (root !== routes.root) return send(response, 404, { error: `not found: try GET /${routes.root}` });
      if (!id) {
        if (method !== 'GET') return send(response, 405, { error: 'use GET' });
        return send(
          response,
          200,
          routes.items.map((item) => routes.summary(item)),
        );
      }
      const item = byId.get(decodeURIComponent(id));
      if (item === undefined)
        return send(response, 404, { error: `no ${routes.noun} "${id}"; known: ${[...byId.keys()].join(', ')}` });
      if (!action || Object.hasOwn(views, action)) {
        if (method !== 'GET') return send(response, 405, { error: 'use GET' });
        return send(response, 200, action ? views[action]!(item) : routes.state(item));
      }
      const result = await routes.act(item, action, method, request, rest);
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
