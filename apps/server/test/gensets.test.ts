// Set management calls against a real server: add with every field of spec 3 and its module, validation,
// info, update, soft delete (history kept, the module's data no longer lands), "my gensets" and the company
// list with status filters, search, paging bounds, rights, and 404 for sets a user may not see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutG, layoutS, MAX_SELECTED_ITEMS } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule } from './support/fake-module.ts';

let t: TestApp;
let brokerUrl: string;
let manager: string;
let operator: string;
let viewer: string;
let companyId: number;
let seq = 0;
const uid = () => `${Date.now().toString(36)}${seq++}`;

const FULL = {
  name: 'Hospital standby 1',
  number: 'HS-001',
  brand: 'Acme Power',
  model: 'AP-500',
  factoryNumber: 'F123456',
  manufacturer: 'Acme Power Ltd.',
  ratedPowerKw: 500,
  ratedSpeedRpm: 1500,
  ratedVoltageV: 400,
  ratedFrequencyHz: 50,
  ratedCurrentA: 902,
  ratedBatteryVoltageV: 24,
  ratedChargingVoltageV: 27.6,
  productionDate: '2024-05-17',
  phases: 3,
  weightKg: 4200,
  size: '4200 × 1600 × 2100 mm',
  longitude: 121.4737,
  latitude: 31.2304,
  altitudeM: 12,
  iotCardNumber: '8986012345678901234',
  lockingCode: 'L-77',
  fenceRadiusM: 500,
  controllerBrand: 'Smartgen',
  controllerModel: 'HGM6120',
  controllerSeries: 'HGM6100',
  address: 1,
  modemModel: 'GW-4G',
  port: 'port1',
  baudRate: 9600,
  protocolKey: layoutS.key,
  timeZone: 'Asia/Shanghai',
  powerOnCount: 12,
  fuelTheftDetection: true,
  maxFuelL: 800,
  maxFuelDelayS: 30,
  serviceLink: 'tel:+86 21 5555 0100',
  engine: { brand: 'Cummins', model: 'QSZ13', number: 'E-1' },
  alternator: { brand: 'Stamford', model: 'HCI544', number: 'A-1' },
};

async function add(token: string, body: Record<string, unknown>) {
  return call(t.app, 'POST', '/genset/add', { token, body });
}

async function addSet(token: string, extra: Record<string, unknown> = {}) {
  const res = await add(token, { name: `Set ${uid()}`, protocolKey: layoutS.key, ...extra });
  expect(res.code, res.msg).toBe(200);
  return res.data as { token: string; subscriptionCode: string; controlCode: string; modemSecret: string | null };
}

async function setId(token: string) {
  const row = await t.app.database.db.selectFrom('genset').select('id').where('token', '=', token).executeTakeFirst();
  return row!.id;
}

/** Puts a set in a given state as ingestion would have left it. */
async function setLatest(token: string, status: number, alarmCount = 0, values: Record<string, number> = {}) {
  const id = await setId(token);
  const row = {
    status,
    alarm_count: alarmCount,
    values: JSON.stringify(values),
    device_ts: Date.now(),
    updated_at: Date.now(),
  };
  await t.app.database.db
    .insertInto('set_latest')
    .values({ genset_id: id, ...row })
    .onConflict((oc) => oc.column('genset_id').doUpdateSet(row))
    .execute();
  // ingestion announces every change; a row written behind its back is picked up at the next reload
  t.app.gensets.directory.invalidate();
}

beforeAll(async () => {
  t = await createTestApp();
  brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  operator = await login(t.app, 'operator@example.com', 'Demo#2026');
  viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => t.close());

describe('add and info', () => {
  it('stores every field of a set, generates its codes and registers its new module', async () => {
    const modemId = `MOD-${uid()}`;
    const res = await add(manager, { ...FULL, modemId });
    expect(res.code, res.msg).toBe(200);
    expect(res.data.token).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(res.data.subscriptionCode).toMatch(/^[A-Z2-9]{10}$/);
    expect(res.data.controlCode).toMatch(/^[A-Z2-9]{12}$/);
    expect(res.data.modemSecret).toEqual(expect.any(String));

    const info = await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: res.data.token } });
    expect(info.code).toBe(200);
    expect(info.data).toMatchObject({ ...FULL, modemId, rights: 'manage', owner: true, ownerName: 'Mia Manager' });
    expect(info.data).toMatchObject({
      subscriptionCode: res.data.subscriptionCode,
      controlCode: res.data.controlCode,
      companyName: 'Demo Power Co.',
      status: 0,
      alarmCount: 0,
      online: false,
      lastSeen: null,
      subscribers: 0,
      modem: { online: false },
    });
    const log = await t.app.database.db
      .selectFrom('operation_log')
      .select(['matter', 'account'])
      .where('target', '=', res.data.token)
      .execute();
    expect(log).toEqual([{ matter: 'log.gensetAdded', account: 'manager@example.com' }]);
  });

  it('ingests data from the module named when the set was added', async () => {
    const modemId = `ING-${uid()}`;
    const name = `Live ${uid()}`;
    const added = await addSet(manager, { modemId, address: 3, name });
    const module = await connectFakeModule(brokerUrl, modemId, added.modemSecret!);
    try {
      await module.publish('hello', { model: 'X1', firmware: '1.0', imei: '', iccid: '', controllers: [] });
      const plan = await module.waitFor('plan', (p) => p.controllers?.length === 1);
      expect(plan.controllers[0]).toMatchObject({ port: 'port1', address: 3 });
      // the running sets and their count, asked for before it runs and again after (a list kept between pages
      // must follow a set's change of status)
      const running = async () => {
        const res = await call(t.app, 'POST', '/genset/mylist', {
          token: manager,
          body: { search: name, status: 'running' },
        });
        return { count: res.data.counts.running, tokens: res.data.list.map((r: { token: string }) => r.token) };
      };
      expect(await running()).toEqual({ count: 0, tokens: [] });
      await module.publish('data', {
        seq: 1,
        ts: Date.now(),
        port: 'port1',
        address: 3,
        blocks: encodeBlocks(layoutS, {
          mode: 1,
          engine_state: 9,
          engine_rpm: 1500,
          gen_freq: 50,
          gen_kw: 120,
          gen_on_load: 1,
          fuel_level: 80,
        }),
      });
      await module.waitFor('ack');
      const list = await call(t.app, 'POST', '/genset/mylist', {
        token: manager,
        body: { search: added.token ? undefined : '', status: 'running' },
      });
      const row = list.data.list.find((r: { token: string }) => r.token === added.token);
      expect(row).toMatchObject({ status: 3, online: true, modemId, values: { kw: 120, fuelLevel: 80 } });
      expect(await running()).toEqual({ count: 1, tokens: [added.token] });
      // the connection drops: the row follows ingestion (module offline, set offline) without a reload
      module.client.stream.destroy();
      await expect
        .poll(
          async () =>
            (await call(t.app, 'POST', '/genset/mylist', { token: manager, body: { search: name } })).data.list.map(
              (r: { status: number; online: boolean }) => ({ status: r.status, online: r.online }),
            ),
          { timeout: 5000 },
        )
        .toEqual([{ status: 0, online: false }]);
      expect(await running()).toEqual({ count: 0, tokens: [] });
    } finally {
      await module.close();
    }
  });

  it('refuses bad fields with the field and the rule in the caller’s language, and stores nothing', async () => {
    const before = await t.app.database.db
      .selectFrom('genset')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '  ' }, 'name', 'Name: cannot be empty'],
      [{ ratedPowerKw: -5 }, 'ratedPowerKw', 'Rated power (kW): is out of range'],
      [{ ratedFrequencyHz: 5000 }, 'ratedFrequencyHz', 'Rated frequency (Hz): is out of range'],
      [{ latitude: 91 }, 'latitude', 'Latitude: is out of range'],
      [{ baudRate: 1234 }, 'baudRate', 'Baud rate: is not valid'],
      [{ address: 0 }, 'address', 'Controller address: is out of range'],
      [{ productionDate: '2024-13-40' }, 'productionDate', 'Production date: is not valid'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', 'Time zone: is not valid'],
      [{ modemId: 'bad id/with+chars' }, 'modemId', 'Cloud module ID: is not valid'],
      [
        { serviceLink: 'javascript:alert(1)' },
        'serviceLink',
        'Service contact: must start with http, https, mailto or tel',
      ],
      [{ protocolKey: 'no-such-protocol' }, 'protocolKey', 'Controller protocol: is not valid'],
      [{ colour: 'red' }, 'colour', 'colour: is not a known field'],
    ];
    for (const [patch, field, msg] of cases) {
      const res = await add(manager, { name: 'Valid name', protocolKey: layoutS.key, ...patch });
      expect(res.code, field).toBe(400);
      expect(res.msg, field).toBe(msg);
      expect(Object.keys(res.data.fields), field).toContain(field);
    }
    const zh = await call(t.app, 'POST', '/genset/add', {
      token: manager,
      lang: 'zh-CN',
      body: { name: 'x', protocolKey: layoutS.key, ratedPowerKw: 1e9 },
    });
    expect(zh.msg).toBe('额定功率（kW）：超出允许范围');
    const after = await t.app.database.db
      .selectFrom('genset')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(after!.n)).toBe(Number(before!.n));
  });

  it('accepts a service contact only as http, https, mailto or tel', async () => {
    for (const link of [
      'https://service.example.com/set/1',
      'http://x.example',
      'mailto:service@example.com',
      'tel:+44 20 7946 0000',
    ]) {
      expect((await add(manager, { name: 'Link', protocolKey: layoutS.key, serviceLink: link })).code, link).toBe(200);
    }
    for (const link of ['ftp://x.example', 'www.example.com', 'data:text/html,hi']) {
      expect((await add(manager, { name: 'Link', protocolKey: layoutS.key, serviceLink: link })).code, link).toBe(400);
    }
  });

  it('needs genset:manage to add', async () => {
    const res = await add(operator, { name: 'Not mine to add', protocolKey: layoutS.key });
    expect(res.code).toBe(403);
  });

  it('links a module the company has, refuses a taken port and address and another company’s module', async () => {
    const modemId = `SHARE-${uid()}`;
    const first = await addSet(manager, { modemId });
    expect(first.modemSecret).not.toBeNull();
    const second = await addSet(manager, { modemId, address: 2 });
    expect(second.modemSecret).toBeNull();
    const clash = await add(manager, { name: 'Clash', protocolKey: layoutS.key, modemId, address: 2 });
    expect(clash).toMatchObject({
      code: 409,
      msg: 'Another set already uses this port and address of the cloud module.',
    });

    const otherCompany = await createCompany(t, `Other ${uid()}`);
    const stranger = await freshUser(t, { companyId: otherCompany, role: 'companyAdmin' });
    const strangerToken = await login(t.app, stranger.account, stranger.password);
    const taken = await add(strangerToken, { name: 'Taken', protocolKey: layoutS.key, modemId });
    expect(taken).toMatchObject({ code: 409, msg: 'This cloud module is registered to another account.' });
  });

  it('lists the published protocols for the forms', async () => {
    const res = await call(t.app, 'POST', '/genset/protocols', { token: viewer, lang: 'zh-CN', body: {} });
    expect(res.code).toBe(200);
    const keys = res.data.map((p: { key: string }) => p.key);
    expect(keys).toEqual(expect.arrayContaining([layoutS.key, layoutG.key]));
    expect(res.data.find((p: { key: string }) => p.key === layoutS.key).name).toBe(layoutS.name['zh-CN']);
  });
});

describe('update', () => {
  it('changes only the fields sent, clears with null, and keeps the rest', async () => {
    const added = await addSet(manager, { ...FULL, name: 'Before', modemId: `UPD-${uid()}` });
    const res = await call(t.app, 'POST', '/genset/update', {
      token: manager,
      body: { token: added.token, name: 'After', ratedPowerKw: 640, brand: null, engine: { brand: 'Perkins' } },
    });
    expect(res.code, res.msg).toBe(200);
    const info = (await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: added.token } })).data;
    expect(info).toMatchObject({
      name: 'After',
      ratedPowerKw: 640,
      brand: null,
      engine: { brand: 'Perkins', model: null, number: null },
      model: FULL.model,
      alternator: FULL.alternator,
      timeZone: FULL.timeZone,
    });
    const bad = await call(t.app, 'POST', '/genset/update', { token: manager, body: { token: added.token, name: '' } });
    expect(bad.code).toBe(400);
    const again = (await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: added.token } })).data;
    expect(again.name).toBe('After');
  });

  it('moves a set to another module and port', async () => {
    const added = await addSet(manager, { modemId: `MV1-${uid()}` });
    const target = `MV2-${uid()}`;
    const res = await call(t.app, 'POST', '/genset/update', {
      token: manager,
      body: { token: added.token, modemId: target, port: 'port2' },
    });
    expect(res.code).toBe(200);
    expect(res.data.modemSecret).toEqual(expect.any(String));
    const info = (await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: added.token } })).data;
    expect(info).toMatchObject({ modemId: target, port: 'port2' });
    const unlinked = await call(t.app, 'POST', '/genset/update', {
      token: manager,
      body: { token: added.token, modemId: null },
    });
    expect(unlinked.code).toBe(200);
    expect(
      (await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: added.token } })).data.modemId,
    ).toBeNull();
  });
});

describe('visibility', () => {
  it('answers 404 for a set the user may not see, whatever the call', async () => {
    const added = await addSet(manager);
    const otherCompany = await createCompany(t, `Elsewhere ${uid()}`);
    const outsider = await freshUser(t, { companyId: otherCompany, role: 'companyAdmin' });
    const token = await login(t.app, outsider.account, outsider.password);
    const calls: [string, Record<string, unknown>][] = [
      ['/genset/info', { token: added.token }],
      ['/genset/update', { token: added.token, name: 'Hijacked' }],
      ['/genset/del', { tokens: [added.token] }],
      ['/genset/resetcodes', { token: added.token }],
      ['/devicedata/getstatus', { token: added.token }],
      ['/sub/list', { token: added.token }],
    ];
    for (const [url, body] of calls) {
      const res = await call(t.app, 'POST', url, { token, body });
      expect(res.code, url).toBe(404);
    }
    // an unknown token answers exactly the same
    const unknown = await call(t.app, 'POST', '/genset/info', { token, body: { token: 'doesNotExist123' } });
    const known = await call(t.app, 'POST', '/genset/info', { token, body: { token: added.token } });
    expect(unknown).toEqual(known);
    const list = await call(t.app, 'POST', '/genset/list', { token, body: { size: 50 } });
    expect(list.data.list.map((r: { token: string }) => r.token)).not.toContain(added.token);
  });

  it('lets view rights read but not edit (403), and shows codes only to managers', async () => {
    const added = await addSet(manager);
    const sub = await call(t.app, 'POST', '/sub/add', { token: viewer, body: { code: added.subscriptionCode } });
    expect(sub.code).toBe(200);
    const info = await call(t.app, 'POST', '/genset/info', { token: viewer, body: { token: added.token } });
    expect(info.data).toMatchObject({ rights: 'view', subscriptionCode: null, controlCode: null, owner: false });
    const edit = await call(t.app, 'POST', '/genset/update', {
      token: viewer,
      body: { token: added.token, name: 'x' },
    });
    expect(edit.code).toBe(403);
    const del = await call(t.app, 'POST', '/genset/del', { token: viewer, body: { tokens: [added.token] } });
    expect(del.code).toBe(403);
  });
});

describe('lists', () => {
  let owner: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const user = await freshUser(t, { companyId, role: 'companyAdmin' });
    owner = await login(t.app, user.account, user.password);
    const states: [string, number | null, number][] = [
      ['Alpha offline', null, 0],
      ['Bravo offline', 0, 0],
      ['Charlie shutdown', 1, 0],
      ['Delta standby', 2, 0],
      ['Echo running', 3, 0],
      ['Foxtrot running alarm', 3, 2],
      ['Golf standby alarm', 2, 1],
    ];
    for (const [name, status, alarms] of states) {
      const added = await addSet(owner, { name, number: `N-${name.split(' ')[0]}` });
      tokens[name] = added.token;
      if (status !== null) await setLatest(added.token, status, alarms, { gen_kw: 10, fuel_level: 55 });
    }
    for (let i = 0; i < 23; i++)
      await addSet(owner, { name: `Zulu filler ${String(i).padStart(2, '0')}`, number: `Z${i}` });
  });

  const mylist = (body: Record<string, unknown>, token = owner) =>
    call(t.app, 'POST', '/genset/mylist', { token, body });

  it('filters by status and counts every filter', async () => {
    const names = async (status: string) =>
      (await mylist({ status, search: 'N-', sort: 'name' })).data.list.map((r: { name: string }) => r.name);
    expect(await names('offline')).toEqual(['Alpha offline', 'Bravo offline']);
    expect(await names('shutdown')).toEqual(['Charlie shutdown']);
    expect(await names('standby')).toEqual(['Delta standby', 'Golf standby alarm']);
    expect(await names('running')).toEqual(['Echo running', 'Foxtrot running alarm']);
    expect(await names('alarm')).toEqual(['Foxtrot running alarm', 'Golf standby alarm']);
    expect((await names('all')).length).toBe(7);
    const all = await mylist({});
    expect(all.data.counts).toEqual({ all: 30, offline: 25, shutdown: 1, standby: 2, running: 2, alarm: 2 });
    expect((await mylist({ status: 'sleeping' })).code).toBe(400);
  });

  it('searches name or number, case-insensitively and literally', async () => {
    const search = async (s: string) => (await mylist({ search: s })).data.list.map((r: { name: string }) => r.name);
    expect(await search('echo')).toEqual(['Echo running']);
    expect(await search('n-golf')).toEqual(['Golf standby alarm']);
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
  });

  it('pages with sizes 10, 20, 30 and 50 (20 by default) and refuses others', async () => {
    const first = await mylist({});
    expect(first.data).toMatchObject({ total: 30, page: 1, size: 20 });
    expect(first.data.list).toHaveLength(20);
    const second = await mylist({ page: 2 });
    expect(second.data.list).toHaveLength(10);
    const seen = new Set([...first.data.list, ...second.data.list].map((r: { token: string }) => r.token));
    expect(seen.size).toBe(30);
    expect((await mylist({ page: 3 })).data).toMatchObject({ list: [], total: 30, page: 3 });
    for (const size of [10, 30, 50]) expect((await mylist({ size })).data.list).toHaveLength(Math.min(size, 30));
    for (const body of [{ size: 25 }, { size: 0 }, { page: 0 }, { page: -1 }, { page: 1.5 }, { size: '20' }]) {
      expect((await mylist(body)).code, JSON.stringify(body)).toBe(400);
    }
  });

  it('sorts by name, status, last data and creation both ways', async () => {
    const order = async (sort: string, dir: string) =>
      (await mylist({ search: 'N-', sort, order: dir })).data.list.map((r: { name: string }) => r.name);
    expect((await order('name', 'desc'))[0]).toBe('Golf standby alarm');
    const byStatus = await order('status', 'desc');
    expect(byStatus.slice(0, 2)).toEqual(['Echo running', 'Foxtrot running alarm']);
    expect((await order('createdAt', 'asc'))[0]).toBe('Alpha offline');
    expect((await order('lastSeen', 'asc')).slice(0, 2).sort()).toEqual(['Alpha offline', 'Bravo offline'].sort());
  });

  it('orders names naturally: case ignored, numbers as numbers', async () => {
    for (const name of ['Pump 10', 'pump 2', 'Pump 1', 'Pümp 3']) await addSet(owner, { name });
    const names = (await mylist({ search: 'p' })).data.list
      .map((r: { name: string }) => r.name)
      .filter((n: string) => /^p/i.test(n));
    expect(names).toEqual(['Pump 1', 'pump 2', 'Pümp 3', 'Pump 10']);
  });

  it('rows carry status, alarms, latest values, rights and ownership', async () => {
    const row = (await mylist({ search: 'foxtrot' })).data.list[0];
    expect(row).toMatchObject({
      name: 'Foxtrot running alarm',
      number: 'N-Foxtrot',
      status: 3,
      alarmCount: 2,
      rights: 'manage',
      owned: true,
      values: { kw: 10, fuelLevel: 55, batteryVoltage: null, runHours: null },
    });
    expect(row.lastSeen).toEqual(expect.any(Number));
  });

  it('shows the owner’s new nickname at once after they change it', async () => {
    const user = await freshUser(t, { companyId, role: 'companyAdmin' });
    const token = await login(t.app, user.account, user.password);
    const name = `Hotel ${uid()}`;
    await addSet(token, { name });
    const ownerName = async () => (await mylist({ search: name }, token)).data.list[0].ownerName;
    expect(await ownerName()).not.toBe('Night Owl');
    expect((await call(t.app, 'POST', '/user/updateProfile', { token, body: { nickname: 'Night Owl' } })).code).toBe(
      200,
    );
    expect(await ownerName()).toBe('Night Owl');
  });

  it('shows subscribed sets in my gensets with the subscription’s rights', async () => {
    const user = await freshUser(t, { companyId, role: 'viewer' });
    const token = await login(t.app, user.account, user.password);
    expect((await mylist({}, token)).data.total).toBe(0);
    const info = (await call(t.app, 'POST', '/genset/info', { token: owner, body: { token: tokens['Echo running'] } }))
      .data;
    await call(t.app, 'POST', '/sub/add', { token, body: { code: info.controlCode } });
    const list = await mylist({}, token);
    expect(list.data.total).toBe(1);
    expect(list.data.list[0]).toMatchObject({ name: 'Echo running', rights: 'control', owned: false });
  });

  it('the company list needs genset:manage and follows the data scope', async () => {
    expect((await call(t.app, 'POST', '/genset/list', { token: operator, body: {} })).code).toBe(403);
    expect((await call(t.app, 'POST', '/genset/list', { token: viewer, body: {} })).code).toBe(403);
    // the demo manager sees sets another company administrator added
    const list = await call(t.app, 'POST', '/genset/list', { token: manager, body: { search: 'n-echo' } });
    expect(list.data.list.map((r: { token: string }) => r.token)).toEqual([tokens['Echo running']]);
    expect(list.data.list[0]).toMatchObject({ rights: 'manage', owned: false });
    // while its own "my gensets" does not hold them
    expect((await mylist({ search: 'n-echo' }, manager)).data.total).toBe(0);
  });
});

describe('delete', () => {
  it('refuses more than 20 selected sets with the spec’s message, in each language', async () => {
    const tokens = Array.from({ length: MAX_SELECTED_ITEMS + 1 }, (_, i) => `tok${i}`);
    const en = await call(t.app, 'POST', '/genset/del', { token: manager, body: { tokens } });
    expect(en.code).toBe(400);
    expect(en.msg).toContain('cannot select more than 20 items');
    const zh = await call(t.app, 'POST', '/genset/del', { token: manager, lang: 'zh-CN', body: { tokens } });
    expect(zh.msg).toContain('最多只能选择 20 条数据');
    expect((await call(t.app, 'POST', '/genset/del', { token: manager, body: { tokens: [] } })).code).toBe(400);
  });

  it('deletes all or none: one set the user may not manage keeps every set', async () => {
    const mine = await addSet(manager);
    const elsewhere = await createCompany(t, `Apart ${uid()}`);
    const user = await freshUser(t, { companyId: elsewhere, role: 'companyAdmin' });
    const other = await login(t.app, user.account, user.password);
    const theirs = await addSet(other);
    // a personal user holds control rights on the first set and does not see the second
    const personal = await login(t.app, '13800000001', 'Demo#2026');
    await call(t.app, 'POST', '/sub/add', { token: personal, body: { code: mine.controlCode } });
    const del = (token: string, tokens: string[]) => call(t.app, 'POST', '/genset/del', { token, body: { tokens } });
    expect((await del(personal, [mine.token, theirs.token])).code).toBe(403);
    expect((await del(personal, [theirs.token, mine.token])).code).toBe(404);
    expect((await del(other, [theirs.token, mine.token])).code).toBe(404);
    expect((await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: mine.token } })).code).toBe(200);
    expect((await call(t.app, 'POST', '/genset/info', { token: other, body: { token: theirs.token } })).code).toBe(200);
  });

  it('soft-deletes: gone from lists and calls, history kept, codes dead, the module’s data no longer lands', async () => {
    const modemId = `DEL-${uid()}`;
    const added = await addSet(manager, { modemId, name: `Doomed ${uid()}` });
    const id = await setId(added.token);
    const module = await connectFakeModule(brokerUrl, modemId, added.modemSecret!);
    try {
      const data = (n: number) => ({
        seq: n,
        ts: Date.now(),
        port: 'port1',
        address: 1,
        blocks: encodeBlocks(layoutS, { mode: 1, engine_state: 0, gen_kw: 0 }),
      });
      await module.publish('data', data(1));
      await module.waitFor('ack', (a) => a.upTo === 1);
      const res = await call(t.app, 'POST', '/genset/del', { token: manager, body: { tokens: [added.token] } });
      expect(res).toMatchObject({ code: 200, data: { deleted: 1 } });

      expect((await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: added.token } })).code).toBe(
        404,
      );
      expect(
        (await call(t.app, 'POST', '/devicedata/getstatus', { token: manager, body: { token: added.token } })).code,
      ).toBe(404);
      const list = await call(t.app, 'POST', '/genset/list', { token: manager, body: { search: 'doomed' } });
      expect(list.data.list.map((r: { token: string }) => r.token)).not.toContain(added.token);
      const user = await freshUser(t, { companyId, role: 'viewer' });
      const late = await login(t.app, user.account, user.password);
      expect(
        (await call(t.app, 'POST', '/sub/add', { token: late, body: { code: added.subscriptionCode } })).code,
      ).toBe(400);

      await module.publish('data', data(2));
      await module.waitFor('ack', (a) => a.upTo === 2);
      await t.app.devices.ingest.flush();
      const samples = await t.app.database.db.selectFrom('sample').select('seq').where('genset_id', '=', id).execute();
      expect(samples.map((s) => s.seq)).toEqual([1]);
      const row = await t.app.database.db
        .selectFrom('genset')
        .select('deleted_at')
        .where('id', '=', id)
        .executeTakeFirst();
      expect(row!.deleted_at).toEqual(expect.any(Number));
      const log = await t.app.database.db
        .selectFrom('operation_log')
        .select('matter')
        .where('target', '=', added.token)
        .execute();
      expect(log.map((l) => l.matter)).toContain('log.gensetDeleted');
    } finally {
      await module.close();
    }
  });
});

describe('codes', () => {
  it('a manager draws new codes; the old ones stop working', async () => {
    const added = await addSet(manager);
    const res = await call(t.app, 'POST', '/genset/resetcodes', { token: manager, body: { token: added.token } });
    expect(res.code).toBe(200);
    expect(res.data.subscriptionCode).not.toBe(added.subscriptionCode);
    const user = await freshUser(t, { companyId, role: 'viewer' });
    const token = await login(t.app, user.account, user.password);
    expect((await call(t.app, 'POST', '/sub/add', { token, body: { code: added.subscriptionCode } })).code).toBe(400);
    expect((await call(t.app, 'POST', '/sub/add', { token, body: { code: res.data.subscriptionCode } })).code).toBe(
      200,
    );
  });
});

describe('OpenAPI document', () => {
  it('lists the set and subscription calls with their schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/yewu/docs/json' })).json();
    for (const p of ['add', 'update', 'del', 'info', 'list', 'mylist', 'export', 'protocols', 'resetcodes'])
      expect(doc.paths[`/yewu/genset/${p}`]?.post, p).toBeTruthy();
    for (const p of ['add', 'list', 'update', 'del']) expect(doc.paths[`/yewu/sub/${p}`]?.post, p).toBeTruthy();
    const add = doc.paths['/yewu/genset/add'].post.requestBody.content['application/json'].schema;
    expect(add.required).toEqual(expect.arrayContaining(['name', 'protocolKey']));
  });
});

describe('demo fleet', () => {
  let demo: TestApp;
  beforeAll(async () => {
    demo = await createTestApp({ DEMO_FLEET: '1' });
  });
  afterAll(async () => demo.close());

  it('every demo account finds the eight demo sets, with their plate data, in my gensets', async () => {
    const expected: [string, string, string][] = [
      ['manager@example.com', 'Demo#2026', 'manage'],
      ['operator@example.com', 'Demo#2026', 'control'],
      ['viewer@example.com', 'Demo#2026', 'view'],
      ['13800000001', 'Demo#2026', ''],
      ['admin@example.com', 'Admin#2026', 'manage'],
    ];
    for (const [account, password, rights] of expected) {
      const token = await login(demo.app, account, password);
      const list = await call(demo.app, 'POST', '/genset/mylist', { token, body: { sort: 'number' } });
      expect(list.data.total, account).toBe(8);
      expect(list.data.list.map((r: { number: string }) => r.number)).toEqual([
        'DPC-001',
        'DPC-002',
        'DPC-003',
        'DPC-004',
        'DPC-005',
        'DPC-006',
        'DPC-007',
        'DPC-008',
      ]);
      if (rights) for (const row of list.data.list) expect(row.rights, account).toBe(rights);
    }
    const manager = await login(demo.app, 'manager@example.com', 'Demo#2026');
    const first = (await call(demo.app, 'POST', '/genset/mylist', { token: manager, body: { sort: 'number' } })).data
      .list[0];
    expect(first).toMatchObject({ name: 'City Hospital standby', ratedPowerKw: 500, controllerModel: 'HGM6120' });
    const info = (await call(demo.app, 'POST', '/genset/info', { token: manager, body: { token: first.token } })).data;
    expect(info).toMatchObject({
      modemId: 'DEMO-0001',
      ratedVoltageV: 400,
      ratedFrequencyHz: 50,
      phases: 3,
      engine: { brand: 'Cummins' },
      alternator: { brand: 'Stamford' },
    });
  });
});
