// Live streams of cameras: one ffmpeg per camera that someone watches, started by the first viewer and
// stopped when the last one leaves. A viewer holds a lease that the player renews; a lease not renewed in
// time ends by itself (a closed page says nothing), so a stream outlives its last viewer by at most the lease
// time plus one sweep. The HLS files are written to a directory of their own under <DATA_DIR>/video and
// served only through a live lease. ffmpeg does not notice that the server has gone (it ignores a broken pipe),
// so every stream directory names its ffmpeg, and a server starting on the data directory stops what a crashed
// one left running.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { VIDEO_RENEW_SECONDS, type VideoProblem, type VideoState } from '@genset/protocol';
import {
  canCopy,
  hlsArguments,
  PLAYLIST,
  probeCamera,
  scrub,
  STREAM_FILE,
  type CameraInput,
  type FfmpegPrograms,
} from './ffmpeg.ts';
import { relayedInput } from './rtsp-guard.ts';

export interface StreamTimes {
  /** A lease not renewed for this long ends. */
  leaseMs: number;
  /** How often ended leases and stalled streams are looked for. */
  sweepMs: number;
  /** How long a camera has to deliver its first segment. */
  startMs: number;
  /** A live stream whose ffmpeg reports no new frame for this long has lost its camera. */
  stallMs: number;
  /** How long ffmpeg has to finish after SIGTERM before it is killed. */
  killMs: number;
}

export const STREAM_TIMES: StreamTimes = {
  leaseMs: 2 * VIDEO_RENEW_SECONDS * 1000,
  sweepMs: 5_000,
  startMs: 20_000,
  stallMs: 20_000,
  killMs: 3_000,
};

/** A stream could not be started or was lost. */
export class StreamFailure extends Error {
  constructor(readonly problem: VideoProblem) {
    super(problem);
  }
}

interface Stream {
  cameraId: number;
  dir: string | null;
  child: ChildProcess | null;
  state: VideoState;
  problem: VideoProblem | null;
  /** Settles when the first segment is written (or the start failed). */
  ready: Promise<void>;
  leases: Set<string>;
  stopping: boolean;
  /** When ffmpeg last reported a new frame. */
  progressAt: number;
  exited: Promise<void>;
}

export interface Lease {
  id: string;
  cameraId: number;
  userId: number;
  /** The set the camera belongs to: rights are checked on it at every renewal. */
  setToken: string;
  expiresAt: number;
  stream: Stream;
}

export interface StreamStatus {
  pid: number | null;
  state: VideoState;
  viewers: number;
}

const PID_FILE = 'ffmpeg.pid';

/**
 * Stops the ffmpeg of each stream directory left under `rootDir` (a server that crashed), when the process
 * with that id is indeed an ffmpeg writing there (Linux tells by /proc; elsewhere nothing is killed blindly).
 * Answers the ids stopped.
 */
export function stopLeftovers(rootDir: string): number[] {
  const stopped: number[] = [];
  let dirs: string[];
  try {
    dirs = readdirSync(rootDir);
  } catch {
    return stopped;
  }
  for (const name of dirs) {
    const dir = join(rootDir, name);
    try {
      const pid = Number(readFileSync(join(dir, PID_FILE), 'utf8'));
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (Number.isInteger(pid) && pid > 0 && argv.some((arg) => arg.startsWith(dir))) {
        process.kill(pid, 'SIGKILL');
        stopped.push(pid);
      }
    } catch {
      // no pid file, no such process, or not Linux
    }
  }
  return stopped;
}

export interface FileAnswer {
  status: 200 | 404 | 410;
  body?: Buffer;
  type?: string;
}

export function createStreams(opts: {
  programs: FfmpegPrograms;
  /** <DATA_DIR>/video: emptied at start (streams of a previous run are gone). */
  rootDir: string;
  log: FastifyBaseLogger;
  times?: Partial<StreamTimes>;
}) {
  const times = { ...STREAM_TIMES, ...opts.times };
  const { programs, log } = opts;
  const leftovers = stopLeftovers(opts.rootDir);
  if (leftovers.length) log.warn({ pids: leftovers }, 'stopped camera streams an earlier run left running');
  rmSync(opts.rootDir, { recursive: true, force: true });
  mkdirSync(opts.rootDir, { recursive: true });
  const streams = new Map<number, Stream>();
  /** Every stream whose ffmpeg may still run, stopped or failed ones included, so that close can wait for them. */
  const running = new Set<Stream>();
  const leases = new Map<string, Lease>();
  let closed = false;

  const sweeper = setInterval(sweep, times.sweepMs);
  sweeper.unref();
  // a server that exits without closing (a fatal error, the shutdown grace running out) takes its ffmpeg along
  const killAll = () => {
    for (const stream of running) stream.child?.kill('SIGKILL');
  };
  process.on('exit', killAll);

  function fail(stream: Stream, problem: VideoProblem) {
    if (stream.state === 'failed') return;
    stream.state = 'failed';
    stream.problem = problem;
    if (streams.get(stream.cameraId) === stream) streams.delete(stream.cameraId);
    terminate(stream);
  }

  /** Ends ffmpeg (SIGTERM, then SIGKILL) and removes the stream's files once it is gone. */
  function terminate(stream: Stream) {
    stream.stopping = true;
    const child = stream.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), times.killMs);
      kill.unref();
      child.once('exit', () => clearTimeout(kill));
    }
    void stream.exited.then(() => {
      if (stream.dir) rmSync(stream.dir, { recursive: true, force: true });
    });
  }

  function stop(stream: Stream) {
    if (streams.get(stream.cameraId) === stream) streams.delete(stream.cameraId);
    if (stream.state !== 'failed') log.info({ camera: stream.cameraId }, 'camera stream stopped: nobody watches');
    terminate(stream);
  }

  function start(cameraId: number, source: () => Promise<CameraInput>): Stream {
    let markExited: () => void = () => undefined;
    const stream: Stream = {
      cameraId,
      dir: null,
      child: null,
      state: 'starting',
      problem: null,
      ready: Promise.resolve(),
      leases: new Set(),
      stopping: false,
      progressAt: Date.now(),
      exited: new Promise<void>((resolve) => (markExited = resolve)),
    };
    streams.set(cameraId, stream);
    running.add(stream);
    void stream.exited.then(() => running.delete(stream));
    stream.ready = (async () => {
      let input: CameraInput;
      try {
        input = await source();
      } catch (err) {
        markExited();
        fail(stream, 'unreachable');
        throw err;
      }
      // ffprobe says whether the camera's picture can be passed on as it is; a camera it cannot read is not
      // worth an ffmpeg.
      const probe = programs.ffprobe ? await probeCamera(programs.ffprobe, input) : null;
      const format = probe?.format ?? null;
      if (stream.stopping) {
        markExited();
        throw new StreamFailure(stream.problem ?? 'unreachable');
      }
      if (probe && !format) {
        markExited();
        log.warn({ camera: cameraId, ffprobe: probe.error }, 'camera cannot be read');
        fail(stream, 'unreachable');
        throw new StreamFailure('unreachable');
      }
      // an RTSP camera is opened through a relay of its own, closed when ffmpeg ends
      let opened: Awaited<ReturnType<typeof relayedInput>>;
      try {
        opened = await relayedInput(input);
      } catch (err) {
        markExited();
        log.warn({ err, camera: cameraId }, 'camera cannot be read: no relay to it');
        fail(stream, 'unreachable');
        throw new StreamFailure('unreachable');
      }
      const { relay } = opened;
      if (stream.stopping) {
        relay?.close();
        markExited();
        throw new StreamFailure(stream.problem ?? 'unreachable');
      }
      const copy = canCopy(format);
      let dir: string;
      let child: ChildProcess;
      try {
        dir = mkdtempSync(join(opts.rootDir, `camera-${cameraId}-`));
        stream.dir = dir;
        child = spawn(programs.ffmpeg, hlsArguments(opened.input, dir, copy), { stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (err) {
        relay?.close();
        throw err;
      }
      stream.child = child;
      if (child.pid) writeFileSync(join(dir, PID_FILE), String(child.pid));
      log.info({ camera: cameraId, ffmpegPid: child.pid, copy }, 'camera stream started');
      watchProgress(stream, child);
      const errors: string[] = [];
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        for (const line of chunk.split('\n').filter(Boolean)) {
          errors.push(scrub(line, input.url));
          if (errors.length > 5) errors.shift();
        }
      });
      child.on('error', (err) => {
        // a program that cannot be started emits no exit
        log.error({ err, camera: cameraId }, 'ffmpeg could not be started');
        relay?.close();
        markExited();
        if (!stream.stopping) fail(stream, 'unreachable');
      });
      child.on('exit', (code, signal) => {
        relay?.close();
        markExited();
        if (stream.stopping) return;
        const refused = relay?.refusal();
        if (refused) errors.push(refused);
        log.warn(
          { camera: cameraId, code, signal, ffmpeg: errors },
          'camera stream ended: the camera cannot be reached',
        );
        fail(stream, 'unreachable');
      });
      await firstSegment(stream, dir);
    })();
    // a start nobody waits for any more must not count as an unhandled failure
    stream.ready.catch(() => undefined);
    return stream;
  }

  function watchProgress(stream: Stream, child: ChildProcess) {
    let frames = -1;
    let pending = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('frame=')) continue;
        const n = Number(line.slice(6));
        if (n > frames) {
          frames = n;
          stream.progressAt = Date.now();
        }
      }
    });
  }

  /** Resolves once the playlist lists a segment; rejects when ffmpeg ends first or takes too long. */
  async function firstSegment(stream: Stream, dir: string) {
    const deadline = Date.now() + times.startMs;
    for (;;) {
      if (stream.state === 'failed') throw new StreamFailure(stream.problem ?? 'unreachable');
      if (stream.stopping) throw new StreamFailure('unreachable');
      const text = await readFile(join(dir, PLAYLIST), 'utf8').catch(() => '');
      if (text.includes('#EXTINF')) {
        stream.state = 'live';
        stream.progressAt = Date.now();
        return;
      }
      if (Date.now() > deadline) {
        log.warn({ camera: stream.cameraId }, 'camera sent no picture in time');
        fail(stream, 'timeout');
        throw new StreamFailure('timeout');
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  function sweep() {
    const now = Date.now();
    for (const lease of leases.values()) if (lease.expiresAt <= now) release(lease.id);
    for (const stream of streams.values()) {
      if (stream.state === 'live' && now - stream.progressAt > times.stallMs) {
        log.warn({ camera: stream.cameraId }, 'camera stream stalled: the camera cannot be reached');
        fail(stream, 'unreachable');
      }
    }
  }

  function release(leaseId: string) {
    const lease = leases.get(leaseId);
    if (!lease) return;
    leases.delete(leaseId);
    const stream = lease.stream;
    stream.leases.delete(leaseId);
    if (stream.leases.size === 0 && !stream.stopping) stop(stream);
  }

  function liveLease(leaseId: string): Lease | undefined {
    const lease = leases.get(leaseId);
    if (!lease) return undefined;
    if (lease.expiresAt <= Date.now()) {
      release(leaseId);
      return undefined;
    }
    return lease;
  }

  return {
    /**
     * A lease on the camera's stream for a viewer, once the stream has its first segment: joins the running
     * stream or starts one (`source` gives the address with its sign-in). Throws StreamFailure when the camera
     * cannot be reached or sends nothing in time.
     */
    async watch(
      cameraId: number,
      viewer: { userId: number; setToken: string },
      source: () => Promise<CameraInput>,
    ): Promise<Lease> {
      if (closed) throw new StreamFailure('unreachable');
      let stream = streams.get(cameraId);
      if (!stream || stream.state === 'failed' || stream.stopping) stream = start(cameraId, source);
      const lease: Lease = {
        id: randomBytes(24).toString('base64url'),
        cameraId,
        userId: viewer.userId,
        setToken: viewer.setToken,
        expiresAt: Date.now() + times.leaseMs,
        stream,
      };
      // the lease cannot end while its viewer still waits for the first segment
      lease.expiresAt = Number.POSITIVE_INFINITY;
      leases.set(lease.id, lease);
      stream.leases.add(lease.id);
      try {
        await stream.ready;
      } catch (err) {
        release(lease.id);
        throw err;
      }
      lease.expiresAt = Date.now() + times.leaseMs;
      return lease;
    },

    /** The lease if it is still live (not expired, not given back). */
    lease: liveLease,

    /** Extends a live lease; answers the stream's state. */
    renew(lease: Lease): { state: VideoState; problem: VideoProblem | null } {
      lease.expiresAt = Date.now() + times.leaseMs;
      return { state: lease.stream.state, problem: lease.stream.problem };
    },

    release,

    /** A file of the lease's stream: the playlist or a segment it lists. */
    async file(leaseId: string, name: string): Promise<FileAnswer> {
      const lease = liveLease(leaseId);
      if (!lease || !STREAM_FILE.test(name)) return { status: 404 };
      const stream = lease.stream;
      if (stream.state === 'failed' || stream.stopping || !stream.dir) return { status: 410 };
      try {
        const body = await readFile(join(stream.dir, name));
        return { status: 200, body, type: name === PLAYLIST ? 'application/vnd.apple.mpegurl' : 'video/mp2t' };
      } catch {
        return { status: 404 };
      }
    },

    /**
     * Ends the camera's stream (its address or sign-in changed, or it was removed) with its leases: the players
     * ask again and get the new address, or hear that the camera is gone.
     */
    stopCamera(cameraId: number) {
      const stream = streams.get(cameraId);
      if (!stream) return;
      for (const id of stream.leases) leases.delete(id);
      stream.leases.clear();
      fail(stream, 'unreachable');
    },

    /** What runs for a camera (for operators and tests). */
    status(cameraId: number): StreamStatus | null {
      const stream = streams.get(cameraId);
      if (!stream) return null;
      return { pid: stream.child?.pid ?? null, state: stream.state, viewers: stream.leases.size };
    },

    /** Stops every stream and waits for their ffmpeg to end. */
    async close() {
      closed = true;
      clearInterval(sweeper);
      process.off('exit', killAll);
      for (const lease of leases.values()) lease.stream.leases.delete(lease.id);
      leases.clear();
      for (const stream of [...streams.values()]) stop(stream);
      await Promise.all([...running].map((s) => s.exited));
    },
  };
}
export type Streams = ReturnType<typeof createStreams>;
