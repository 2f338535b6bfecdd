// Probes for load balancers and orchestrators: GET /healthz answers while the process runs; GET /readyz checks
// what calls and modules need (the database, the MQTT broker, Redis when configured) and answers 503 naming the
// part that failed. Neither needs a signature; neither tells more than "ok", "down" or "timeout". The same checks
// run every few seconds for the realtime channel, which tells open consoles when live data is interrupted.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ServicePart } from '../modules/devices/service-health.ts';

/** A check that has not answered after this long counts as failed. */
const CHECK_TIMEOUT_MS = 2000;

type Outcome = 'ok' | 'down' | 'timeout';

async function check(work: () => Promise<boolean>): Promise<{ outcome: Outcome; err?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CHECK_TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([work(), timeout]);
    return { outcome: result === 'timeout' ? 'timeout' : result ? 'ok' : 'down' };
  } catch (err) {
    return { outcome: 'down', err };
  } finally {
    clearTimeout(timer);
  }
}

export default fp(
  async function health(app: FastifyInstance) {
    const probe = { config: { unsigned: true } };

    app.get('/healthz', probe, async (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

    async function probeAll() {
      const parts: Record<string, () => Promise<boolean>> = {
        database: async () => {
          await sql`select 1`.execute(app.database.db);
          return true;
        },
        broker: async () => app.devices.transport.isUp?.() ?? true,
      };
      const redis = app.redis;
      if (redis) parts.redis = async () => (await redis.ping()) === 'PONG';
      const names = Object.keys(parts);
      const results = await Promise.all(names.map((name) => check(parts[name]!)));
      const checks: Record<string, Outcome> = {};
      names.forEach((name, i) => (checks[name] = results[i]!.outcome));
      const down = names.filter((name) => checks[name] !== 'ok') as ServicePart[];
      return { checks, results: names.map((name, i) => ({ name, ...results[i]! })), down };
    }

    app.get('/readyz', probe, async (req, reply) => {
      const { checks, results, down } = await probeAll();
      for (const { name, outcome, err } of results)
        if (outcome !== 'ok') req.log.warn({ part: name, outcome, err }, 'not ready');
      app.devices.health.set(down);
      const ready = down.length === 0;
      return reply
        .status(ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ready ? 'ready' : 'unavailable', checks });
    });

    // The same checks every few seconds, so that open consoles hear of an outage (and its end) without a probe
    // from outside; a change is logged once.
    let watching = false;
    const watch = setInterval(() => {
      if (watching) return;
      watching = true;
      void probeAll()
        .then(({ down }) => app.devices.health.set(down))
        .catch((err: unknown) => app.log.warn({ err }, 'health watch failed'))
        .finally(() => (watching = false));
    }, app.config.healthWatchMs);
    watch.unref();
    const unsubscribe = app.devices.health.subscribe((down) => {
      if (down.length) app.log.warn({ down }, 'live data interrupted: a part the server needs does not answer');
      else app.log.info('every part the server needs answers again');
    });
    app.addHook('onClose', async () => {
      clearInterval(watch);
      unsubscribe();
    });
  },
  { name: 'health', dependencies: ['devices', 'redis'] },
);
