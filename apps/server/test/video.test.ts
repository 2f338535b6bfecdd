// A set's cameras and their live video: cameras are kept by managers with their sign-in encrypted, addresses
// a shell could misread are refused, only users who may see the set get the stream, and the one ffmpeg of a
// camera runs from its first viewer until its last one has left (or stopped renewing, or the server closed).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { FFMPEG as FFMPEG_PROGRAM, programForTests } from '../../../scripts/system-programs.ts';
import { startDemoCamera, type DemoCamera } from '../src/modules/video/demo-camera.ts';
import { createLoginCipher, videoSecret } from '../src/modules/video/secrets.ts';
import { createStreams } from '../src/modules/video/streams.ts';
import { call, createTestApp, freshUser, login, type TestApp } from './helpers.ts';

const FFMPEG = programForTests(FFMPEG_PROGRAM, 'camera streaming through ffmpeg');
const CAMERA_LOGIN = { username: 'site-viewer', password: 'p@ss:w/rd 1%' };

let t: TestApp;
let manager: string;
let set: { token: string; subscriptionCode: string };

async function addSet(name: string) {
  const res = await call(t.app, 'POST', '/genset/add', { token: manager, body: { name, protocolKey: layoutS.key } });
  expect(res.code, res.msg).toBe(200);
  return res.data as { token: string; subscriptionCode: string };
}

async function cameraRows(gensetToken: string) {
  return t.app.database.db
    .selectFrom('camera')
    .innerJoin('genset', 'genset.id', 'camera.genset_id')
    .selectAll('camera')
    .where('genset.token', '=', gensetToken)
    .execute();
}

/** A user of another company who subscribes to the set with its code (view rights). */
async function subscriber() {
  const user = await freshUser(t);
  const token = await login(t.app, user.account, user.password);
  const sub = await call(t.app, 'POST', '/sub/add', { token, body: { code: set.subscriptionCode } });
  expect(sub.code, sub.msg).toBe(200);
  return { ...user, token };
}

/** A GET of a stream file as a player makes it: no signature, no session. */
async function fetchLive(path: string) {
  return t.app.inject({ method: 'GET', url: path });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the process is gone or the deadline has passed; answers whether it is gone. */
async function goneBy(pid: number, deadline: number): Promise<boolean> {
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  return !alive(pid);
}

beforeAll(async () => {
  t = await createTestApp();
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  set = await addSet('Camera yard');
});
afterAll(async () => t.close());

describe('cameras of a set', () => {
  it('are added by a manager with the sign-in encrypted at rest and never returned', async () => {
    const added = await call(t.app, 'POST', '/video/add', {
      token: manager,
      body: { token: set.token, name: 'Gate', url: 'rtsp://10.0.0.7:554/stream1', ...CAMERA_LOGIN },
    });
    expect(added.code, added.msg).toBe(200);
    const [row] = await cameraRows(set.token);
    expect(row).toMatchObject({ name: 'Gate', url: 'rtsp://10.0.0.7:554/stream1' });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(CAMERA_LOGIN.password);
    expect(stored).not.toContain('p@ss');
    expect(stored).not.toContain(CAMERA_LOGIN.username);
    // the installation's key opens it again; an altered text does not open
    const cipher = createLoginCipher(videoSecret(undefined, t.dataDir));
    expect(cipher.open(row!.login!)).toEqual(CAMERA_LOGIN);
    expect(cipher.open(row!.login!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBeNull();

    const list = await call(t.app, 'POST', '/video/list', { token: manager, body: { token: set.token } });
    expect(list.code).toBe(200);
    expect(list.data).toMatchObject({ setName: 'Camera yard', manage: true });
    expect(list.data.cameras).toEqual([
      { id: added.data.id, name: 'Gate', url: 'rtsp://10.0.0.7:554/stream1', hasLogin: true },
    ]);
    expect(JSON.stringify(list)).not.toContain(CAMERA_LOGIN.username);
  });

  it('refuse an address with shell characters, spaces, line breaks, a sign-in or another scheme, naming the field, and store nothing', async () => {
    const before = (await cameraRows(set.token)).length;
    const bad = [
      'rtsp://10.0.0.7/live;reboot',
      'rtsp://10.0.0.7/live|nc attacker 4444',
      'http://10.0.0.7/video.cgi?a=1&b=2',
      'http://10.0.0.7/$(id)',
      'rtsp://10.0.0.7/`id`',
      'rtsp://10.0.0.7/live stream',
      'rtsp://10.0.0.7/live\nreboot',
      'rtsp://10.0.0.7/live%0Areboot',
      "rtsp://10.0.0.7/'x'",
      'file:///etc/passwd',
      'ftp://10.0.0.7/live',
      'rtmp://10.0.0.7/live',
      '-i /etc/passwd',
      'rtsp://admin:secret@10.0.0.7/live',
    ];
    for (const url of bad) {
      const res = await call(t.app, 'POST', '/video/add', {
        token: manager,
        body: { token: set.token, name: 'Bad', url },
      });
      expect(res.code, url).toBe(400);
      expect(res.msg, url).toMatch(/^Camera address: /);
      expect(Object.keys(res.data.fields), url).toEqual(['url']);
    }
    const zh = await call(t.app, 'POST', '/video/add', {
      token: manager,
      lang: 'zh-CN',
      body: { token: set.token, name: 'Bad', url: 'rtsp://10.0.0.7/live;reboot' },
    });
    expect(zh.msg).toMatch(/^摄像头地址[:：] ?不能包含空格、换行或以下任何字符/);
    const scheme = await call(t.app, 'POST', '/video/add', {
      token: manager,
      lang: 'ru-RU',
      body: { token: set.token, name: 'Bad', url: 'file:///etc/passwd' },
    });
    expect(scheme.msg).toMatch(/^Адрес камеры: ?должен начинаться с rtsp:\/\/, http:\/\/ или https:\/\/$/);
    const [first] = await cameraRows(set.token);
    const update = await call(t.app, 'POST', '/video/update', {
      token: manager,
      body: { token: set.token, id: first!.id, url: 'rtsp://10.0.0.7/a;b' },
    });
    expect(update.code).toBe(400);
    expect(await cameraRows(set.token)).toHaveLength(before);
    expect((await cameraRows(set.token))[0]!.url).toBe('rtsp://10.0.0.7:554/stream1');
  });

  it('keep their sign-in through other changes, lose it on request, and are removed by managers only', async () => {
    const [camera] = await cameraRows(set.token);
    const renamed = await call(t.app, 'POST', '/video/update', {
      token: manager,
      body: { token: set.token, id: camera!.id, name: 'Main gate' },
    });
    expect(renamed.code, renamed.msg).toBe(200);
    expect((await cameraRows(set.token))[0]).toMatchObject({ name: 'Main gate', login: camera!.login });

    const viewer = await subscriber();
    const seen = await call(t.app, 'POST', '/video/list', { token: viewer.token, body: { token: set.token } });
    expect(seen.code).toBe(200);
    expect(seen.data.manage).toBe(false);
    // a viewer learns neither the address nor whether a sign-in is stored
    expect(seen.data.cameras).toEqual([{ id: camera!.id, name: 'Main gate', url: null, hasLogin: false }]);
    for (const [url, body] of [
      ['/video/add', { token: set.token, name: 'Mine', url: 'rtsp://10.0.0.9/live' }],
      ['/video/update', { token: set.token, id: camera!.id, name: 'Mine' }],
      ['/video/del', { token: set.token, id: camera!.id }],
    ] as const) {
      expect((await call(t.app, 'POST', url, { token: viewer.token, body })).code, url).toBe(403);
    }
    const stranger = await login(t.app, (await freshUser(t)).account, 'Start#2026');
    expect((await call(t.app, 'POST', '/video/list', { token: stranger, body: { token: set.token } })).code).toBe(404);

    const cleared = await call(t.app, 'POST', '/video/update', {
      token: manager,
      body: { token: set.token, id: camera!.id, username: null },
    });
    expect(cleared.code, cleared.msg).toBe(200);
    expect((await cameraRows(set.token))[0]!.login).toBeNull();

    const removed = await call(t.app, 'POST', '/video/del', {
      token: manager,
      body: { token: set.token, id: camera!.id },
    });
    expect(removed.code, removed.msg).toBe(200);
    expect(await cameraRows(set.token)).toHaveLength(0);
    const info = await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: set.token } });
    const matters = (info.data.operations as { matter: string }[]).map((o) => o.matter);
    expect(matters.filter((m) => m.startsWith('Camera'))).toEqual([
      'Camera “Main gate” removed',
      'Camera “Main gate” edited',
      'Camera “Main gate” edited',
      'Camera “Gate” added',
    ]);
  });
});

describe('OpenAPI document', () => {
  it('lists the video calls with their request schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/yewu/docs/json' })).json();
    for (const path of ['list', 'add', 'update', 'del', 'watch', 'renew', 'leave'])
      expect(Object.keys(doc.paths)).toContain(`/yewu/video/${path}`);
    const add = doc.paths['/yewu/video/add'].post.requestBody.content['application/json'].schema;
    expect(add.required).toEqual(expect.arrayContaining(['token', 'name', 'url']));
    expect(Object.keys(add.properties)).toEqual(expect.arrayContaining(['username', 'password']));
    expect(Object.keys(doc.paths)).toContain('/yewu/video/live/{lease}/{file}');
  });
});

describe('without ffmpeg', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
  });
  afterAll(async () => bare.close());

  it('cameras are kept, and watching one answers that the server has no ffmpeg', async () => {
    const token = await login(bare.app, 'manager@example.com', 'Demo#2026');
    const added = await call(bare.app, 'POST', '/genset/add', {
      token,
      body: { name: 'No video', protocolKey: layoutS.key },
    });
    const camera = await call(bare.app, 'POST', '/video/add', {
      token,
      body: { token: added.data.token, name: 'Gate', url: 'rtsp://10.0.0.7/live' },
    });
    expect(camera.code, camera.msg).toBe(200);
    const list = await call(bare.app, 'POST', '/video/list', { token, body: { token: added.data.token } });
    expect(list.data.available).toBe(false);
    const watch = await call(bare.app, 'POST', '/video/watch', {
      token,
      body: { token: added.data.token, id: camera.data.id },
    });
    expect(watch.code).toBe(503);
    expect(watch.msg).toBe('Video is not available on this server: ffmpeg is not installed.');
    const es = await call(bare.app, 'POST', '/video/watch', {
      token,
      lang: 'es-ES',
      body: { token: added.data.token, id: camera.data.id },
    });
    expect(es.msg).toBe('El vídeo no está disponible en este servidor: ffmpeg no está instalado.');
  });
});

describe.skipIf(!FFMPEG)('watching a camera', () => {
  let source: DemoCamera;
  let cameraId: number;

  beforeAll(async () => {
    source = await startDemoCamera({ ffmpeg: FFMPEG!, log: t.app.log, login: CAMERA_LOGIN });
    const added = await call(t.app, 'POST', '/video/add', {
      token: manager,
      body: { token: set.token, name: 'Yard', url: source.url, ...CAMERA_LOGIN },
    });
    expect(added.code, added.msg).toBe(200);
    cameraId = added.data.id as number;
  }, 30_000);
  afterAll(async () => source?.close());

  const watch = (token: string, lang = 'en-US') =>
    call(t.app, 'POST', '/video/watch', { token, lang, body: { token: set.token, id: cameraId } });

  it('gives the stream only to users who may see the set, with one ffmpeg for all of them until the last one leaves', async () => {
    const viewer = await subscriber();
    const first = await watch(viewer.token);
    expect(first.code, first.msg).toBe(200);
    const status = t.app.video.streams!.status(cameraId)!;
    expect(status).toMatchObject({ state: 'live', viewers: 1 });
    const pid = status.pid!;
    expect(alive(pid)).toBe(true);

    // the player's requests carry no headers: the lease in the address is what lets them through
    const playlist = await fetchLive(first.data.playlist);
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['content-type']).toContain('mpegurl');
    expect(playlist.body).toContain('#EXTM3U');
    const segment = playlist.body.split('\n').find((line) => line.endsWith('.ts'))!;
    const media = await fetchLive(first.data.playlist.replace('index.m3u8', segment));
    expect(media.statusCode).toBe(200);
    expect(media.rawPayload[0]).toBe(0x47); // MPEG-TS sync byte
    expect(media.rawPayload.length).toBeGreaterThan(10_000);

    // a second viewer joins the same ffmpeg
    const second = await watch(manager);
    expect(second.code, second.msg).toBe(200);
    expect(t.app.video.streams!.status(cameraId)).toMatchObject({ pid, viewers: 2 });

    // nobody else gets a lease, and no made-up lease opens a file
    const stranger = await login(t.app, (await freshUser(t)).account, 'Start#2026');
    expect((await watch(stranger)).code).toBe(404);
    expect((await fetchLive(`/yewu/video/live/${'x'.repeat(32)}/index.m3u8`)).statusCode).toBe(404);
    expect((await fetchLive(first.data.playlist.replace('index.m3u8', '..%2F..%2Fvideo.key'))).statusCode).toBe(404);
    // a lease is its viewer's: another user cannot renew it
    expect(
      (await call(t.app, 'POST', '/video/renew', { token: stranger, body: { lease: first.data.lease } })).code,
    ).toBe(404);

    // the owner takes the viewer's subscription away: the next renewal fails and the stream is closed to them
    const subs = await call(t.app, 'POST', '/sub/list', { token: manager, body: { token: set.token } });
    const ids = (subs.data.list as { id: number; account: string }[]).map((s) => s.id);
    expect((await call(t.app, 'POST', '/sub/del', { token: manager, body: { ids } })).code).toBe(200);
    const renewed = await call(t.app, 'POST', '/video/renew', {
      token: viewer.token,
      body: { lease: first.data.lease },
    });
    expect(renewed.code).toBe(404);
    expect((await fetchLive(first.data.playlist)).statusCode).toBe(404);
    expect((await fetchLive(second.data.playlist)).statusCode).toBe(200);
    const kept = await call(t.app, 'POST', '/video/renew', { token: manager, body: { lease: second.data.lease } });
    expect(kept.data).toEqual({ state: 'live', problem: null });

    // the last viewer leaves: ffmpeg ends
    expect(
      (await call(t.app, 'POST', '/video/leave', { token: manager, body: { lease: second.data.lease } })).code,
    ).toBe(200);
    expect(await goneBy(pid, Date.now() + 10_000)).toBe(true);
    expect(t.app.video.streams!.status(cameraId)).toBeNull();
    expect((await fetchLive(second.data.playlist)).statusCode).toBe(404);
  }, 60_000);

  it('ends ffmpeg within 30 s after a viewer that stops renewing (a closed page), and when a page gives its lease back by beacon', async () => {
    const watched = await watch(manager);
    expect(watched.code, watched.msg).toBe(200);
    const pid = t.app.video.streams!.status(cameraId)!.pid!;
    const lastRenewal = Date.now();
    expect(await goneBy(pid, lastRenewal + 30_000)).toBe(true);

    const again = await watch(manager);
    const next = t.app.video.streams!.status(cameraId)!.pid!;
    expect(next).not.toBe(pid);
    const beacon = await t.app.inject({ method: 'POST', url: again.data.playlist.replace('index.m3u8', 'leave') });
    expect(beacon.statusCode).toBe(204);
    expect(await goneBy(next, Date.now() + 10_000)).toBe(true);
  }, 60_000);

  it('re-encodes a camera whose picture a browser cannot take as it comes (MPEG-2) into H.264', async () => {
    // an HTTP camera sending MPEG-2 video in MPEG-TS
    const mpeg2: Server = createServer((_req, res) => {
      const encoder = spawn(
        FFMPEG!,
        [
          '-nostdin',
          '-loglevel',
          'error',
          '-re',
          '-f',
          'lavfi',
          '-i',
          'testsrc=size=320x180:rate=10',
          '-c:v',
          'mpeg2video',
          '-f',
          'mpegts',
          'pipe:1',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      encoder.stdout.pipe(res);
      res.on('close', () => encoder.kill('SIGKILL'));
    });
    await new Promise<void>((resolve) => mpeg2.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(mpeg2.address() as AddressInfo).port}/live.ts`;
      const added = await call(t.app, 'POST', '/video/add', {
        token: manager,
        body: { token: set.token, name: 'Old', url },
      });
      const watched = await call(t.app, 'POST', '/video/watch', {
        token: manager,
        body: { token: set.token, id: added.data.id },
      });
      expect(watched.code, watched.msg).toBe(200);
      const playlist = (await fetchLive(watched.data.playlist)).body;
      const segment = playlist.split('\n').find((line) => line.endsWith('.ts'))!;
      const media = await fetchLive(watched.data.playlist.replace('index.m3u8', segment));
      const probe = join(t.dataDir, 'probe.ts');
      writeFileSync(probe, media.rawPayload);
      const codec = execFileSync(
        FFMPEG!.replace(/ffmpeg$/, 'ffprobe'),
        ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', probe],
        { encoding: 'utf8' },
      );
      expect([...new Set(codec.split(/\s+/).filter(Boolean))]).toEqual(['h264']);
      await call(t.app, 'POST', '/video/leave', { token: manager, body: { lease: watched.data.lease } });
    } finally {
      mpeg2.closeAllConnections();
      await new Promise((resolve) => mpeg2.close(resolve));
    }
  }, 60_000);

  it('says the camera cannot be reached when it refuses the sign-in or does not answer', async () => {
    const wrong = await call(t.app, 'POST', '/video/add', {
      token: manager,
      body: { token: set.token, name: 'No sign-in', url: source.url },
    });
    const refused = await call(t.app, 'POST', '/video/watch', {
      token: manager,
      lang: 'tr-TR',
      body: { token: set.token, id: wrong.data.id },
    });
    expect(refused.code).toBe(502);
    expect(refused.msg).toBe('Kameraya ulaşılamıyor. Adresini, oturum bilgilerini ve ağı kontrol edin.');
    expect(t.app.video.streams!.status(wrong.data.id)).toBeNull();

    const gone = await call(t.app, 'POST', '/video/add', {
      token: manager,
      body: { token: set.token, name: 'Unplugged', url: 'rtsp://127.0.0.1:9/live' },
    });
    const unreachable = await call(t.app, 'POST', '/video/watch', {
      token: manager,
      body: { token: set.token, id: gone.data.id },
    });
    expect(unreachable.code).toBe(502);
    expect(unreachable.msg).toBe('The camera cannot be reached. Check its address, sign-in and network.');
  }, 60_000);

  it('stops, when it starts, an ffmpeg that a crashed server left writing into its data directory', async () => {
    // ffmpeg ignores a broken pipe: a server killed outright leaves it running
    const root = join(t.dataDir, 'video-leftovers');
    const dir = join(root, 'camera-9-crashed');
    mkdirSync(dir, { recursive: true });
    const orphan = spawn(
      FFMPEG!,
      [
        '-nostdin',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=160x90:rate=5',
        '-f',
        'hls',
        join(dir, 'index.m3u8'),
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => orphan.once('exit', resolve));
    writeFileSync(join(dir, 'ffmpeg.pid'), String(orphan.pid));
    // another process that a stale pid file might name is left alone
    const bystander = spawn(
      FFMPEG!,
      ['-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc', '-f', 'null', '-'],
      {
        stdio: 'ignore',
      },
    );
    mkdirSync(join(root, 'camera-8-stale'));
    writeFileSync(join(root, 'camera-8-stale', 'ffmpeg.pid'), String(bystander.pid));
    try {
      const streams = createStreams({ programs: { ffmpeg: FFMPEG!, ffprobe: null }, rootDir: root, log: t.app.log });
      await exited;
      expect(alive(orphan.pid!)).toBe(false);
      expect(alive(bystander.pid!)).toBe(true);
      await streams.close();
    } finally {
      bystander.kill('SIGKILL');
      orphan.kill('SIGKILL');
    }
  });

  it('stops every ffmpeg when the server closes', async () => {
    const own = await createTestApp();
    try {
      const token = await login(own.app, 'manager@example.com', 'Demo#2026');
      const added = await call(own.app, 'POST', '/genset/add', {
        token,
        body: { name: 'Closing', protocolKey: layoutS.key },
      });
      const camera = await call(own.app, 'POST', '/video/add', {
        token,
        body: { token: added.data.token, name: 'Yard', url: source.url, ...CAMERA_LOGIN },
      });
      const watched = await call(own.app, 'POST', '/video/watch', {
        token,
        body: { token: added.data.token, id: camera.data.id },
      });
      expect(watched.code, watched.msg).toBe(200);
      const pid = own.app.video.streams!.status(camera.data.id)!.pid!;
      expect(alive(pid)).toBe(true);
      await own.app.close();
      expect(alive(pid)).toBe(false);
    } finally {
      await own.close();
    }
  }, 60_000);
});

describe.skipIf(!FFMPEG)('a camera sends ffmpeg nowhere else', () => {
  // The target stands at a port the server counts as its own (PORT), so the address policy refuses it even with
  // CAMERA_ALLOW_PRIVATE; the camera, on another loopback port, is allowed. ffmpeg and ffprobe must never reach
  // the target, whether the camera answers with a redirect or with an HLS playlist naming it.
  let own: TestApp;
  let camera: Server;
  let target: Server;
  let targetUrl: string;
  let cameraUrl: string;
  const hits: string[] = [];

  beforeAll(async () => {
    target = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'video/mp2t' }).end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    camera = createServer((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: `${targetUrl}/redirected.ts` }).end();
      else if (req.url === '/playlist.m3u8')
        res
          .writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' })
          .end(
            [
              '#EXTM3U',
              '#EXT-X-VERSION:3',
              '#EXT-X-TARGETDURATION:2',
              '#EXT-X-MEDIA-SEQUENCE:0',
              ...[0, 1, 2].flatMap((i) => ['#EXTINF:2.0,', `${targetUrl}/segment-${i}.ts`]),
              '',
            ].join('\n'),
          );
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
    cameraUrl = `http://127.0.0.1:${(camera.address() as AddressInfo).port}`;
    own = await createTestApp({ PORT: String((target.address() as AddressInfo).port) });
  }, 30_000);
  afterAll(async () => {
    await own?.close();
    await new Promise((resolve) => camera?.close(resolve));
    await new Promise((resolve) => target?.close(resolve));
  });

  it('the target is an address the policy refuses (the server itself), the camera one it allows', async () => {
    const use = { allowPrivate: own.config.cameraAllowPrivate };
    expect(use.allowPrivate).toBe(true);
    expect(await own.app.outbound.check(`${targetUrl}/x`, use)).toMatchObject({ ok: false, reason: 'self' });
    expect(await own.app.outbound.check(`${cameraUrl}/x`, use)).toMatchObject({ ok: true });
  });

  it.each(['redirect', 'playlist.m3u8'])(
    'a camera answering with a %s is not followed',
    async (path) => {
      const token = await login(own.app, 'manager@example.com', 'Demo#2026');
      const added = await call(own.app, 'POST', '/genset/add', {
        token,
        body: { name: `Camera ${path}`, protocolKey: layoutS.key },
      });
      const cam = await call(own.app, 'POST', '/video/add', {
        token,
        body: { token: added.data.token, name: 'Yard', url: `${cameraUrl}/${path}` },
      });
      expect(cam.code, cam.msg).toBe(200);
      const watch = await call(own.app, 'POST', '/video/watch', {
        token,
        body: { token: added.data.token, id: cam.data.id },
      });
      expect(watch.code).toBe(502);
      expect(watch.msg).toBe('The camera cannot be reached. Check its address, sign-in and network.');
      expect(hits).toEqual([]);
    },
    60_000,
  );
});
