// The authorisation matrix, derived from the route table: every /yewu route of the OpenAPI document has a row in
// the matrix (support/access-rows.ts) naming what it asks for (public, signed in, or permissions) and the row must
// agree with the route's own declaration (`config.access`); a route without a declaration, or with a malformed
// one, stops the server from starting. Every route is then called as each kind of caller — no session, a personal
// user, the company's administrator, operator and viewer, another company's administrator and the platform
// administrator — with a request generated from the route's own schema (seeded by the route), aimed at the
// caller's own set and the company's rows. The refused calls go first, all of them: without a session a route that
// is not public answers 101, a role without the permission a worded 403, and the database is as it was before
// them. Every caller the declaration lets through then gets exactly the row's answer: 200, or the code the row
// states with why the generated request gets it (a body the route's own checks refuse, a row that is not the
// caller's, a module that is offline). Calls that take away what they name run last, one at a time. The callers
// and their world are support/access-world.ts; what another company reaches is checked in access-tenants.test.ts.
import { describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import accessPlugin, { alsoOf, isDeclaredRoute, permissionsOf, permitted, type Access } from '../src/plugins/access.ts';
import { answerOf, ROWS, type Expect } from './support/access-rows.ts';
import {
  bounded,
  CALLERS,
  callers,
  digest,
  key,
  requestFor,
  routes,
  secretsA,
  seedOf,
  send,
  sessionOf,
  t,
  useAccessWorld,
  type CallerName,
  type CapturedRoute,
} from './support/access-world.ts';

function expectOf(access: Access): Expect {
  if ('public' in access) return 'public';
  if ('signedIn' in access) return 'signedIn';
  const any = [...(permissionsOf(access) ?? [])].sort();
  const all = alsoOf(access);
  return all ? { any, all: [...all].sort() } : any;
}

const normal = (e: Expect) =>
  typeof e === 'string'
    ? e
    : 'any' in e
      ? { any: [...e.any].sort(), all: [...e.all].sort() }
      : [...(e as readonly string[])].sort();
const sameExpect = (a: Expect, b: Expect) => JSON.stringify(normal(a)) === JSON.stringify(normal(b));

useAccessWorld();

describe('access matrix', () => {
  it('has a row for every route of the OpenAPI document, agreeing with its declaration, and no other', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => isDeclaredRoute(path))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(documented.length).toBeGreaterThan(100);
    const byKey = new Map(routes().map((r) => [key(r), r]));
    expect(
      documented.filter((k) => !byKey.get(k)?.access),
      'routes without a declaration',
    ).toEqual([]);
    expect(
      documented.filter((k) => !ROWS[k]),
      'routes to add to the matrix',
    ).toEqual([]);
    expect(
      Object.keys(ROWS).filter((k) => !documented.includes(k)),
      'rows of routes no longer there',
    ).toEqual([]);
    const disagree = documented
      .filter((k) => ROWS[k] && byKey.get(k)?.access && !sameExpect(ROWS[k].access, expectOf(byKey.get(k)!.access!)))
      .map(
        (k) =>
          `${k}: declared ${JSON.stringify(expectOf(byKey.get(k)!.access!))}, matrix ${JSON.stringify(ROWS[k]!.access)}`,
      );
    expect(disagree, 'declarations that differ from the matrix').toEqual([]);
  });

  it('a route without a declaration, or with a malformed one, stops the server from starting, naming it', async () => {
    // The plugin as the server registers it, beside stand-ins of the plugins it follows.
    const start = async (add: (app: FastifyInstance) => void) => {
      const app = Fastify();
      await app.register(fp(async () => {}, { name: 'api-conventions' }));
      await app.register(fp(async () => {}, { name: 'auth' }));
      await app.register(accessPlugin);
      add(app);
      try {
        await app.ready();
      } finally {
        await app.close();
      }
    };
    await expect(start((app) => app.post('/yewu/matrix/undeclared', async () => ({})))).rejects.toThrow(
      'POST /yewu/matrix/undeclared does not declare who may call it',
    );
    const malformed = { permission: [], scope: 'company' } as unknown as Access;
    await expect(
      start((app) => app.get('/yewu/matrix/empty', { config: { access: malformed } }, async () => ({}))),
    ).rejects.toThrow('GET /yewu/matrix/empty declares its access wrongly');
    // Routes outside the API need none.
    await expect(start((app) => app.get('/elsewhere', async () => ({})))).resolves.toBeUndefined();
  });

  it('calls every route as every caller: 101 without a session, a worded 403 without the permission (nothing changed), else exactly the row’s answer', async () => {
    const problems: string[] = [];
    const seen = new Map<string, number>();
    const plan = routes().filter((r) => ROWS[key(r)] && r.access);
    /** Whether the declaration lets the caller through (the platform administrator passes every gate). */
    const letThrough = (route: CapturedRoute, name: CallerName) => {
      const access = route.access!;
      if ('public' in access) return true;
      if (name === 'none') return false;
      const caller = callers.get(name)!;
      if (caller.permissions.includes('*:*')) return true;
      const platform = 'scope' in access && access.scope === 'platform';
      return !platform && permitted(access, caller.permissions);
    };
    const task = (route: CapturedRoute, name: CallerName, seed: number) => async () => {
      const row = ROWS[key(route)]!;
      const access = route.access!;
      const caller = callers.get(name)!;
      let token = caller.token;
      if (row.ownSession && caller.account) token = await sessionOf(caller.account, caller.password!);
      const request = requestFor(route, row, caller.targets, seed);
      const a = await send(route, token, request);
      seen.set(key(route), (seen.get(key(route)) ?? 0) + 1);
      const required = [...(permissionsOf(access) ?? []), ...(alsoOf(access) ?? [])];
      const platform = 'scope' in access && access.scope === 'platform';
      const what = `${key(route)} as ${name} ${JSON.stringify(request).slice(0, 300)} → ${a.code} ${a.text.slice(0, 200)}`;
      if (letThrough(route, name)) {
        const expected = answerOf(row, name);
        if (a.code !== expected) problems.push(`expected ${expected}${row.why ? ` (${row.why})` : ''}: ${what}`);
      } else if (name === 'none') {
        if (a.code !== 101) problems.push(`no session, not 101: ${what}`);
      } else if (a.code !== 403 || !a.msg || a.msg.startsWith('errors.') || a.data !== null) {
        problems.push(`lacks ${platform ? 'the platform' : required.join(', ')}, not a worded 403: ${what}`);
      }
      if (name === 'otherAdmin' && secretsA.some((s) => a.text.includes(s)))
        problems.push(`another company's answer holds company A's data: ${what}`);
    };
    const calls = plan.flatMap((r) => CALLERS.map((name) => ({ r, name, seed: seedOf(r) })));
    const refused = calls.filter((c) => !letThrough(c.r, c.name));
    const allowed = calls.filter((c) => letThrough(c.r, c.name));
    // The refused calls first, all of them: the database is as it was after them.
    const before = await digest();
    await bounded(refused.map((c) => task(c.r, c.name, c.seed)));
    expect(await digest(), 'what the refused calls changed').toEqual(before);
    // Then the others, those taking away what they name last.
    await bounded(allowed.filter((c) => !ROWS[key(c.r)]!.destroys).map((c) => task(c.r, c.name, c.seed)));
    // one at a time, in a fixed order: two callers taking away the same row get the same answers every run
    const last = (c: { r: CapturedRoute }) => Number(ROWS[key(c.r)]!.destroys === 'last');
    for (const c of allowed.filter((x) => ROWS[key(x.r)]!.destroys).sort((x, y) => last(x) - last(y)))
      await task(c.r, c.name, c.seed)();
    if (problems.length) console.log(problems.sort().join('\n'));
    expect(problems).toEqual([]);
    expect(seen.size).toBe(plan.length);
  }, 300_000);
});
