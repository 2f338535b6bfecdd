// A closed-loop HTTP load generator in the manner of autocannon: a fixed number of keep-alive connections,
// each sending its next request as soon as the previous answer is read, for a fixed time. Latency is taken
// from writing the request to reading the whole body. Bodies and signed headers are built per request by
// the caller, so every connection can be a different user asking for different things.
import http from 'node:http';
import { summary } from './stats.ts';

export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  requests: number;
  /** Answers that were not HTTP 200 with envelope code 200 (or, with `rawOk`, any HTTP 200). */
  errors: number;
  firstError: string | null;
  durationMs: number;
  perSecond: number;
  latency: ReturnType<typeof summary>;
  bytesPerAnswer: number;
}

/**
 * Runs `connections` loops against `baseUrl` for `durationMs`; `next(connection, n)` builds each request.
 * Each loop owns one socket (an agent with exactly `connections` keep-alive sockets).
 */
export async function load(
  baseUrl: string,
  opts: {
    connections: number;
    durationMs: number;
    next: (connection: number, n: number) => LoadRequest;
    /** Accept any HTTP 200 without reading an envelope (file downloads, bare routes). */
    rawOk?: boolean;
    /** Stop after this many requests in all (sequential timings); the duration still bounds the run. */
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
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const r = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: req.path,
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(req.body),
            ...req.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(req.body);
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
        bytes += res.body.length;
        if (res.status !== 200) problem = `HTTP ${res.status}`;
        else if (!opts.rawOk) {
          const code = (JSON.parse(res.body.toString()) as { code: number; msg: string }).code;
          if (code !== 200) problem = `code ${code}: ${res.body.toString().slice(0, 200)}`;
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
