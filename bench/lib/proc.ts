// Child processes of the benchmark and what Linux says about them: resident memory, CPU time, open-file limit.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { sleep } from './stats.ts';

const CLOCK_TICKS_PER_S = 100;

export interface ProcSample {
  /** Resident set size now (kB). */
  rssKb: number;
  /** Peak resident set size since the process started (kB). */
  hwmKb: number;
  /** User + system CPU time (ms). */
  cpuMs: number;
}

export function procSample(pid: number): ProcSample {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of /proc/pid/stat (utime, stime) are the 12th and 13th after the command name.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM'), cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_S };
  } catch {
    return { rssKb: NaN, hwmKb: NaN, cpuMs: NaN };
  }
}

export function openFileLimit(pid: number): number {
  try {
    const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
    return Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** Samples a process every `everyMs` and keeps the peak RSS; `stop()` returns it with the CPU share used. */
export function watchProcess(pid: number, everyMs = 250) {
  const first = procSample(pid);
  const t0 = performance.now();
  let peakRssKb = first.rssKb;
  const timer = setInterval(() => {
    const s = procSample(pid);
    if (s.rssKb > peakRssKb) peakRssKb = s.rssKb;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const last = procSample(pid);
      if (last.rssKb > peakRssKb) peakRssKb = last.rssKb;
      const elapsed = performance.now() - t0;
      return { peakRssKb, rssKb: last.rssKb, cpuPercent: ((last.cpuMs - first.cpuMs) / elapsed) * 100 };
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface Child {
  child: ChildProcess;
  pid: number;
  /** The command line, as it would be typed. */
  command: string;
  output: string[];
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Runs `node [nodeArgs] --import tsx script` on Node of this process, through a shell that first raises the
 * open-file limit to the hard limit (`exec` keeps the pid, so /proc/<pid> is the Node process itself).
 */
export function spawnNode(script: string, opts: { cwd: string; env: Record<string, string>; nodeArgs?: string[] }) {
  const args = [...(opts.nodeArgs ?? []), '--import', 'tsx', script];
  const child = spawn(
    '/bin/sh',
    ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', 'sh', process.execPath, ...args],
    {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 2000) output.splice(0, output.length - 2000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const envText = Object.entries(opts.env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return {
    child,
    pid: child.pid!,
    command: `(cd ${opts.cwd} && ${envText} node ${args.join(' ')})`,
    output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const done = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!done) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  } satisfies Child;
}

/** Waits until something accepts TCP connections on the port, or the child exits, or time runs out. */
export async function waitForPort(child: Child, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`process exited before listening:\n${child.output.join('')}`);
    if (await accepts(port)) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms:\n${child.output.join('')}`);
}

/** Jiffies the whole machine spent busy and in total so far (first line of /proc/stat). */
function machineTicks(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.reduce((a, b) => a + b, 0);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/** Measures how many CPU cores the whole machine kept busy between `start` and `stop` (ours included). */
export function watchMachine() {
  const first = machineTicks();
  const t0 = performance.now();
  return {
    stop(): number {
      const last = machineTicks();
      const seconds = (performance.now() - t0) / 1000;
      return (last.busy - first.busy) / CLOCK_TICKS_PER_S / seconds;
    },
  };
}

/**
 * Waits (at most `maxMs`) until the machine has been nearly idle for a 2-s window, so that a phase does not
 * start while other programs hold the cores; returns the load seen last (cores) and how long it waited.
 */
export async function waitForQuiet(maxMs: number, thresholdCores = 0.35): Promise<{ cores: number; waitedMs: number }> {
  const t0 = performance.now();
  let cores: number;
  do {
    const m = watchMachine();
    await sleep(2000);
    cores = m.stop();
    if (cores < thresholdCores) break;
  } while (performance.now() - t0 < maxMs);
  return { cores, waitedMs: performance.now() - t0 };
}
