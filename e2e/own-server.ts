// A server of a test's own, on a fresh data directory, for what the shared server must not see (other limits,
// a demo with its past): the demo accounts, the built console, MQTT on a free port, and `env` on top.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../apps/server/src/server.ts';

export async function startOwnServer(name: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), `genset-e2e-${name}-`));
  const server: RunningServer = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    demo: true,
    webDist: process.env.WEB_OUT_DIR ?? 'apps/web/dist',
    logLevel: 'warn',
    env: { MQTT_PORT: '0', ...env },
  });
  return {
    server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
