// Backups taken under load, restored: the server runs as its own program with four cloud modules (simulated
// controllers polled by real module code) publishing every second; `npm run backup` runs while they do, as an
// operator would run it. The server is stopped, the backup restored with `npm run restore` into a fresh data
// directory (PostgreSQL: a fresh database), and a server started on it must hold every sample acked before the
// backup began and let its administrator sign in. Refusals change nothing: a file that is not a backup, a
// SQLite database a running server has open, a PostgreSQL database that already holds data.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGensetSimulator, type RunningGensetSimulator } from '@genset/simulator';
import { startGateway, silentLogger, type Gateway } from '@genset/gateway';
import { computeSign, DEFAULT_SIGN_SECRET, layoutG, layoutS } from '@genset/protocol';
import { openDatabase } from '../src/db/database.ts';
import { createFleet } from '../src/modules/devices/fleet.ts';
import { seedProtocols } from '../src/modules/devices/protocols.ts';
import { PG_URL } from './helpers.ts';
import { freePort, startServerProcess, type ServerProcess } from './support/server-process.ts';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const LAYOUTS = ['S', 'G', 'S', 'G'] as const;
const ADMIN = { account: 'backup-admin@example.com', password: 'Backup#2026' };
const KIND = PG_URL ? 'postgres' : 'sqlite';

interface Module {
  modemId: number;
  sim: RunningGensetSimulator;
  gateway: Gateway;
  dataDir: string;
}

const suffix = randomBytes(4).toString('hex');
const dirs: string[] = [];
const databases: string[] = [];
const servers: ServerProcess[] = [];
const modules: Module[] = [];
let mqttPort = 0;
let sourceDir = '';
let sourceUrl: string | undefined;

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `backup-${name}-`));
  dirs.push(dir);
  return dir;
}

async function admin(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

/** A database of this test's own on the PostgreSQL server: nothing else is touched. */
async function freshDatabase(name: string): Promise<string> {
  const db = `backup_${suffix}_${name}`;
  await admin(`create database ${db}`);
  databases.push(db);
  const url = new URL(PG_URL!);
  url.pathname = `/${db}`;
  return url.toString();
}

async function pgQuery<T>(url: string, sqlText: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sqlText, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The configuration the server and the tools read: a data directory, and the database when PostgreSQL. */
function configEnv(dataDir: string, url: string | undefined): Record<string, string> {
  return { DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) };
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const started = await startServerProcess({
    ...env,
    DEMO: '0',
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    ONLINE_RATE_MS: '1000',
    OFFLINE_RATE_MS: '1000',
    WEB_DIST: join(env.DATA_DIR!, 'no-web'),
    LOG_LEVEL: 'info',
  });
  servers.push(started);
  return started;
}

interface ToolRun {
  code: number | null;
  stdout: string;
  /** What the tool said on stderr, without npm's own warnings. */
  stderr: string;
}

/** `npm run <tool> -- <args>` from the repository, as an operator runs it. */
function npmRun(tool: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const { DATABASE_URL: _inherited, ...inherited } = process.env;
    const child = spawn('npm', ['run', '--silent', tool, '--', ...args], {
      cwd: REPO,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({
        code,
        stdout: stdout.trim(),
        stderr: stderr
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('npm warn'))
          .join('\n'),
      }),
    );
  });
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

async function signIn(server: ServerProcess, account: string, password: string) {
  const time = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${server.url}/yewu/user/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-time': time,
      'x-sign': computeSign(undefined, time, DEFAULT_SIGN_SECRET),
    },
    body: JSON.stringify({ username: account, password }),
  });
  return (await res.json()) as { code: number; data: { utoken?: string } };
}

/** Seqs stored for a module up to `upTo`, in order. */
async function storedSeqs(dataDir: string, url: string | undefined, modemId: number, upTo: number) {
  if (url) {
    const rows = await pgQuery<{ seq: number }>(
      url,
      'select seq from sample where modem_id = $1 and seq <= $2 order by seq',
      [modemId, upTo],
    );
    return rows.map((r) => Number(r.seq));
  }
  const db = new DatabaseSync(join(dataDir, 'console.db'), { readOnly: true });
  try {
    const rows = db
      .prepare('SELECT seq FROM sample WHERE modem_id = ? AND seq <= ? ORDER BY seq')
      .all(modemId, upTo) as { seq: number }[];
    return rows.map((r) => Number(r.seq));
  } finally {
    db.close();
  }
}

async function sampleCount(dataDir: string, url: string | undefined): Promise<number> {
  if (url) return Number((await pgQuery<{ n: string }>(url, 'select count(*) as n from sample'))[0]!.n);
  const db = new DatabaseSync(join(dataDir, 'console.db'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT COUNT(*) AS n FROM sample').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe(`backup and restore under load (${KIND})`, () => {
  beforeAll(async () => {
    mqttPort = await freePort();
    sourceDir = tempDir('source');
    sourceUrl = PG_URL ? await freshDatabase('source') : undefined;

    // The modules and their sets exist before the server starts, in the database it will open.
    const database = await openDatabase(sourceUrl ?? join(sourceDir, 'console.db'));
    const fleet = createFleet(database.db);
    await seedProtocols(database.db);
    const registered: { key: string; modemId: number; secret: string }[] = [];
    for (const [i, layout] of LAYOUTS.entries()) {
      const key = `BAK${suffix}-${i}`;
      const modem = await fleet.createModem({ companyId: 1, modemKey: key });
      await fleet.createGenset({
        companyId: 1,
        ownerUserId: null,
        name: `Backup ${i + 1} (${layout})`,
        modemId: modem.id,
        protocolKey: layout === 'S' ? layoutS.key : layoutG.key,
      });
      registered.push({ key, modemId: modem.id, secret: modem.secret });
    }
    await database.close();

    await startServer({
      ...configEnv(sourceDir, sourceUrl),
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
    });
    for (const [i, layout] of LAYOUTS.entries()) {
      const sim = await startGensetSimulator({
        layout,
        port: 0,
        host: '127.0.0.1',
        unitId: 1,
        seed: 90 + i,
        realtime: true,
      });
      const dataDir = tempDir(`module-${i}`);
      const { key, modemId, secret } = registered[i]!;
      const gateway = await startGateway(
        {
          modemId: key,
          secret,
          brokerUrl: `mqtt://127.0.0.1:${mqttPort}`,
          dataDir,
          ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port!, controllers: [{ address: 1 }] }],
          mqttReconnect: { minMs: 500, maxMs: 3000 },
        },
        { logger: silentLogger },
      );
      modules.push({ modemId, sim, gateway, dataDir });
    }
  }, 120_000);

  afterAll(async () => {
    for (const m of modules) {
      await m.gateway.close().catch(() => undefined);
      await m.sim.close().catch(() => undefined);
    }
    for (const s of servers) await s.kill('SIGTERM');
    for (const db of databases) await admin(`drop database if exists ${db} with (force)`).catch(() => undefined);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('restores a backup taken while modules publish, with every sample acked before it began', async () => {
    const source = servers[0]!;
    const acked = (m: Module) => m.gateway.stats.ackedUpTo;
    await waitFor(() => modules.every((m) => acked(m) >= 5), 60_000, 'every module to have five samples acked');

    // Acked means stored and committed: all of these must be in the backup.
    const ackedBefore = modules.map(acked);
    const backupFile = join(tempDir('backups'), `console.${KIND === 'sqlite' ? 'db' : 'dump'}`);
    const backup = await npmRun('backup', ['--out', backupFile], configEnv(sourceDir, sourceUrl));
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      new RegExp(`^Backed up .* to ${backupFile} \\(\\d+(\\.\\d)? [KMG]?B\\) in [\\d.]+ s$`),
    );
    expect(existsSync(backupFile)).toBe(true);
    // Nothing but the backup itself is left where it was written (no half-written temporary file).
    expect(readdirSync(join(backupFile, '..'))).toEqual([`console.${KIND === 'sqlite' ? 'db' : 'dump'}`]);

    if (KIND === 'sqlite') {
      // The running server has the database open: a restore into its data directory is refused and changes nothing.
      const before = readdirSync(sourceDir).sort();
      const refused = await npmRun('restore', [backupFile], configEnv(sourceDir, undefined));
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toBe(
        `${join(sourceDir, 'console.db')} is in use by another process (is the server running on this data directory?); stop it first`,
      );
      expect(readdirSync(sourceDir).sort()).toEqual(before);
    }

    // Ingestion went on during and after the backup.
    const ackedAfter = modules.map(acked);
    await waitFor(
      () => modules.every((m, i) => acked(m) >= ackedAfter[i]! + 2),
      30_000,
      'the modules to go on being acked after the backup',
    );
    for (const m of modules) await m.gateway.close();
    await source.kill('SIGTERM');
    expect(source.child.exitCode).toBe(0);
    const sourceSamples = await sampleCount(sourceDir, sourceUrl);

    // A file that is not a backup: one line saying so, nothing changed.
    const bogus = join(tempDir('bogus'), 'console.db');
    writeFileSync(bogus, 'id,value\n1,2\n');
    const sourceDigest = KIND === 'sqlite' ? digest(join(sourceDir, 'console.db')) : '';
    const sourceFiles = readdirSync(sourceDir).sort();
    const notBackup = await npmRun('restore', [bogus], configEnv(sourceDir, sourceUrl));
    expect(notBackup.code).not.toBe(0);
    expect(notBackup.stderr).toBe(`${bogus} is not a backup: neither a SQLite database nor a pg_dump archive`);
    expect(readdirSync(sourceDir).sort()).toEqual(sourceFiles);
    if (KIND === 'sqlite') expect(digest(join(sourceDir, 'console.db'))).toBe(sourceDigest);
    expect(await sampleCount(sourceDir, sourceUrl)).toBe(sourceSamples);

    if (KIND === 'postgres') {
      // A database that holds data is not replaced without --force.
      const held = await npmRun('restore', [backupFile], configEnv(sourceDir, sourceUrl));
      expect(held.code).not.toBe(0);
      expect(held.stderr).toMatch(/ already holds data \(public\.\w+.*\); --force replaces it with the backup$/);
      expect(await sampleCount(sourceDir, sourceUrl)).toBe(sourceSamples);
    }

    // Restored into a fresh place, a server starts on it with everything acked before the backup began.
    const restoredDir = tempDir('restored');
    const restoredUrl = PG_URL ? await freshDatabase('restored') : undefined;
    const restore = await npmRun('restore', [backupFile], configEnv(restoredDir, restoredUrl));
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(new RegExp(`^Restored ${backupFile} into .* in [\\d.]+ s$`));

    // Neither the administrator nor anything else is created by this start (no ADMIN_ACCOUNT): the account
    // that signs in is the restored one.
    const restored = await startServer(configEnv(restoredDir, restoredUrl));
    const session = await signIn(restored, ADMIN.account, ADMIN.password);
    expect(session.code).toBe(200);
    expect(session.data.utoken).toEqual(expect.any(String));
    await restored.kill('SIGTERM');
    expect(restored.child.exitCode).toBe(0);

    for (const [i, m] of modules.entries()) {
      expect(await storedSeqs(restoredDir, restoredUrl, m.modemId, ackedBefore[i]!), `module ${i + 1}`).toEqual(
        range(ackedBefore[i]!),
      );
    }
    // The backup is the database as of one moment during the run: not the later samples.
    expect(await sampleCount(restoredDir, restoredUrl)).toBeLessThan(sourceSamples);

    if (KIND === 'sqlite') {
      const db = new DatabaseSync(join(restoredDir, 'console.db'), { readOnly: true });
      try {
        expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
      } finally {
        db.close();
      }

      // Restored over the stopped source, the database it replaces is set aside, whole, not deleted.
      const over = await npmRun('restore', [backupFile], configEnv(sourceDir, undefined));
      expect(over.code).toBe(0);
      const aside = readdirSync(sourceDir).filter((f) => f.startsWith('console.db.before-restore-'));
      expect(aside).toHaveLength(1);
      expect(over.stdout).toContain(`the database it replaced is kept as ${join(sourceDir, aside[0]!)}`);
      expect(readdirSync(sourceDir).filter((f) => /-(wal|shm)$/.test(f))).toEqual([]);
      const kept = new DatabaseSync(join(sourceDir, aside[0]!), { readOnly: true });
      try {
        expect(Number((kept.prepare('SELECT COUNT(*) AS n FROM sample').get() as { n: number }).n)).toBe(sourceSamples);
      } finally {
        kept.close();
      }
      expect(await sampleCount(sourceDir, undefined)).toBe(await sampleCount(restoredDir, undefined));
    } else {
      // --force replaces the source's data with the backup's, in one transaction.
      const forced = await npmRun('restore', [backupFile, '--force'], configEnv(sourceDir, sourceUrl));
      expect(forced.stderr).toBe('');
      expect(forced.code).toBe(0);
      expect(await sampleCount(sourceDir, sourceUrl)).toBe(await sampleCount(restoredDir, restoredUrl));
    }
  }, 240_000);
});
