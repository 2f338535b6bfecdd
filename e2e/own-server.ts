// A server of a test's own, on a fresh data directory, for what the shared server must not see (other limits,
// a demo with its past): the demo accounts, the built console, MQTT on a free port, and `env` on top. Like the
// shared server it logs every request into server.log of its data directory, and closing it fails when that log
// holds a session token, embedding code, video lease or key-like query value of its run (e2e/log-secrets.ts).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../apps/server/src/server.ts';
import { secretsInLog } from './log-secrets.ts';

export async function startOwnServer(name: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), `genset-e2e-${name}-`));
  const logFile = join(dataDir, 'server.log');
  const logFd = openSync(logFile, 'a', 0o600);
  let open = true;
  const server: RunningServer = await startServer(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      demo: true,
      webDist: process.env.WEB_OUT_DIR ?? 'apps/web/dist',
      logLevel: 'info',
      env: { MQTT_PORT: '0', ...env },
    },
    // a line logged after the server closed (a late timer) goes nowhere rather than to a closed descriptor
    { logger: { level: 'info', stream: { write: (line: string) => void (open && writeSync(logFd, line)) } } },
  );
  return {
    server,
    async close() {
      const findings = await secretsInLog(readFileSync(logFile, 'utf8'), server.app.database.db);
      await server.close();
      open = false;
      closeSync(logFd);
      rmSync(dataDir, { recursive: true, force: true });
      if (findings.length)
        throw new Error(
          `the log of the ${name} server holds ${findings.length} secret(s):\n` +
            findings.map((f) => `  line ${f.line}: ${f.what}`).join('\n'),
        );
    },
  };
}
