// Probes for load balancers and orchestrators: GET /healthz answers while the process runs; GET /readyz checks
// what calls and modules need (the database, the MQTT broker, Redis when configured) and answers 503 naming the
// part that failed. Neither needs a signature; neither tells more than "ok", "down" or "timeout".
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

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

    app.get('/readyz', probe, async (req, reply) => {
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
      names.forEach((name, i) => {
        const { outcome, err } = results[i]!;
        checks[name] = outcome;
        if (outcome !== 'ok') req.log.warn({ part: name, outcome, err }, 'not ready');
      });
      const ready = Object.values(checks).every((o) => o === 'ok');
      return reply
        .status(ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ready ? 'ready' : 'unavailable', checks });
    });
  },
  { name: 'health', dependencies: ['devices', 'redis'] },
);
