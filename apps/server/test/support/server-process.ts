// Runs the real server program (src/main.ts) as a child process, so a test can kill it with SIGKILL
// and start it again on the same data and ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { computeSign, DEFAULT_SIGN_SECRET } from '@genset/protocol';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

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

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: port, HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output.join('')}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (chunk.toString().includes('console listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join('')}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A signed POST to the instance's API, as the console makes it (with the user's token when there is one). */
export async function postTo(
  instance: ServerProcess,
  path: string,
  body: object,
  utoken = '',
): Promise<{ code: number; msg: string; data: any }> {
  const time = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${instance.url}/yewu${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-time': time,
      'x-sign': computeSign(utoken || undefined, time, DEFAULT_SIGN_SECRET),
      ...(utoken ? { 'x-token': utoken } : {}),
    },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}
