// The closed-loop load of http-load.ts for GET calls (parameters in the query string, no body): the same
// keep-alive connections, one socket each, the next request sent as soon as the previous answer is read,
// latency from writing the request to reading the whole body, and the same checks of the answer (HTTP 200 and
// envelope code 200, read from its first bytes).
import http from 'node:http';
import type { LoadRequest, LoadResult } from './http-load.ts';
import { summary } from './stats.ts';

const HEAD_BYTES = 300;
const ENVELOPE_CODE = /^\{"code":(\d+)[,}]/;

/** Runs `connections` loops of GET requests against `baseUrl` for `durationMs`; a request's body is ignored. */
export async function loadGet(
  baseUrl: string,
  opts: {
    connections: number;
    durationMs: number;
    next: (connection: number, n: number) => LoadRequest;
    rawOk?: boolean;
    maxRequests?: number;
  },
): Promise<LoadResult> {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections, maxFreeSockets: opts.connections });
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let bytes = 0;
  const started = performance.now();
  const deadline = started + opts.durationMs;

  const one = (req: LoadRequest) =>
    new Promise<{ status: number; length: number; head: string }>((resolve, reject) => {
      const r = http.request(
        { host: url.hostname, port: url.port, method: 'GET', path: req.path, agent, headers: req.headers },
        (res) => {
          let length = 0;
          let head = '';
          res.on('data', (c: Buffer) => {
            if (!length) head = c.toString('utf8', 0, Math.min(c.length, HEAD_BYTES));
            length += c.length;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, length, head }));
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end();
    });

  let issued = 0;
  const loop = async (connection: number) => {
    let n = 0;
    while (performance.now() < deadline && issued < (opts.maxRequests ?? Infinity)) {
      issued++;
      const req = opts.next(connection, n++);
      const t0 = performance.now();
      let problem: string | null = null;
      try {
        const res = await one(req);
        latencies.push(performance.now() - t0);
        bytes += res.length;
        if (res.status !== 200) problem = `HTTP ${res.status}`;
        else if (!opts.rawOk) {
          const code = ENVELOPE_CODE.exec(res.head)?.[1];
          if (code !== '200') problem = `code ${code ?? '?'}: ${res.head.slice(0, 200)}`;
        }
      } catch (err) {
        problem = String(err);
      }
      if (problem) {
        errors++;
        firstError ??= problem;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, (_, i) => loop(i)));
  const durationMs = performance.now() - started;
  agent.destroy();
  return {
    requests: latencies.length,
    errors,
    firstError,
    durationMs,
    perSecond: latencies.length / (durationMs / 1000),
    latency: summary(latencies),
    bytesPerAnswer: latencies.length ? bytes / latencies.length : 0,
  };
}
