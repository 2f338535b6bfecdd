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

/** Logger options with the request id added to lines written outside the request's own logger. */
export function withRequestIds(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || logger === true || typeof logger !== 'object') return logger;
  return {
    ...logger,
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
