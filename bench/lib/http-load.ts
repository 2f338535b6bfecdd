// A closed-loop HTTP load generator in the manner of autocannon: a fixed number of keep-alive connections,
// each sending its next request as soon as the previous answer is read, for a fixed time. Latency is taken
// from writing the request to reading the whole body. Bodies and signed headers are built per request by
// the caller, so every connection can be a different user asking for different things.
import http from 'node:http';
import { summary } from './stats.ts';

/** Bytes of each answer kept for the checks and for the first error's text. */
const HEAD_BYTES = 300;
/** The code at the start of an envelope. */
const ENVELOPE_CODE = /^\{"code":(\d+)[,}]/;

export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
  /** The JSON body of a POST; a GET (`method: 'GET'`, parameters in the path's query) sends none. */
  body: string;
  method?: 'GET' | 'POST';
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

  // An answer is not kept whole: its length is counted and its first bytes kept, which hold the envelope's code
  // (`{"code":200,…`, the server writes it first). Joining and parsing 8 KB answers thousands of times a second
  // made this process collect garbage (major collections, driven by the buffers) often enough to add tens of
  // milliseconds to answers it was timing.
  const one = (req: LoadRequest) =>
    new Promise<{ status: number; length: number; head: string }>((resolve, reject) => {
      const r = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: req.method ?? 'POST',
          path: req.path,
          agent,
          headers:
            req.method === 'GET'
              ? req.headers
              : {
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(req.body),
                  ...req.headers,
                },
        },
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
      if (req.method === 'GET') r.end();
      else r.end(req.body);
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
