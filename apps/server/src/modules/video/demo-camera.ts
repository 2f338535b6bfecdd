// The demo fleet's camera: a real HTTP camera on 127.0.0.1 whose picture is ffmpeg's test pattern (H.264 in
// MPEG-TS, 640×360 at 15 frames/s), so the video page works on a fresh install exactly as with a camera on a
// site; the server's ffmpeg reads it like any other. Each client gets an encoder of its own, started when it
// connects and stopped when it goes, so the camera costs nothing while nobody watches. It may ask for a
// sign-in (HTTP Basic), as many cameras do.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { DEMO_SETS } from '../devices/demo-fleet.ts';
import { DEMO_COMPANY_NAME } from '../../seed/demo.ts';

export const DEMO_CAMERA_PATH = '/demo-camera.ts';
export const DEMO_CAMERA_NAME = 'Engine room';
/** Encoders the demo camera runs at once at most (one per client). */
const MAX_CLIENTS = 4;

export interface DemoCamera {
  url: string;
  /** Encoders running now (one per connected client). */
  clients(): number;
  close(): Promise<void>;
}

function encoderArgs(): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=15',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '30',
    '-f',
    'mpegts',
    'pipe:1',
  ];
}

export async function startDemoCamera(opts: {
  ffmpeg: string;
  log: FastifyBaseLogger;
  /** Basic sign-in the camera asks for (none when absent). */
  login?: { username: string; password: string };
}): Promise<DemoCamera> {
  const encoders = new Set<ChildProcess>();
  const expected = opts.login
    ? `Basic ${Buffer.from(`${opts.login.username}:${opts.login.password}`).toString('base64')}`
    : null;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' || req.url !== DEMO_CAMERA_PATH) {
      res.writeHead(404).end();
      return;
    }
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="camera"' }).end();
      return;
    }
    if (encoders.size >= MAX_CLIENTS) {
      res.writeHead(503).end();
      return;
    }
    const encoder = spawn(opts.ffmpeg, encoderArgs(), { stdio: ['ignore', 'pipe', 'ignore'] });
    encoders.add(encoder);
    encoder.on('exit', () => {
      encoders.delete(encoder);
      res.end();
    });
    encoder.on('error', (err) => {
      opts.log.warn({ err }, 'demo camera encoder could not be started');
      encoders.delete(encoder);
      res.destroy();
    });
    res.writeHead(200, { 'content-type': 'video/mp2t', 'cache-control': 'no-store' });
    encoder.stdout.pipe(res);
    res.on('close', () => encoder.kill('SIGKILL'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${DEMO_CAMERA_PATH}`,
    clients: () => encoders.size,
    async close() {
      const exits = [...encoders].map((e) => new Promise((resolve) => e.once('exit', resolve)));
      for (const e of encoders) e.kill('SIGKILL');
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all(exits);
    },
  };
}

/**
 * The first demo set gets the demo camera: added once, its address (a new port at each start) kept up to date
 * by the path only the demo camera serves. Nothing happens without the demo company's set.
 */
export async function attachDemoCamera(db: Db, url: string): Promise<void> {
  const demo = DEMO_SETS[0]!;
  const set = await db
    .selectFrom('genset')
    .innerJoin('modem', 'modem.id', 'genset.modem_id')
    .innerJoin('company', 'company.id', 'genset.company_id')
    .select('genset.id')
    .where('modem.modem_key', '=', demo.modemKey)
    .where('company.name', '=', DEMO_COMPANY_NAME)
    .where('genset.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!set) return;
  const cameras = await db.selectFrom('camera').select(['id', 'url']).where('genset_id', '=', set.id).execute();
  const existing = cameras.find((c) => c.url.startsWith('http://127.0.0.1:') && c.url.endsWith(DEMO_CAMERA_PATH));
  const now = Date.now();
  if (existing) {
    await db.updateTable('camera').set({ url, updated_at: now }).where('id', '=', existing.id).execute();
    return;
  }
  await db
    .insertInto('camera')
    .values({
      genset_id: set.id,
      name: DEMO_CAMERA_NAME,
      url,
      login: null,
      sort: cameras.length,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
