// Acting for another company (X-Companyid): the role held there reaches that company's sets only. A set of a third
// company the person merely subscribed to stays theirs with the subscription's rights and what their home role
// grants: administrator rights in the company switched to never reach it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { saveMembership } from '../src/modules/users/memberships.ts';
import { ensureCompanyRoles } from '../src/seed/base.ts';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';

let t: TestApp;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function setOf(companyId: number, name: string) {
  const fleet = t.app.devices.fleet;
  const modem = await fleet.createModem({ companyId, modemKey: `CTX${Date.now()}${seq++}` });
  return fleet.createGenset({ companyId, ownerUserId: null, name, modemId: modem.id, protocolKey: layoutS.key });
}

/** A viewer at home (no genset:report) who administers a second company and subscribed to a third one's set. */
async function world() {
  const db = t.app.database.db;
  const home = await createCompany(t, `Home ${seq++}`);
  const administered = await createCompany(t, `Administered ${seq++}`);
  const third = await createCompany(t, `Third ${seq++}`);
  const person = await freshUser(t, { companyId: home, role: 'viewer' });
  const rolesThere = await ensureCompanyRoles(db, administered);
  await saveMembership(db, person.id, {
    companyId: home,
    roleId: (await ensureCompanyRoles(db, home)).viewer!,
    departmentId: null,
  });
  await saveMembership(db, person.id, {
    companyId: administered,
    roleId: rolesThere.companyAdmin!,
    departmentId: null,
  });
  const foreign = await setOf(third, 'Subscribed elsewhere');
  await t.app.devices.fleet.subscribe(foreign.id, person.id, 'view');
  const own = await setOf(administered, 'Administered set');
  const token = await login(t.app, person.account, person.password);
  return { home, administered, person, foreign, own, token, switched: { 'x-companyid': String(administered) } };
}

const REFUSED = { code: 403, msg: 'You do not have permission for this operation.', data: null };

describe('X-Companyid and subscriptions', () => {
  it('report calls on a subscribed set of a third company are refused when the home role lacks genset:report', async () => {
    const w = await world();
    const as = { token: w.token, headers: w.switched };
    // the administered company's own set: its administrator role applies
    expect((await call(t.app, 'POST', '/genset/reportone', { ...as, body: { token: w.own.token } })).code).toBe(200);
    // the subscribed set of a third company: the home role (viewer) decides, as without the header
    for (const headers of [w.switched, {}]) {
      const opts = { token: w.token, headers };
      expect(await call(t.app, 'POST', '/genset/reportone', { ...opts, body: { token: w.foreign.token } })).toEqual(
        REFUSED,
      );
      expect(
        await call(t.app, 'POST', '/baobiao/info', { ...opts, body: { token: w.foreign.token, type: 1 } }),
      ).toEqual(REFUSED);
      expect(
        await call(t.app, 'POST', '/baobiao/add', {
          ...opts,
          body: { token: w.foreign.token, type: 1, form: {} },
        }),
      ).toEqual(REFUSED);
    }
    // nothing was saved
    const saved = await t.app.database.db
      .selectFrom('report')
      .select('id')
      .where('genset_id', '=', w.foreign.id)
      .execute();
    expect(saved).toEqual([]);
    // still readable with the subscription's view rights
    const info = await call(t.app, 'POST', '/devicedata/getstatus', { ...as, body: { token: w.foreign.token } });
    expect(info.code).toBe(200);
  });

  it('a subscription gives its own rights, not the switched role’s: a view subscriber cannot manage the set', async () => {
    const w = await world();
    const as = { token: w.token, headers: w.switched };
    const update = await call(t.app, 'POST', '/genset/update', {
      ...as,
      body: { token: w.foreign.token, name: 'Renamed by another company’s administrator' },
    });
    expect(update.code).toBe(403);
    const row = await t.app.database.db
      .selectFrom('genset')
      .select('name')
      .where('id', '=', w.foreign.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Subscribed elsewhere');
  });

  it('report calls pass on a subscribed set when the home role grants genset:report', async () => {
    const w = await world();
    const db = t.app.database.db;
    const homeRoles = await ensureCompanyRoles(db, w.home);
    await saveMembership(db, w.person.id, { companyId: w.home, roleId: homeRoles.companyAdmin!, departmentId: null });
    const token = await login(t.app, w.person.account, w.person.password);
    const one = await call(t.app, 'POST', '/genset/reportone', {
      token,
      headers: w.switched,
      body: { token: w.foreign.token },
    });
    expect(one.code).toBe(200);
  });
});
