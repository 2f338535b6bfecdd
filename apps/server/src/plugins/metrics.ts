// Prometheus metrics at GET /metrics, for `Authorization: Bearer <METRICS_TOKEN>` (off without a token: behind
// a reverse proxy on the same host every caller would look local). HTTP latency per route pattern, method and
// status, error envelopes per code, ingestion (snapshots stored, queue, ack lag, back-pressure), connected
// modules, WebSocket clients, database connections, and Node's own process and event-loop figures. Values
// are read where they are kept (ingestion's counters, the broker, the WebSocket server, the pool) at scrape.
import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ResultCode } from '@genset/protocol';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { AppError } from '../lib/errors.ts';

export const METRICS_PATH = '/metrics';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The route pattern of a request; the console's hashed asset files count as one. */
function routeOf(req: FastifyRequest): string {
  const url = req.routeOptions.url;
  if (!url) return 'unmatched';
  return url.startsWith('/assets/') ? '/assets/*' : url;
}

/** The envelope code an error will be answered with (plugins/api.ts). */
function codeOf(error: Error): number {
  if (error instanceof AppError) return error.code;
  if (hasZodFastifySchemaValidationErrors(error)) return ResultCode.invalid;
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  if (status === 404) return ResultCode.notFound;
  return status >= 400 && status < 500 ? ResultCode.invalid : ResultCode.error;
}

/** A counter that mirrors a number kept elsewhere, which only grows. */
function mirroredCounter(registry: Registry, name: string, help: string, read: () => number) {
  let seen = 0;
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value < seen) {
        this.reset();
        seen = 0;
      }
      this.inc(value - seen);
      seen = value;
    },
  });
}

export default fp(
  async function metrics(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const http = new Histogram({
      name: 'genset_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern, method and HTTP status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
      registers: [registry],
    });
    app.addHook('onResponse', (req, reply, done) => {
      http.observe({ route: routeOf(req), method: req.method, status: reply.statusCode }, reply.elapsedTime / 1000);
      done();
    });

    const errors = new Counter({
      name: 'genset_api_errors_total',
      help: 'Calls answered with an error envelope, by route pattern and envelope code (429: rate-limited or locked)',
      labelNames: ['route', 'code'],
      registers: [registry],
    });
    app.addHook('onError', (req, _reply, error, done) => {
      errors.inc({ route: routeOf(req), code: codeOf(error) });
      done();
    });

    const { ingest, acks, transport } = app.devices;
    const stats = ingest.stats;
    mirroredCounter(
      registry,
      'genset_ingest_messages_received_total',
      'Messages received from modules (data, hello, event, state, reply)',
      () => stats.received,
    );
    mirroredCounter(
      registry,
      'genset_ingest_snapshots_stored_total',
      'Snapshots stored (each module seq once)',
      () => stats.stored,
    );
    mirroredCounter(
      registry,
      'genset_ingest_snapshots_duplicate_total',
      'Snapshots received again that were stored before (resent by their module)',
      () => stats.duplicates,
    );
    mirroredCounter(
      registry,
      'genset_ingest_messages_refused_total',
      'Module messages refused as unreadable or malformed',
      () => stats.refused,
    );
    mirroredCounter(registry, 'genset_ingest_batches_total', 'Batches of snapshots stored', () => stats.batches);
    mirroredCounter(
      registry,
      'genset_ingest_backpressure_total',
      'Times the queue reached INGEST_QUEUE_LIMIT and the broker stopped reading from the modules',
      () => stats.throttled,
    );
    new Gauge({
      name: 'genset_ingest_queue_peak',
      help: 'Most snapshots that waited in the ingestion queue at once since start',
      registers: [registry],
      collect() {
        this.set(stats.peakQueue);
      },
    });
    new Gauge({
      name: 'genset_ingest_sets_held',
      help: 'Sets whose live state ingestion holds in memory (at most INGEST_SET_CACHE; idle ones are let go)',
      registers: [registry],
      collect() {
        this.set(ingest.heldSets);
      },
    });
    new Gauge({
      name: 'genset_ingest_queue_depth',
      help: 'Snapshots received and not yet acknowledged to their module (queued or being stored)',
      registers: [registry],
      collect() {
        this.set(acks.pending());
      },
    });
    const ackLag = new Histogram({
      name: 'genset_ingest_ack_lag_seconds',
      help: 'Time from a snapshot reaching the server to the ack that confirms it to its module',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180],
      registers: [registry],
    });
    acks.onAcked((waitedMs) => ackLag.observe(waitedMs / 1000));

    const db = app.database.db;
    new Gauge({
      name: 'genset_modules_connected',
      help: 'Cloud modules connected: to the embedded broker, or (external broker) marked online in the database',
      registers: [registry],
      async collect() {
        const count =
          transport.connectedCount?.() ??
          Number(
            (
              await db
                .selectFrom('modem')
                .select(sql<number>`count(*)`.as('n'))
                .where('online', '=', 1)
                .executeTakeFirst()
            )?.n ?? 0,
          );
        this.set(count);
      },
    });
    new Gauge({
      name: 'genset_ws_clients',
      help: 'Realtime WebSocket connections open on this instance',
      registers: [registry],
      collect() {
        this.set(app.websocketServer.clients.size);
      },
    });
    new Gauge({
      name: 'genset_db_connections',
      help: `Database connections (${app.database.kind}): total, idle, and callers waiting for one`,
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const use = app.database.connections();
        this.set({ state: 'total' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });

    app.get(METRICS_PATH, { config: { unsigned: true } }, async (req, reply) => {
      if (!config.metricsToken) {
        return reply.status(404).type('text/plain; charset=utf-8').send('metrics are off (METRICS_TOKEN not set)\n');
      }
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !sameText(auth.slice(7), config.metricsToken)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .type('text/plain; charset=utf-8')
          .send('unauthorised\n');
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['devices'] },
);
