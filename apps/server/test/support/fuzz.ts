// What the fuzz tests share: the seed and run counts (FUZZ_SEED, FUZZ_RUNS), hostile values, a fingerprint of
// the database (a refused call must change nothing), a module that answers every command, a log that keeps
// what the server wrote at error level, and where PostgreSQL is for the comparison of the two databases.
import { createHash } from 'node:crypto';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { FakeModule } from './fake-module.ts';

/** FUZZ_SEED replays a run; FUZZ_RUNS scales every test's number of generated cases (1 = the default counts). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20260517);
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
export function runs(base: number): number {
  return Math.max(1, Math.round(base * (Number.isFinite(SCALE) && SCALE > 0 ? SCALE : 1)));
}
/** FUZZ_SHRINK=1 shrinks a failing case to a smallest one (slow with a server behind it, so off by default). */
export const FUZZ_SHRINK = process.env.FUZZ_SHRINK === '1';

export function assertOptions(salt: number, numRuns: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED + salt, numRuns, endOnFailure: !FUZZ_SHRINK, verbose: 1 };
}

// ---- hostile values -------------------------------------------------------------------------------------

export const MEGABYTE_STRING = 'x'.repeat(1_000_000);
const SQL = ["' OR '1'='1", "'; DROP TABLE users; --", '1; select pg_sleep(1)', '%', '_', '\\', "admin'--"];
const HTML = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', '&lt;&amp;'];
const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e',
  '\ufeff',
  '🦄',
  '\n\r\t',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  '../../../etc/passwd',
  '%00',
  '%',
  'ＡＢＣ',
  'İ',
];
const ODD_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  0.1,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  8_640_000_000_001,
];

/** A single hostile JSON value: odd text, odd numbers, wrong types, long text, deep arrays. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...SQL, ...HTML, ...ODD_TEXT) },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...ODD_NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { a: 1 }, [1, 'a']) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(MEGABYTE_STRING, 'é'.repeat(100_000), 'a'.repeat(1000)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }).map((n) => nested(n)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 50 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** A body that is not a well-formed JSON object of the route's shape, as bytes on the wire. */
export interface RawBody {
  raw: string | Buffer;
  contentType: string;
}

function deepJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** Raw bodies: deep nesting, prototype keys, invalid UTF-8, empty, not JSON, wrong content types, over 1 MB. */
export function hostileRawBody(keys: string[]): fc.Arbitrary<RawBody> {
  const json = 'application/json';
  const key = keys[0] ?? 'token';
  const fixed: RawBody[] = [
    { raw: deepJson(10_000), contentType: json },
    { raw: `{"${key}":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, contentType: json },
    { raw: '{"__proto__":{"isAdmin":true}}', contentType: json },
    { raw: `{"${key}":"a","__proto__":{"permissions":["*"]}}`, contentType: json },
    { raw: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: json },
    { raw: Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), contentType: json },
    {
      raw: Buffer.from([0x7b, 0x22, ...Buffer.from(key), 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
      contentType: json,
    },
    { raw: '', contentType: json },
    { raw: ' ', contentType: json },
    { raw: '{', contentType: json },
    { raw: '{"a":NaN}', contentType: json },
    { raw: `{"${key}":Infinity}`, contentType: json },
    { raw: `{"${key}":1e999}`, contentType: json },
    { raw: `{"${key}":-1e999}`, contentType: json },
    { raw: 'null', contentType: json },
    { raw: '[]', contentType: json },
    { raw: '"text"', contentType: json },
    { raw: '12', contentType: json },
    { raw: `{"${key}":"${'y'.repeat(1_100_000)}"}`, contentType: json },
    { raw: `{"${key}":"a"}`, contentType: 'text/plain' },
    { raw: `{"${key}":"a"}`, contentType: 'application/xml' },
    { raw: `{"${key}":"a"}`, contentType: 'application/json; charset=latin1' },
    { raw: `${key}=a&${key}=b&page=1`, contentType: 'application/x-www-form-urlencoded' },
    { raw: `${key}[__proto__][x]=1`, contentType: 'application/x-www-form-urlencoded' },
    { raw: '%%%', contentType: 'application/x-www-form-urlencoded' },
    {
      raw: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      contentType: 'multipart/form-data; boundary=x',
    },
  ];
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fixed) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }).map((raw) => ({ raw, contentType: json })) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 80 }).map((bytes) => ({ raw: Buffer.from(bytes), contentType: json })),
    },
  );
}

type Mutation = 'drop' | 'extra' | 'replace' | 'wrap';

/** A valid-looking object broken in one place: a required field missing, an unknown one, a hostile value. */
export function mutated(valid: fc.Arbitrary<unknown>, keys: string[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.constantFrom<Mutation>('drop', 'extra', 'replace', 'replace', 'replace', 'wrap'),
      fc.nat(),
      hostileValue,
      fc.constantFrom('zzz', 'isAdmin', 'companyId', 'userId', 'toString', 'hasOwnProperty', 'valueOf'),
    )
    .map(([value, op, index, hostile, extraKey]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return hostile;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const key = keys.length ? keys[index % keys.length]! : extraKey;
      if (op === 'drop') delete out[key];
      else if (op === 'extra') out[extraKey] = hostile;
      else if (op === 'wrap') out[key] = [out[key]];
      else out[key] = hostile;
      return out;
    });
}

// ---- the database -------------------------------------------------------------------------------------

/** Tables whose rows a refused call must leave alone, with the columns that move on their own left out. */
const FINGERPRINTED: Record<string, string> = {
  company: 'id',
  company_host: 'host',
  department: 'id',
  role: 'id',
  users: 'id',
  menu: 'id',
  protocol: 'id',
  genset: 'id',
  subscription: 'id',
  item_selection: 'id',
  site: 'id',
  price_template: 'id',
};
/** Tables counted only (large or written by ingestion). */
const COUNTED = [
  'modem',
  'sample',
  'alarm',
  'status_change',
  'command',
  'set_latest',
  'price_template_version',
  'site_device',
  'site_tactic',
  'site_energy',
];

/** Row counts and a hash of the main tables: equal before and after a call that changed nothing. */
export async function fingerprint(db: Db): Promise<string> {
  const h = createHash('sha256');
  for (const [table, key] of Object.entries(FINGERPRINTED)) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by ${sql.ref(key)}`.execute(
      db,
    );
    h.update(`${table}:${rows.rows.length}:`);
    for (const row of rows.rows)
      h.update(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
  }
  const modems = await sql<
    Record<string, unknown>
  >`select modem_key, secret_hash, company_id from modem order by id`.execute(db);
  h.update(JSON.stringify(modems.rows));
  for (const table of COUNTED) {
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    h.update(`${table}:${String(r.rows[0]?.n)}`);
  }
  return h.digest('hex');
}

// ---- PostgreSQL for the comparison ---------------------------------------------------------------------

const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/test';

/** The PostgreSQL server to compare against: TEST_DATABASE_URL, or the local one when it answers. */
export async function postgresUrl(): Promise<string | null> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  if (process.env.FUZZ_COMPARE === '0') return null;
  const answers = await new Promise<boolean>((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(5432, '127.0.0.1', () => done(true));
  });
  return answers ? LOCAL_PG : null;
}

// ---- the server's log ---------------------------------------------------------------------------------

/** A logger that keeps what the server logs at error level or above (an invariant: nothing is). */
export function errorLog() {
  const lines: { msg: string; err?: { message?: string; stack?: string } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        try {
          const entry = JSON.parse(line) as { level: number; msg: string; err?: { message?: string } };
          if (entry.level >= 50) lines.push(entry);
        } catch {
          lines.push({ msg: line });
        }
      }
      callback();
    },
  });
  return { logger: { level: 'error', stream }, lines };
}

// ---- a module that answers ----------------------------------------------------------------------------

interface AnsweredRequest {
  id?: string;
  kind?: string;
  reads?: { fc: number; start: number; count: number }[];
  writes?: { fc: number; address: number; value?: number | boolean; values?: (number | boolean)[] }[];
}

/**
 * Answers every request as a working module with a controller behind it would: writes are kept in a register
 * and coil map that reads return (zeros elsewhere), restarts succeed, so that command and configuration calls
 * run their whole path in a few milliseconds.
 */
export function answerRequests(module: FakeModule) {
  const registers = new Map<number, number>();
  const coils = new Map<number, boolean>();
  const on = (v: unknown) => v === true || v === 1 || v === 0xff00;
  module.client.on('message', (topic, payload) => {
    if (!topic.endsWith('/request')) return;
    let request: AnsweredRequest;
    try {
      request = JSON.parse(payload.toString()) as AnsweredRequest;
    } catch {
      return;
    }
    if (!request.id) return;
    for (const w of request.writes ?? []) {
      if (w.fc === 5) coils.set(w.address, on(w.value));
      if (w.fc === 6) registers.set(w.address, Number(w.value));
      if (w.fc === 15) (w.values ?? []).forEach((v, i) => coils.set(w.address + i, on(v)));
      if (w.fc === 16) (w.values ?? []).forEach((v, i) => registers.set(w.address + i, Number(v)));
    }
    const range = (b: { start: number; count: number }) => Array.from({ length: b.count }, (_, i) => b.start + i);
    const reply =
      request.kind === 'read'
        ? {
            id: request.id,
            ok: true,
            data: {
              ts: Date.now(),
              blocks: (request.reads ?? []).map((b) =>
                b.fc === 1 || b.fc === 2
                  ? { fc: b.fc, start: b.start, bits: range(b).map((a) => coils.get(a) ?? false) }
                  : { fc: b.fc, start: b.start, words: range(b).map((a) => registers.get(a) ?? 0) },
              ),
            },
          }
        : { id: request.id, ok: true };
    void module.publish('reply', reply).catch(() => undefined);
  });
}
