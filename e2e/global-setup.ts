// Starts the real server once for all browser tests: a fresh data directory, the demo accounts, and the
// console built into apps/web/dist. Tests find it through E2E_BASE_URL and E2E_DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../apps/server/src/server.ts';

export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'genset-e2e-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    demo: true,
    webDist: 'apps/web/dist',
    logLevel: 'warn',
    env: { MQTT_PORT: '0' },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = dataDir;
  return async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
