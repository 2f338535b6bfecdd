// Every request has an id: the caller's X-Request-Id when it is a plain token (a proxy's or a client's), else a
// new one; it goes back in the X-Request-Id header and into every log line written while the request is
// handled, the lines of the services it calls (which log through the app's logger) included.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

const current = new AsyncLocalStorage<string>();
/** Fastify's loggers of single requests: they carry the id already. */
const requestLoggers = new WeakSet<object>();

const ACCEPTED = /^[A-Za-z0-9._:-]{1,64}$/;

export function genReqId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && ACCEPTED.test(given)) return given;
  return Math.random().toString(36).slice(2, 10);
}

export const childLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (
  logger,
  bindings,
  opts,
) {
  const child = logger.child(bindings, opts);
  requestLoggers.add(child);
  return child;
};

/** Query parameters whose values are keys (session tokens, one-time codes, leases, signatures): never logged. */
const SECRET_PARAM = /token|code|lease|sign|secret|password|api_?key/i;
/** A video lease in the player's addresses (/yewu/video/live/<lease>/…). */
const LEASE_PATH = /(\/video\/live\/)[^/?#]+/;

/** The address as the log shows it: the values of secret parameters and a video lease replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).replace(LEASE_PATH, '$1[redacted]');
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // a malformed name is judged as it is written
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer with the address redacted: the only place a request's address is logged. */
export function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * Logger options with the request id added to lines written outside the request's own logger, and addresses
 * logged without the keys they may carry.
 */
export function withRequestIds(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || typeof logger !== 'object') return logger === true ? withRequestIds({}) : logger;
  const serializers = (logger as { serializers?: Record<string, unknown> }).serializers;
  return {
    ...logger,
    serializers: { ...serializers, req: serializeRequest },
    mixin: (_merge: object, _level: number, instance: object) => {
      if (requestLoggers.has(instance)) return {};
      const reqId = current.getStore();
      return reqId ? { reqId } : {};
    },
  };
}

export default fp(
  async function requestId(app: FastifyInstance) {
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('x-request-id', req.id);
      current.run(req.id, done);
    });
    // The body is read in the socket's own context: the handler's part runs in the request's again.
    app.addHook('preValidation', (req, _reply, done) => current.run(req.id, done));
  },
  { name: 'request-id' },
);
