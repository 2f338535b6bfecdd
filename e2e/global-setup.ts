// Starts the real server once for all browser tests: a fresh data directory, the demo accounts, and the
// console built into apps/web/dist. Tests find it through E2E_BASE_URL and E2E_DATA_DIR (and a spare
// account through E2E_SPARE_ACCOUNT, the demo sets' tokens through E2E_SETS, and the control API of the
// demo fleet's simulated controllers, named DEMO-0001 …, through E2E_SIM_CONTROL).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { startControlServer } from '@genset/simulator';
import { startServer } from '../apps/server/src/server.ts';

function signedHeaders(): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'X-Time': time,
    'X-Sign': computeSign(undefined, time, process.env.API_SIGN_SECRET ?? DEFAULT_SIGN_SECRET),
  };
}

async function call(url: string, body: object): Promise<{ code: number; msg: string; data: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: signedHeaders(), body: JSON.stringify(body) });
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

async function registerSpareAccount(baseUrl: string, dataDir: string) {
  const username = `19${String(Date.now()).slice(-9)}`;
  const password = 'Spare#2026';
  const sent = await call(`${baseUrl}/yewu/sendMessage`, { username, purpose: 'register' });
  if (sent.code !== 200) throw new Error(`sendMessage: ${sent.msg}`);
  const outbox = join(dataDir, 'outbox', 'messages.jsonl');
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    if (existsSync(outbox)) {
      code = readFileSync(outbox, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { to: string; code: string })
        .findLast((m) => m.to === username)?.code;
    }
    if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!code) throw new Error('no registration code in the outbox');
  const done = await call(`${baseUrl}/yewu/user/register`, {
    username,
    code,
    newPassword: password,
    newPasswords: password,
    nickname: 'Spare account',
    type: 'personal',
  });
  if (done.code !== 200) throw new Error(`register: ${done.msg}`);
  return { username, password, codeSentAt: Date.now() };
}

export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'genset-e2e-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    demo: true,
    webDist: process.env.WEB_OUT_DIR ?? 'apps/web/dist',
    logLevel: 'warn',
    env: { MQTT_PORT: '0' },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = dataDir;
  // The password-reset test needs an account whose last code is older than the 60 s resend limit; making
  // it now lets that wait overlap with the other tests.
  const spare = await registerSpareAccount(server.url, dataDir);
  process.env.E2E_SPARE_ACCOUNT = JSON.stringify(spare);
  // There is no list call for sets yet; the demo fleet's tokens are looked up once here.
  const sets = await server.app.database.db.selectFrom('genset').select(['name', 'token']).execute();
  process.env.E2E_SETS = JSON.stringify(Object.fromEntries(sets.map((s) => [s.name, s.token])));
  // Load changes and faults for the live pages' tests go to the demo controllers themselves.
  const control = await startControlServer(server.app.devices.demoSimulators, { host: '127.0.0.1', port: 0 });
  process.env.E2E_SIM_CONTROL = `http://127.0.0.1:${control.port}`;
  return async () => {
    await control.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
