// Rate limits of the API: every /yewu route gets its own counter per client address, with a stricter limit on
// sign-in, one-time codes, registration and password reset (RATE_LIMIT_*). The counters live in Redis when
// REDIS_URL is set, so the instances of a deployment count together, and in memory otherwise. A call over the
// limit answers the envelope code 429 with `data.retryAfter` in seconds, as the sign-in lock does, worded in
// the caller's language, plus the Retry-After header.
import fp from 'fastify-plugin';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { Config, RateLimit } from '../config.ts';
import { tooMany } from '../lib/errors.ts';

/** Calls with a limit of their own (paths under /yewu) and which setting holds it. */
const STRICT: Record<string, keyof Config['rateLimits']> = {
  '/user/login': 'signIn',
  '/user/codelogin': 'signIn',
  '/sendMessage': 'codes',
  '/user/register': 'register',
  '/user/forgetPassword': 'passwordReset',
};

export default fp(
  async function limits(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;

    const limitOf = (url: string): RateLimit | null | undefined => {
      if (!url.startsWith(`${API_BASE}/`) || url.startsWith(`${API_BASE}/docs`)) return undefined;
      const strict = STRICT[url.slice(API_BASE.length)];
      return config.rateLimits[strict ?? 'api'];
    };

    // Runs before the rate-limit plugin's own onRoute hook (registered below), which reads config.rateLimit.
    app.addHook('onRoute', (route) => {
      const limit = limitOf(route.url);
      if (!limit) return;
      const perRoute: RateLimitOptions = { max: limit.max, timeWindow: limit.windowMs };
      route.config = { ...(route.config as object), rateLimit: perRoute } as typeof route.config;
    });

    await app.register(rateLimit, {
      global: false,
      ...(app.redis ? { redis: app.redis, nameSpace: `${config.redisNamespace}:rate:` } : {}),
      // Redis unreachable: the calls go through uncounted rather than all failing.
      skipOnError: true,
      onExceeded: (req) => req.log.info({ route: req.routeOptions.url, ip: req.ip }, 'rate limit reached'),
      errorResponseBuilder: (_req, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return tooMany('errors.rateLimited', seconds, { seconds });
      },
    });
  },
  { name: 'limits', dependencies: ['api-conventions', 'redis'] },
);
