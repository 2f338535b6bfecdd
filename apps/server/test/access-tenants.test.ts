// What a company reaches of another, through the access matrix (support/access-rows.ts) and its world
// (support/access-world.ts): every route that names a set, station, user, role, template, department, webhook,
// camera, subscription or log entry is called by the other company's administrator with company A's real targets
// and answers 403 or 404 with none of A's data (a form refusing the field that names A's row reads exactly as for
// a row that does not exist); no answer to that administrator ever holds a name of company A. A role a company made
// with company:manage reaches no other company, and no company hands out protocol:manage. One server, calls in
// parallel with bounded concurrency.
import { describe, expect, it } from 'vitest';
import { call, login } from './helpers.ts';
import { keysOf } from './support/zod-arbitrary.ts';
import { P, ROWS } from './support/access-rows.ts';
import {
  bounded,
  callers,
  key,
  permissionsOfToken,
  requestFor,
  seedOf,
  roleA,
  routes,
  secretsA,
  send,
  t,
  targetsOf,
  tenantA,
  useAccessWorld,
  withoutRows,
} from './support/access-world.ts';

useAccessWorld();

describe('platform routes', () => {
  it('a role a company made with company:manage reaches no other company, and none is made with protocol:manage', async () => {
    const token = await login(t.app, roleA.user.account, roleA.user.password);
    expect(await permissionsOfToken(token)).toContain(P.companyManage);
    for (const [method, url, body] of [
      ['GET', '/company/list', undefined],
      ['POST', '/company/update', { id: tenantA.company, name: 'Taken over' }],
    ] as const) {
      const res = await call(t.app, method, url, { token, ...(body ? { body } : {}) });
      expect(res.code, `${url}: ${res.msg}`).toBe(403);
      expect(res.data).toBeNull();
    }
    // The platform-wide protocols every company's sets run on: a company's administrator cannot hand out the
    // permission to edit them (nor anything else their own role lacks), and changes nothing trying.
    const admin = callers.get('companyAdmin')!;
    const before = await call(t.app, 'GET', '/role/list', { token: admin.token, query: { page: '1', size: '50' } });
    const refused = await call(t.app, 'POST', '/role/save', {
      token: admin.token,
      body: { name: 'Protocol editors', permissions: [P.gensetView, P.protocolManage], dataScope: 'self' },
    });
    // the authority rule's refusal: a 403 naming the permission beyond reach
    expect(refused).toEqual({
      code: 403,
      msg: 'Not allowed: the permission “Manage protocols” is beyond what you hold.',
      data: null,
    });
    const after = await call(t.app, 'GET', '/role/list', { token: admin.token, query: { page: '1', size: '50' } });
    expect(after.data.total).toBe(before.data.total);
    const offered = await call(t.app, 'GET', '/role/getDataAuthRole', { token: admin.token });
    expect(JSON.stringify(offered.data)).not.toContain(P.protocolManage);
    const platformOffer = await call(t.app, 'GET', '/role/getDataAuthRole', { token: callers.get('platform')!.token });
    expect(JSON.stringify(platformOffer.data)).toContain(P.protocolManage);
  });
});

describe('cross-tenant', () => {
  it("another company's administrator reaches none of company A's targets and reads none of its data", async () => {
    const other = callers.get('otherAdmin')!;
    const problems: string[] = [];
    const aimed: string[] = [];
    const plan = routes().filter((r) => {
      const row = ROWS[key(r)];
      if (!row || !r.access || !('scope' in r.access)) return false;
      if (!['set', 'site', 'company'].includes(r.access.scope ?? '')) return false;
      const schema = (r.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
      const fields = [schema.body, schema.querystring, schema.params].flatMap((s) => (s ? keysOf(s) : []));
      return Object.keys(targetsOf(r, row)).some((f) => fields.includes(f));
    });
    // Made before anything is taken away, each on A's real rows.
    await bounded(
      plan.map((route) => async () => {
        const row = ROWS[key(route)]!;
        const request = requestFor(route, row, { ...other.targets, ...tenantA }, seedOf(route));
        const a = await send(route, other.token, request);
        aimed.push(key(route));
        const what = `${key(route)} ${JSON.stringify(request).slice(0, 300)} → ${a.code} ${a.text.slice(0, 200)}`;
        if (secretsA.some((s) => a.text.includes(s))) problems.push(`answer holds company A's data: ${what}`);
        if (row.filters) return;
        if (a.code === 400) {
          // A form refusing the field that names A's row is a denial too, when it reads exactly as for a row that
          // does not exist (nothing tells A's rows from none).
          const fields = Object.keys((a.data as { fields?: object } | null)?.fields ?? {});
          const none = await send(route, other.token, withoutRows(route, row, request, fields));
          if (!fields.some((f) => f in targetsOf(route, row)) || none.code !== 400 || none.msg !== a.msg)
            problems.push(`refused otherwise than for a row that does not exist: ${what} / ${none.code} ${none.msg}`);
          return;
        }
        if (a.code !== 403 && a.code !== 404) problems.push(`not refused: ${what}`);
        if (a.data !== null && a.data !== undefined) problems.push(`answer carries data: ${what}`);
      }),
    );
    if (problems.length) console.log(problems.join('\n'));
    expect(problems).toEqual([]);
    expect(aimed.length).toBeGreaterThan(40);
  }, 120_000);
});
