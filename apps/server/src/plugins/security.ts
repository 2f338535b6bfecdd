// Security headers on every answer (helmet), with a Content-Security-Policy that allows exactly what the
// console loads: its own scripts, Ant Design's and Leaflet's inline styles, OpenStreetMap tiles, data: and
// blob: images, the realtime WebSocket (same host, or PUBLIC_WS_URL), and being framed by the hosts of
// FRAME_ANCESTORS (iframe=1 embedding). The OpenAPI viewer at /yewu/docs lives with the same policy.
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** The map tiles of the console's fleet map (apps/web/src/components/map/fleet-map.tsx, OSM_TILES). */
export const MAP_TILE_ORIGINS = ['https://tile.openstreetmap.org'];

/** The origin of an absolute realtime address (`wss://rt.example.com/ws` → `wss://rt.example.com`). */
function wsOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return /^(wss?|https?):$/.test(parsed.protocol) ? parsed.origin.replace(/^http/, 'ws') : undefined;
  } catch {
    return undefined; // a path on the same host: 'self' covers it
  }
}

export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const ws = wsOrigin(config.publicWsUrl);
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    // Ant Design writes its styles into <style> elements at run time; React and Leaflet set style attributes.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...MAP_TILE_ORIGINS],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...(ws ? [ws] : [])],
    // Camera video plays through Media Source Extensions (a blob: source) fed by hls.js, whose demuxer runs
    // in a worker it makes from a blob.
    mediaSrc: ["'self'", 'blob:'],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: config.frameAncestors,
  };
}

export default fp(
  async function security(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;
    const sameOriginFramesOnly = config.frameAncestors.length === 1 && config.frameAncestors[0] === "'self'";
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: contentSecurityPolicy(config),
      },
      // Old browsers that know only X-Frame-Options get it when the console may not be framed elsewhere; it
      // cannot name other hosts, and frame-ancestors supersedes it.
      xFrameOptions: sameOriginFramesOnly ? { action: 'sameorigin' } : false,
      // The embedded setup is often reached over plain HTTP on a LAN: no upgrade of requests, and HSTS (which
      // browsers ignore over HTTP) for this host only.
      strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
      // Map tile servers ask for the referring site (OpenStreetMap's tile usage policy).
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    // The console's service worker and manifest are looked at again on every visit (a new build is installed at
    // once), never taken from a cache without asking.
    app.addHook('onSend', async (req, reply) => {
      const path = req.url.split('?')[0];
      if (path === '/sw.js' || path === '/manifest.webmanifest') reply.header('cache-control', 'no-cache');
    });
  },
  { name: 'security' },
);
