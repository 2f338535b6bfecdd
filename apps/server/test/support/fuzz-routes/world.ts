// What the route fuzzing's table and its test share: who a request is made as, the world each server is fuzzed
// in (its sessions, and the tokens and ids of its rows, which differ between the two servers and so are named by
// reference and resolved per server), the values worth trying per property name, and the shape of a route's
// entry in the table: its known-good request and what it may answer.
import fc from 'fast-check';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import type { TestApp } from '../../helpers.ts';
import type { errorLog, RawBody } from '../fuzz.ts';
import type { Hints } from '../zod-arbitrary.ts';

export const PASSWORDS = { platform: 'Admin#2026', company: 'Demo#2026' } as const;

export type Identity = 'platform' | 'company' | 'none' | 'forged' | 'badsign';

// ---- references: values that differ between the two servers (tokens, ids) are named, resolved per server ----

const REF = '\u0001ref:';
export const ref = (name: string) => `${REF}${name}`;

export interface World {
  t: TestApp;
  log: ReturnType<typeof errorLog>;
  sessions: Record<'platform' | 'company' | 'viewer', string>;
  refs: Record<string, unknown>;
  /** The document of the layout-S protocol as exported (what /protocol/add and /protocol/import take). */
  document: Record<string, unknown>;
  n: number;
}

export function resolve(value: unknown, w: World, identity: Identity): unknown {
  if (typeof value === 'string' && value.startsWith(REF)) {
    const name = value.slice(REF.length);
    if (name === 'password') return identity === 'company' ? PASSWORDS.company : PASSWORDS.platform;
    if (!(name in w.refs)) throw new Error(`unknown reference ${name}`);
    return w.refs[name];
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, w, identity));
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolve(v, w, identity);
    return out;
  }
  return value;
}

// ---- hints: values worth trying per property name, beside the generated ones ----

export const ITEM_KEYS = layoutS.items.map((i) => i.key);
const COMMAND_KEYS = layoutS.commands.map((c) => c.key);
export const SAFE_COMMAND = layoutS.commands.find((c) => !c.risky)!.key;
export const CONFIG_KEYS = layoutS.configParams.map((p) => p.key);
export const MENU_KEYS = layoutS.configMenus.map((m) => m.key);
export const setRefs = fc.constantFrom(ref('set.own'), ref('set.bare'), ref('set.foreign'));

export const HINTS: Hints = {
  token: setRefs,
  tokens: fc.array(setRefs, { minLength: 1, maxLength: 3 }),
  items: fc.subarray(ITEM_KEYS, { minLength: 1, maxLength: 6 }),
  action: fc.constantFrom(...COMMAND_KEYS),
  menu: fc.constantFrom(...MENU_KEYS),
  code: fc.constantFrom(ref('code.sub'), ref('code.control')),
  protocolKey: fc.constantFrom(layoutS.key, 'g', 'nope'),
  username: fc.constantFrom('admin@example.com', 'manager@example.com', 'viewer@example.com', '13800000001'),
  hostname: fc.constantFrom('demo.localhost', 'localhost', ''),
  values: fc.dictionary(fc.constantFrom(...CONFIG_KEYS), fc.integer({ min: -5, max: 70_000 }), {
    minKeys: 1,
    maxKeys: 3,
  }),
  start: fc.integer({ min: Date.now() - 400 * 86_400_000, max: Date.now() }),
  end: fc.integer({ min: Date.now() - 300 * 86_400_000, max: Date.now() + 86_400_000 }),
};

export const protocolIds = fc.constantFrom(ref('protocol.published'), ref('protocol.draft'), ref('protocol.victim'));

// ---- the table of routes ----

export interface Call {
  identity: Identity | { token: string };
  body?: unknown;
  raw?: RawBody;
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface RouteCase {
  /** Whether the route changes stored data (a refused call is then checked to change nothing). */
  writes: boolean;
  /** A request that must succeed (code 200), prepared on each server. */
  example: (w: World) => Promise<Call>;
  hints?: Hints;
  /** The route ends the caller's session when it succeeds. */
  endsSession?: boolean;
  /** Codes the known-good request may answer (default: success). */
  accept?: (number | string)[];
}

export const get =
  (identity: Identity, o: Omit<Call, 'identity'> = {}) =>
  async () => ({ identity, ...o });
export const post =
  (identity: Identity, body: unknown = {}) =>
  async (w: World) =>
    ({ identity, body: resolve(body, w, identity) }) as Call;

export function signed(token: string | undefined, o: { badSign?: boolean } = {}): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  const sign = o.badSign ? 'f'.repeat(64) : computeSign(token, time, DEFAULT_SIGN_SECRET);
  return { 'x-time': time, 'x-sign': sign, ...(token ? { 'x-token': token } : {}) };
}
