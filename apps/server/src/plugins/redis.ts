// One Redis connection for the HTTP side when REDIS_URL is set (rate-limit counters shared by the instances,
// the readiness check); `app.redis` is null otherwise. The realtime bus and membership keep their own
// connections (modules/devices/cluster.ts).
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null;
  }
}

export default fp(
  async function redis(app: FastifyInstance, opts: { config: Config }) {
    const url = opts.config.redisUrl;
    if (!url) {
      app.decorate('redis', null);
      return;
    }
    // Commands fail at once while Redis is unreachable (no offline queue, no retries): a call is then let
    // through rather than held, and the readiness check says Redis is down.
    const client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 5000,
    });
    let warned = 0;
    client.on('error', (err: Error) => {
      if (Date.now() - warned < 60_000) return;
      warned = Date.now();
      app.log.warn({ err: err.message }, 'redis unreachable');
    });
    await client.connect();
    app.decorate('redis', client);
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  },
  { name: 'redis' },
);
