// RTSP cameras reach ffmpeg and ffprobe only through a relay that connects to the checked address alone and
// passes on no redirect: a camera answering `302` with a Location elsewhere leads them nowhere (ffprobe on its
// own would follow it), while a camera that streams as cameras do is watched through the relay as before.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { FFMPEG as FFMPEG_PROGRAM, programForTests } from '../../../scripts/system-programs.ts';
import { findFfmpeg, probeCamera } from '../src/modules/video/ffmpeg.ts';
import { createCameraReader } from '../src/modules/video/rtsp-guard.ts';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

const FFMPEG = programForTests(FFMPEG_PROGRAM, 'RTSP cameras through ffprobe and ffmpeg');
const FFPROBE = FFMPEG ? findFfmpeg(FFMPEG)?.ffprobe : undefined;
if (FFMPEG && !FFPROBE)
  console.warn(
    `Skipped: RTSP cameras through ffprobe and ffmpeg. ffprobe is not beside ${FFMPEG}: the server probes every ` +
      'camera with it (Debian/Ubuntu: sudo apt-get install -y ffmpeg brings both).',
  );

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const closeServer = (server: Server | undefined) =>
  new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));

/** Whether anything listens at the port on 127.0.0.1 now. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The requests of an RTSP client, one at a time (ffmpeg sends none with a body). */
function onRequests(socket: Socket, handle: (method: string, uri: string, headers: Map<string, string>) => void) {
  let pending = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
      const [line = '', ...rest] = pending.slice(0, end).split('\r\n');
      pending = pending.slice(end + 4);
      const headers = new Map(
        rest.map((h) => [h.slice(0, h.indexOf(':')).toLowerCase(), h.slice(h.indexOf(':') + 1).trim()]),
      );
      const [method = '', uri = ''] = line.split(' ');
      handle(method, uri, headers);
    }
  });
  socket.on('error', () => undefined);
}

const relayPort = (uri: string) => Number(new URL(uri).port);

describe('what the relay passes on from a camera', () => {
  const feedAll = (text: string | Buffer, step = 0) => {
    const reader = createCameraReader();
    const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
    const out: Buffer[] = [];
    const size = step || bytes.length;
    for (let i = 0; i < bytes.length; i += size) {
      const passed = reader.feed(bytes.subarray(i, i + size));
      if (passed === null) return { passed: null, refusal: reader.refusal() };
      out.push(passed);
    }
    return { passed: Buffer.concat(out), refusal: reader.refusal() };
  };
  const frame = (channel: number, payload: Buffer) =>
    Buffer.concat([Buffer.from([0x24, channel, payload.length >> 8, payload.length & 0xff]), payload]);

  it('passes replies, bodies and interleaved frames unchanged, however the bytes are cut', () => {
    const sdp = 'v=0\r\nm=video 0 RTP/AVP 96\r\nRTSP/1.0 302 Found\r\nLocation: rtsp://10.0.0.1/\r\n\r\n';
    const stream = Buffer.concat([
      Buffer.from('RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Base: rtsp://10.0.0.7/live/\r\n'),
      Buffer.from(`Content-Length: ${Buffer.byteLength(sdp)}\r\n\r\n${sdp}`),
      Buffer.from('RTSP/1.0 401 Unauthorized\r\nCSeq: 3\r\nWWW-Authenticate: Digest realm="x", nonce="y"\r\n\r\n'),
      frame(0, Buffer.alloc(1400, 7)),
      frame(1, Buffer.alloc(28, 1)),
      Buffer.from('\r\nRTSP/1.0 200 OK\nCSeq: 4\n\n'),
      frame(0, Buffer.from('RTSP/1.0 302 Found\r\n\r\n')),
    ]);
    for (const step of [0, 1, 3, 7, 1000]) {
      const { passed, refusal } = feedAll(stream, step);
      expect(refusal, `step ${step}`).toBeNull();
      expect(passed?.equals(stream), `step ${step}`).toBe(true);
    }
  });

  it.each([
    ['a 302', 'RTSP/1.0 302 Found\r\nCSeq: 1\r\nLocation: rtsp://127.0.0.1:9/x\r\n\r\n'],
    [
      'a 301 after an answer',
      'RTSP/1.0 200 OK\r\nCSeq: 1\r\n\r\nRTSP/1.0 301 Moved\r\nLocation: rtsp://169.254.169.254/\r\n\r\n',
    ],
    ['a 303 with bare line feeds and leading blanks', ' \tRTSP/1.0\t303 See\nLocation: rtsp://10.0.0.1/\n\n'],
    ['a 3xx written +305', 'RTSP/1.0 +305 Use Proxy\r\n\r\n'],
    [
      'a 3xx hidden behind a Content-Length that ffmpeg reads as 0',
      'RTSP/1.0 200 OK\r\nContent-Length: x9\r\n\r\nRTSP/1.0 302 F\r\n\r\n',
    ],
    [
      'a 3xx after the last of two Content-Lengths',
      'RTSP/1.0 200 OK\r\nContent-Length: 40\r\ncontent-length:  2\r\n\r\nokRTSP/1.0 307 T\r\n\r\n',
    ],
    ['a REDIRECT request', 'REDIRECT rtsp://10.0.0.7/live RTSP/1.0\r\nCSeq: 1\r\nLocation: rtsp://127.0.0.1/\r\n\r\n'],
    ['an interleaved frame inside a head', 'RTSP/1.0 200 OK\r\n$\u0000\u0000\u0010RTSP/1.0 302 F\r\n\r\n'],
    ['an interleaved frame shorter than RTP', '$\u0000\u0000\u0004RTSPRTSP/1.0 302 F\r\n\r\n'],
    ['a status that is no number', 'RTSP/1.0 OK\r\n\r\n'],
  ])('refuses %s, passing none of it', (_what, text) => {
    const { passed, refusal } = feedAll(text);
    expect(refusal).toBeTruthy();
    expect(passed).toBeNull();
  });
});

describe.skipIf(!FFPROBE)('an RTSP camera that redirects', () => {
  // The camera answers every request with 302 and a Location at the target; the target stands at a port the
  // server counts as its own (PORT), so the address policy refuses it even with CAMERA_ALLOW_PRIVATE, while the
  // camera, at another loopback port, is allowed.
  let camera: Server;
  let target: Server;
  let cameraPort: number;
  let targetPort: number;
  let own: TestApp;
  const requests: { method: string; uri: string }[] = [];
  let reached = 0;
  const cameraSockets = new Set<Socket>();

  beforeAll(async () => {
    target = createServer((socket) => {
      reached += 1;
      socket.destroy();
    });
    targetPort = await listen(target);
    camera = createServer((socket) => {
      cameraSockets.add(socket);
      socket.once('close', () => cameraSockets.delete(socket));
      onRequests(socket, (method, uri, headers) => {
        requests.push({ method, uri });
        socket.write(
          `RTSP/1.0 302 Found\r\nCSeq: ${headers.get('cseq') ?? '0'}\r\n` +
            `Location: rtsp://127.0.0.1:${targetPort}/x\r\n\r\n`,
        );
      });
    });
    cameraPort = await listen(camera);
    own = await createTestApp({ PORT: String(targetPort) });
  }, 30_000);
  afterAll(async () => {
    await own?.close();
    for (const socket of cameraSockets) socket.destroy();
    await closeServer(camera);
    await closeServer(target);
  });

  it('is followed by ffprobe when it opens the camera itself (what the relay is for)', async () => {
    reached = 0;
    const probe = await probeCamera(FFPROBE!, { url: new URL(`rtsp://127.0.0.1:${cameraPort}/live`) });
    expect(probe.format).toBeNull();
    expect(reached).toBeGreaterThan(0);
  }, 30_000);

  it('the target is an address the policy refuses (the server itself), the camera one it allows', async () => {
    const use = { allowPrivate: own.config.cameraAllowPrivate };
    expect(await own.app.outbound.check(`rtsp://127.0.0.1:${targetPort}/x`, use)).toMatchObject({
      ok: false,
      reason: 'self',
    });
    expect(await own.app.outbound.check(`rtsp://127.0.0.1:${cameraPort}/live`, use)).toMatchObject({ ok: true });
  });

  it('leads the server’s ffprobe nowhere: watching fails, the target sees no connection, the relay is gone', async () => {
    reached = 0;
    requests.length = 0;
    const token = await login(own.app, 'manager@example.com', 'Demo#2026');
    const set = await call(own.app, 'POST', '/genset/add', {
      token,
      body: { name: 'Redirecting camera', protocolKey: layoutS.key },
    });
    const cam = await call(own.app, 'POST', '/video/add', {
      token,
      body: {
        token: set.data.token,
        name: 'Gate',
        url: `rtsp://127.0.0.1:${cameraPort}/live`,
        username: 'viewer',
        password: 'secret-1',
      },
    });
    expect(cam.code, cam.msg).toBe(200);
    const watch = await call(own.app, 'POST', '/video/watch', {
      token,
      body: { token: set.data.token, id: cam.data.id },
    });
    expect(watch.code).toBe(502);
    expect(watch.msg).toBe('The camera cannot be reached. Check its address, sign-in and network.');
    // the camera was asked (through the relay, whose address the request names) and its answer went no further
    expect(reached).toBe(0);
    expect(requests.length).toBeGreaterThan(0);
    const port = relayPort(requests[0]!.uri);
    expect(port).not.toBe(cameraPort);
    expect(new URL(requests[0]!.uri).pathname).toBe('/live');
    expect(await listening(port)).toBe(false);
  }, 60_000);
});

/**
 * A camera that streams as cameras do: OPTIONS, DESCRIBE (an SDP, with a Content-Base naming the camera's own
 * address), SETUP (RTP interleaved in the connection), PLAY; the picture is ffmpeg's test pattern in H.264,
 * packed into RTP by ffmpeg and passed on as interleaved frames.
 */
async function startRtspCamera(ffmpeg: string) {
  const requests: { method: string; uri: string }[] = [];
  const children = new Set<ChildProcess>();
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    let encoder: ChildProcess | null = null;
    let udp: UdpSocket | null = null;
    const stop = () => {
      encoder?.kill('SIGKILL');
      udp?.close();
      udp = null;
    };
    socket.on('close', () => {
      open.delete(socket);
      stop();
    });
    onRequests(socket, (method, uri, headers) => {
      requests.push({ method, uri });
      const reply = (extra: string, body = '') =>
        socket.write(
          `RTSP/1.0 200 OK\r\nCSeq: ${headers.get('cseq')}\r\n${extra}` +
            (body ? `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` : '\r\n'),
        );
      const own = `rtsp://127.0.0.1:${port}/live/`;
      if (method === 'OPTIONS') reply('Public: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER\r\n');
      else if (method === 'DESCRIBE')
        reply(
          `Content-Base: ${own}\r\nContent-Type: application/sdp\r\n`,
          [
            'v=0',
            'o=- 0 0 IN IP4 127.0.0.1',
            's=Yard',
            'c=IN IP4 0.0.0.0',
            't=0 0',
            'm=video 0 RTP/AVP 96',
            'a=rtpmap:96 H264/90000',
            'a=fmtp:96 packetization-mode=1',
            'a=control:trackID=0',
            '',
          ].join('\r\n'),
        );
      else if (method === 'SETUP')
        reply('Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\nSession: 4711;timeout=60\r\n');
      else if (method === 'PLAY') {
        reply('Session: 4711\r\n');
        udp = createSocket('udp4');
        udp.on('message', (packet) => {
          // RTCP (payload types 200–204) on the odd channel, RTP on the even one
          const channel = packet[1]! >= 200 && packet[1]! <= 204 ? 1 : 0;
          socket.write(Buffer.from([0x24, channel, packet.length >> 8, packet.length & 0xff]));
          socket.write(packet);
        });
        udp.bind(0, '127.0.0.1', () => {
          const udpPort = udp!.address().port;
          encoder = spawn(
            ffmpeg,
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
              'libx264',
              '-preset',
              'ultrafast',
              '-tune',
              'zerolatency',
              '-pix_fmt',
              'yuv420p',
              '-g',
              '10',
              '-bsf:v',
              'dump_extra=freq=keyframe',
              '-payload_type',
              '96',
              '-f',
              'rtp',
              `udp://127.0.0.1:${udpPort}?pkt_size=1200`,
            ],
            { stdio: 'ignore' },
          );
          children.add(encoder);
          encoder.once('exit', () => children.delete(encoder!));
        });
      } else if (method === 'TEARDOWN') {
        reply('Session: 4711\r\n');
        stop();
      } else reply('');
    });
  });
  const port = await listen(server);
  return {
    url: `rtsp://127.0.0.1:${port}/live`,
    port,
    requests,
    /** Connections open to the camera now. */
    connections: () => open.size,
    async close() {
      for (const socket of open) socket.destroy();
      const exits = [...children].map((c) => new Promise((resolve) => c.once('exit', resolve)));
      for (const c of children) c.kill('SIGKILL');
      await Promise.all(exits);
      await closeServer(server);
    },
  };
}

describe.skipIf(!FFPROBE)('an RTSP camera that streams', () => {
  let t: TestApp;
  let camera: Awaited<ReturnType<typeof startRtspCamera>>;

  beforeAll(async () => {
    camera = await startRtspCamera(FFMPEG!);
    t = await createTestApp();
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await camera?.close();
  });

  it('is probed through a relay that passes the whole exchange and closes with ffprobe', async () => {
    camera.requests.length = 0;
    const probe = await probeCamera(FFPROBE!, {
      url: new URL(camera.url),
      rtsp: { address: '127.0.0.1', port: camera.port },
    });
    expect(probe.error).toBe('');
    expect(probe.format).toEqual({ codec: 'h264', pixelFormat: 'yuv420p' });
    expect(camera.requests.map((r) => r.method)).toEqual(expect.arrayContaining(['DESCRIBE', 'SETUP', 'PLAY']));
    const port = relayPort(camera.requests[0]!.uri);
    expect(port).not.toBe(camera.port);
    expect(await listening(port)).toBe(false);
  }, 30_000);

  it('is watched through the server, and the relay ends with the stream', async () => {
    camera.requests.length = 0;
    const token = await login(t.app, 'manager@example.com', 'Demo#2026');
    const set = await call(t.app, 'POST', '/genset/add', {
      token,
      body: { name: 'RTSP yard', protocolKey: layoutS.key },
    });
    const cam = await call(t.app, 'POST', '/video/add', {
      token,
      body: { token: set.data.token, name: 'Yard', url: camera.url, username: 'viewer', password: 'p@ss:w/rd 1%' },
    });
    expect(cam.code, cam.msg).toBe(200);
    const watched = await call(t.app, 'POST', '/video/watch', {
      token,
      body: { token: set.data.token, id: cam.data.id },
    });
    expect(watched.code, watched.msg).toBe(200);
    expect(t.app.video.streams!.status(cam.data.id)).toMatchObject({ state: 'live' });
    const playlist = await t.app.inject({ method: 'GET', url: watched.data.playlist });
    expect(playlist.statusCode).toBe(200);
    expect(playlist.body).toContain('#EXTINF');
    // ffprobe's relay and then ffmpeg's: each its own port, neither the camera's (SETUP and PLAY name the
    // camera's own address, from its Content-Base, and still go through the relay's connection)
    const ports = [...new Set(camera.requests.filter((r) => r.method === 'DESCRIBE').map((r) => relayPort(r.uri)))];
    expect(ports.length).toBeGreaterThanOrEqual(2);
    expect(ports).not.toContain(camera.port);
    expect(camera.connections()).toBe(1);

    const left = await call(t.app, 'POST', '/video/leave', { token, body: { lease: watched.data.lease } });
    expect(left.code).toBe(200);
    const deadline = Date.now() + 10_000;
    while (camera.connections() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(camera.connections()).toBe(0);
    for (const port of ports) expect(await listening(port)).toBe(false);
  }, 60_000);
});
