// Private PostgreSQL, Redis and Mosquitto for tests that break them: each runs as a child of the test on a free
// port with its data in a temporary directory, and can be stopped (cleanly, or as a crash) and started again on
// the same port and data. The machine's own services are never touched: other tests rely on them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MOSQUITTO, programPath } from '../../../../scripts/system-programs.ts';
import { freePort } from './server-process.ts';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function inPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    if (dir.includes('node_modules')) continue;
    if (executable(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

/**
 * The directory of PostgreSQL's server programs (initdb, postgres): `PG_BIN`, else PATH, else Debian's
 * /usr/lib/postgresql/<version>/bin, newest version first (Debian keeps initdb out of PATH).
 */
export function findPostgresBin(): string | undefined {
  const named = process.env.PG_BIN;
  if (named) return executable(join(named, 'initdb')) ? named : undefined;
  const fromPath = inPath('initdb');
  if (fromPath && executable(join(fromPath, '..', 'postgres'))) return join(fromPath, '..');
  try {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const bin = `/usr/lib/postgresql/${v}/bin`;
      if (executable(join(bin, 'initdb')) && executable(join(bin, 'postgres'))) return bin;
    }
  } catch {
    // no Debian-style installation
  }
  return undefined;
}

export function findRedisServer(): string | undefined {
  const named = process.env.REDIS_SERVER_PATH;
  if (named) return executable(named) ? named : undefined;
  return inPath('redis-server') ?? ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(executable);
}

export const findMosquitto = () => programPath(MOSQUITTO);

/** What is missing for the private services, or an empty list. */
export function missingPrograms(): string[] {
  const missing: string[] = [];
  if (!findPostgresBin()) missing.push('PostgreSQL server programs (initdb; set PG_BIN to their directory)');
  if (!findRedisServer()) missing.push('redis-server (set REDIS_SERVER_PATH)');
  if (!findMosquitto()) missing.push('mosquitto (set MOSQUITTO_PATH)');
  if (process.getuid?.() === 0 && !postgresAccount())
    missing.push('a postgres account to run PostgreSQL as (root may not)');
  return missing;
}

/** PostgreSQL refuses to run as root: as root it runs as the system's postgres account. */
const postgresAccount = () => account('postgres');

function account(name: string): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** A service the test controls: stopped and started again on the same port and data. */
export interface PrivateService {
  name: string;
  port: number;
  url: string;
  /** What the program wrote, across restarts (for a failure's message). */
  output: string[];
  running(): boolean;
  /** `crash`: killed without a chance to close cleanly (SIGKILL; PostgreSQL's immediate shutdown). */
  stop(how?: 'clean' | 'crash'): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its data (for afterAll: never throws). */
  destroy(): Promise<void>;
}

interface ServiceSpec {
  name: string;
  port: number;
  url: string;
  dir: string;
  command: string;
  args: string[];
  account?: { uid: number; gid: number };
  /** Signals for a clean stop and a crash. */
  signals: { clean: NodeJS.Signals; crash: NodeJS.Signals };
  /** Whether it answers (default: its port accepts connections). */
  ready?: () => Promise<boolean>;
}

function serviceOf(spec: ServiceSpec): PrivateService {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const output: string[] = [];
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const service: PrivateService = {
    name: spec.name,
    port: spec.port,
    url: spec.url,
    output,
    running: alive,
    async start() {
      if (alive()) return;
      const started = spawn(spec.command, spec.args, {
        cwd: spec.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(spec.account ?? {}),
      });
      child = started;
      started.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
      started.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
      exited = new Promise((resolve) => started.once('exit', () => resolve()));
      const ready = spec.ready ?? (() => listening(spec.port));
      const deadline = Date.now() + 30_000;
      while (!(await ready().catch(() => false))) {
        if (!alive()) throw new Error(`${spec.name} exited at start:\n${output.join('').slice(-4000)}`);
        if (Date.now() > deadline) throw new Error(`${spec.name} did not start:\n${output.join('').slice(-4000)}`);
        await sleep(100);
      }
    },
    async stop(how = 'clean') {
      if (!alive()) return;
      child!.kill(spec.signals[how]);
      const timer = setTimeout(() => child?.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      // The port is free again once the program is gone (its listening socket closed with it).
      for (let i = 0; i < 50 && (await listening(spec.port)); i++) await sleep(100);
    },
    async destroy() {
      await service.stop('crash').catch(() => undefined);
      rmSync(spec.dir, { recursive: true, force: true });
    },
  };
  return service;
}

/**
 * A PostgreSQL cluster of its own (initdb into a temporary directory, trust authentication, fsync off: the
 * machine does not crash in a test, only PostgreSQL, and what it wrote stays in the kernel's cache; commits stay
 * synchronous, since an immediate shutdown loses WAL not yet handed to the kernel): the
 * superuser `postgres` and a database `name`. A clean stop is PostgreSQL's fast shutdown (SIGINT: sessions
 * are ended, everything is written); a crash its immediate shutdown (SIGQUIT: the next start recovers from
 * the WAL), which, unlike a SIGKILL of the postmaster, does not leave its backends behind.
 */
export async function startPrivatePostgres(name = 'test'): Promise<PrivateService & { adminUrl: string }> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server programs not found');
  const account = process.getuid?.() === 0 ? postgresAccount() : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'private-pg-'));
  if (account) chownSync(dir, account.uid, account.gid);
  const data = join(dir, 'data');
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C'],
    { cwd: dir, encoding: 'utf8', ...(account ?? {}) },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
  }
  const port = await freePort();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const service = serviceOf({
    name: 'PostgreSQL',
    port,
    url: `postgres://postgres@127.0.0.1:${port}/${name}`,
    dir,
    command: join(bin, 'postgres'),
    args: [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=100',
      '-c',
      'shared_buffers=32MB',
    ],
    ...(account ? { account } : {}),
    signals: { clean: 'SIGINT', crash: 'SIGQUIT' },
    // The port opens before the database takes sessions (startup, recovery): ask it.
    ready: async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  });
  await service.start();
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database "${name}"`);
  await client.end();
  return Object.assign(service, { adminUrl });
}

/** A redis-server of its own, with an append-only file so that a restart keeps what was written. */
export async function startPrivateRedis(): Promise<PrivateService> {
  const command = findRedisServer();
  if (!command) throw new Error('redis-server not found');
  const dir = mkdtempSync(join(tmpdir(), 'private-redis-'));
  const port = await freePort();
  const service = serviceOf({
    name: 'Redis',
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    command,
    args: ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'],
    signals: { clean: 'SIGTERM', crash: 'SIGKILL' },
  });
  await service.start();
  return service;
}

/** A Mosquitto of its own (anonymous clients, persistence in its directory so sessions outlive a restart). */
export async function startPrivateMosquitto(): Promise<PrivateService> {
  const command = findMosquitto();
  if (!command) throw new Error('mosquitto not found');
  const dir = mkdtempSync(join(tmpdir(), 'private-mosquitto-'));
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence true',
      `persistence_location ${dir}/`,
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      '',
    ].join('\n'),
  );
  // Started as root, Mosquitto drops to its own account, which must be able to write the persistence file.
  const mosquittoAccount = process.getuid?.() === 0 ? account('mosquitto') : undefined;
  if (mosquittoAccount) chownSync(dir, mosquittoAccount.uid, mosquittoAccount.gid);
  const service = serviceOf({
    name: 'Mosquitto',
    port,
    url: `mqtt://127.0.0.1:${port}`,
    dir,
    command,
    args: ['-c', conf],
    signals: { clean: 'SIGTERM', crash: 'SIGKILL' },
  });
  await service.start();
  return service;
}

/** A TCP link to a service whose open connections can go silent without closing. */
export interface SilentLink {
  port: number;
  url: string;
  /**
   * Every connection open now stops carrying data in both directions and stays open: what a peer sees when the
   * other end vanished without a word (a host that died, a NAT or firewall that forgot the connection). New
   * connections go through as before.
   */
  silence(): void;
  close(): Promise<void>;
}

export async function startSilentLink(target: { port: number }, scheme: string): Promise<SilentLink> {
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    url: `${scheme}://127.0.0.1:${port}`,
    silence() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await closed;
    },
  };
}
