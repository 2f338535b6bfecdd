// Starts the real server once for all browser tests: a fresh data directory, the demo accounts, and the
// console built into apps/web/dist. Tests find it through E2E_BASE_URL and E2E_DATA_DIR (and a spare
// account through E2E_SPARE_ACCOUNT, the demo sets' tokens through E2E_SETS, and the control API of the
// demo fleet's simulated controllers, named DEMO-0001 …, through E2E_SIM_CONTROL). A local weather service
// answering in the OpenWeatherMap shape stands behind WEATHER_URL, so that the weather line has a reading.
// The server logs at info level (every request) into server.log of its data directory; when the run ends, the
// log must hold no session token, embedding code, video lease or key-like query value of the run
// (e2e/log-secrets.ts), else the run fails and the log is kept in test-results/.
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { startControlServer } from '@genset/simulator';
import { startServer } from '../apps/server/src/server.ts';
import { secretsInLog } from './log-secrets.ts';

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

/** Current weather as OpenWeatherMap gives it (Kelvin, hPa, %), the same wherever it is asked for. */
const E2E_WEATHER = { temp: 293.157, pressure: 1013, humidity: 55 };

async function startWeatherService() {
  const weather = createServer((req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ main: E2E_WEATHER, dt: Math.floor(Date.now() / 1000), name: 'E2E' }));
  });
  await new Promise<void>((resolve) => weather.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(weather.address() as AddressInfo).port}/data/2.5/weather`,
    close: () => new Promise<void>((resolve) => weather.close(() => resolve())),
  };
}

export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'genset-e2e-'));
  const weather = await startWeatherService();
  const logFile = join(dataDir, 'server.log');
  const logFd = openSync(logFile, 'a', 0o600);
  // written at once, line by line: what the last requests logged is in the file when the check reads it
  const logStream = { write: (line: string) => void writeSync(logFd, line) };
  const server = await startServer(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      demo: true,
      webDist: process.env.WEB_OUT_DIR ?? 'apps/web/dist',
      logLevel: 'info',
      env: {
        MQTT_PORT: '0',
        // the live pages' tests count alarms and samples from an empty past; first-look.spec.ts has its own server
        DEMO_BACKFILL_DAYS: '0',
        // the demo stations get a few days, for their statistics pages
        DEMO_STATION_BACKFILL_DAYS: '3',
        // Sets nobody watches report at their modules' offline rate: 15 s here instead of a minute, so that the tests
        // of pages following the whole fleet (home, multi-set monitor) see a change within seconds, not minutes
        OFFLINE_RATE_MS: '15000',
        WEATHER_URL: weather.url,
        WEATHER_KEY: 'e2e',
        // Every test signs in from 127.0.0.1, many a minute; rate-limit.spec.ts runs a server with low limits.
        RATE_LIMIT_API: '100000/1m',
        RATE_LIMIT_SIGN_IN: '100000/1m',
        RATE_LIMIT_CODES: '100000/1m',
        RATE_LIMIT_REGISTER: '100000/1m',
        RATE_LIMIT_PASSWORD_RESET: '100000/1m',
      },
    },
    { logger: { level: 'info', stream: logStream } },
  );
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
    const findings = await secretsInLog(readFileSync(logFile, 'utf8'), server.app.database.db);
    await server.close();
    await weather.close();
    closeSync(logFd);
    if (findings.length) {
      mkdirSync('test-results', { recursive: true });
      copyFileSync(logFile, join('test-results', 'server.log'));
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (findings.length)
      throw new Error(
        `the server's log of this run holds ${findings.length} secret(s) (log kept in test-results/server.log):\n` +
          findings
            .slice(0, 20)
            .map((f) => `  line ${f.line}: ${f.what}`)
            .join('\n'),
      );
    console.log(`server log checked: no session token, code, lease or key in ${logFile.split('/').pop()}`);
  };
}
