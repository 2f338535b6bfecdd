// Protocol management through the API: listing, reading, creating, copying, editing as new versions,
// publishing (sets and their modules move to the new version at once), deleting, export and import,
// with every refusal naming its place, and nothing without protocol:manage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  computeSign,
  DEFAULT_SIGN_SECRET,
  LANGUAGES,
  layoutG,
  layoutS,
  PROTOCOL_PROBLEM_TEXTS,
  PROTOCOL_RULES,
  protocolText,
  type ProtocolDocument,
} from '@genset/protocol';
import { catalogs } from '../src/i18n/messages.ts';
import { ensureRoles } from '../src/seed/base.ts';
import { createUser } from '../src/seed/base.ts';
import { call, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule } from './support/fake-module.ts';

let t: TestApp;
let admin: string;
let manager: string;
let brokerUrl: string;
let companyId: number;

const copyOf = <T>(value: T): T => structuredClone(value);
const indexOfItem = (doc: { items: { key: string }[] }, key: string) => doc.items.findIndex((i) => i.key === key);

/** A small valid protocol of its own, so tests do not depend on each other's edits of the seeds. */
function sampleDocument(key: string): ProtocolDocument {
  return { ...copyOf(layoutS), key, version: 1 };
}

async function idOf(key: string, version?: number): Promise<number> {
  const res = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { search: key, size: 50 } });
  const row = res.data.list.find((r: any) => r.key === key && (version === undefined || r.version === version));
  if (!row) throw new Error(`no protocol ${key} v${version}`);
  return row.id;
}

async function exportOf(id: number, token = admin) {
  const time = String(Math.floor(Date.now() / 1000));
  return t.app.inject({
    method: 'GET',
    url: `/yewu/protocol/export/${id}`,
    headers: { 'x-time': time, 'x-token': token, 'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET) },
  });
}

const add = (document: unknown, lang?: string) =>
  call(t.app, 'POST', '/protocol/add', { token: admin, lang, body: { document } });

/** The places and messages of a refusal's problems (each also carries its rule and params). */
const told = (problems: { path: string; message: string }[]) =>
  problems.map(({ path, message }) => ({ path, message }));

beforeAll(async () => {
  t = await createTestApp({ ONLINE_RATE_MS: '500', OFFLINE_RATE_MS: '2000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  admin = await login(t.app, 'admin@example.com', 'Admin#2026');
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => t.close());

describe('permission', () => {
  it('refuses every call without protocol:manage (403), for a company administrator too', async () => {
    const s = await idOf(layoutS.key);
    const calls: ['GET' | 'POST', string, unknown?][] = [
      ['POST', '/protocol/list', {}],
      ['GET', `/protocol/info/${s}`],
      ['POST', '/protocol/add', { document: sampleDocument('perm-test') }],
      ['POST', '/protocol/copy', { id: s, key: 'perm-copy' }],
      ['POST', '/protocol/save', { id: s, layout: 'X' }],
      ['POST', '/protocol/publish', { id: s }],
      ['POST', '/protocol/del', { id: s }],
      ['POST', '/protocol/import', { document: sampleDocument('perm-import') }],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(t.app, method, url, { token: manager, ...(body === undefined ? {} : { body }) });
      expect(res.code, url).toBe(403);
      expect(res.msg).toBe('You do not have permission for this operation.');
    }
    // Even an invalid body is refused for the permission first: nothing about the call is revealed.
    expect((await call(t.app, 'POST', '/protocol/add', { token: manager, body: { document: 1 } })).code).toBe(403);
    expect((await exportOf(s, manager)).json().code).toBe(403);
    expect((await call(t.app, 'POST', '/protocol/list', { body: {} })).code).toBe(101);
    expect(await t.app.database.db.selectFrom('protocol').select('protocol_key').execute()).toHaveLength(6);
  });

  it('lets a role holding protocol:manage in, without being a platform administrator', async () => {
    const roles = await ensureRoles(t.app.database.db, companyId, [
      { key: 'protocolEditor', permissions: ['protocol:manage'], menus: ['*'], dataScope: 'self' },
    ]);
    await createUser(t.app.database.db, {
      companyId,
      roleId: roles.protocolEditor!,
      account: 'editor@example.com',
      password: 'Edit#2026x',
      nickname: 'Ed',
    });
    const editor = await login(t.app, 'editor@example.com', 'Edit#2026x');
    expect((await call(t.app, 'POST', '/protocol/list', { token: editor, body: {} })).code).toBe(200);
    const plain = await freshUser(t, { role: 'operator' });
    const operator = await login(t.app, plain.account, plain.password);
    expect((await call(t.app, 'POST', '/protocol/list', { token: operator, body: {} })).code).toBe(403);
  });
});

describe('list and info', () => {
  it('lists versions paged, with names in the request language, current version and set count', async () => {
    const res = await call(t.app, 'POST', '/protocol/list', { token: admin, lang: 'zh-CN', body: { size: 10 } });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ page: 1, size: 10 });
    expect(res.data.total).toBeGreaterThanOrEqual(2);
    const s = res.data.list.find((r: any) => r.key === layoutS.key);
    expect(s).toMatchObject({ version: 1, layout: 'S', status: 'published', current: true, sets: 0 });
    expect(s.items).toBe(layoutS.items.length);
    expect(s.name).toBe(layoutS.name['zh-CN']);

    const page2 = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { page: 2, size: 10 } });
    expect(page2.data).toMatchObject({ page: 2, size: 10, list: [] });
    const search = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { search: 'LAYOUT-G' } });
    expect(search.data.list.map((r: any) => r.key)).toEqual([layoutG.key]);
    expect(search.data.total).toBe(1);
    const wildcard = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { search: '%' } });
    expect(wildcard.data.total).toBe(0);
    const drafts = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { status: 'draft' } });
    expect(drafts.data.list.every((r: any) => r.status === 'draft')).toBe(true);
  });

  it('refuses a bad page size, page or status, naming the field', async () => {
    const size = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { size: 15 } });
    expect(size).toMatchObject({ code: 400, msg: 'Page size: is not valid' });
    const page = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { page: 0 } });
    expect(page.data.fields.page).toBe('Page: is not valid');
    const status = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { status: 'old' } });
    expect(status.data.fields.status).toBe('Status: is not valid');
    const unknown = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { sort: 'x' } });
    expect(unknown.data.fields.sort).toBe('Sort by: is not a known field');
  });

  it('gives one version with items, commands, module status, menus, params, read blocks, dropdowns and coordinates', async () => {
    const id = await idOf(layoutS.key);
    const res = await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin });
    expect(res.code).toBe(200);
    const d = res.data;
    expect(d).toMatchObject({ id, key: layoutS.key, version: 1, status: 'published', current: true, layout: 'S' });
    expect(d.versions).toEqual([expect.objectContaining({ id, version: 1, status: 'published' })]);
    expect(d.items).toEqual(layoutS.items);
    expect(d.commands).toEqual(layoutS.commands);
    expect(d.configMenus).toEqual(layoutS.configMenus);
    expect(d.configParams).toEqual(layoutS.configParams);
    expect(d.configReadBlocks).toEqual([{ fc: 3, start: 4096, count: 22 }]);
    expect(d.moduleStatus.find((m: any) => m.key === 'alarm_emergency_stop')).toMatchObject({
      fc: 1,
      address: 16,
      bit: null,
      alarms: ['emergency_stop'],
    });
    expect(d.moduleStatus.find((m: any) => m.key === 'engine_state').enum).toHaveLength(16);
    expect(d.moduleStatus.some((m: any) => m.key === 'gen_kw')).toBe(false);
    expect(d.dropdowns[0]).toEqual({
      param: 'rated_frequency',
      name: expect.objectContaining({ 'en-US': 'Rated frequency' }),
      menu: 'generator',
      options: [expect.objectContaining({ value: 50 }), expect.objectContaining({ value: 60 })],
    });
    expect(d.dropdowns.map((dropdown: any) => dropdown.param)).toEqual([
      'rated_frequency',
      'mains_fail_auto_start',
      'idle_start',
      'panel_language',
    ]);
    // A dropdown at bits of a register says which bits its values are written to.
    const coordinate = { menuPath: ['options'], fc: 3, address: 4096 + 21, registers: 1, writeFc: 6 };
    expect(d.coordinates).toEqual([
      {
        param: 'rated_frequency',
        menuPath: ['generator'],
        fc: 3,
        address: 4096 + 19,
        registers: 1,
        writeFc: 6,
        bits: null,
      },
      { param: 'mains_fail_auto_start', ...coordinate, bits: { start: 0, count: 1 } },
      { param: 'idle_start', ...coordinate, bits: { start: 1, count: 1 } },
      { param: 'panel_language', ...coordinate, bits: { start: 4, count: 2 } },
    ]);
    expect(d.statusRules.modeItem).toBe('mode');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await call(t.app, 'GET', '/protocol/info/999999', { token: admin })).code).toBe(404);
    expect((await call(t.app, 'GET', '/protocol/info/abc', { token: admin })).code).toBe(400);
    expect((await exportOf(999999)).json().code).toBe(404);
  });
});

describe('create and copy', () => {
  it('creates a protocol as draft version 1 and refuses a key already taken', async () => {
    const res = await add({ ...sampleDocument('acme-x1'), version: 7 });
    expect(res).toMatchObject({ code: 200, msg: 'Saved.' });
    expect(res.data).toMatchObject({ key: 'acme-x1', version: 1, status: 'draft', created: true });
    const again = await add(sampleDocument('acme-x1'));
    expect(again).toMatchObject({ code: 409, msg: 'A protocol with the key “acme-x1” already exists.' });
  });

  it('refuses documents with the exact place of each problem, storing nothing', async () => {
    const before = (await t.app.database.db.selectFrom('protocol').select('id').execute()).length;

    const overlap = sampleDocument('bad-overlap');
    const kw = indexOfItem(overlap, 'gen_kw');
    overlap.items[kw]!.address = 22;
    const o = await add(overlap);
    expect(o.code).toBe(400);
    expect(told(o.data.problems)).toEqual([
      {
        path: `items[${kw}](gen_kw).address`,
        message: `fc 3 address 22 overlaps items[${indexOfItem(overlap, 'charger_voltage')}](charger_voltage)`,
      },
    ]);
    expect(o.msg).toContain(`items[${kw}](gen_kw).address`);
    expect(o.data.fields.items).toContain('gen_kw');

    const untranslated = sampleDocument('bad-name') as any;
    const rpm = indexOfItem(untranslated, 'engine_rpm');
    delete untranslated.items[rpm].name['tr-TR'];
    const u = await add(untranslated);
    expect(told(u.data.problems)).toEqual([
      { path: `items[${rpm}](engine_rpm).name.tr-TR`, message: 'missing translation' },
    ]);

    const unknownType = sampleDocument('bad-type') as any;
    unknownType.items[0].type = 'int16';
    const ut = await add(unknownType);
    expect(ut.data.problems[0]).toMatchObject({ path: 'items[0](mains_voltage_l1).type' });
    expect(ut.data.problems[0].message).toContain('unknown type "int16"');

    const tooLong = sampleDocument('bad-block');
    tooLong.configReadBlocks = [{ fc: 3, start: 4096, count: 200 }];
    const tl = await add(tooLong);
    expect(told(tl.data.problems)).toContainEqual({
      path: 'configReadBlocks[0].count',
      message: '200 exceeds the Modbus limit of 125 per read for fc 3',
    });

    const longKey = sampleDocument(`k${'x'.repeat(60)}`);
    expect((await add(longKey)).data.problems[0].path).toBe('key');

    const zh = await call(t.app, 'POST', '/protocol/add', { token: admin, lang: 'zh-CN', body: { document: overlap } });
    expect(zh.msg).toMatch(/^协议文档被拒绝/);

    // Outside the document, fields are checked as usual.
    const missing = await call(t.app, 'POST', '/protocol/add', { token: admin, body: {} });
    expect(missing).toMatchObject({ code: 400, msg: 'Protocol document: cannot be empty' });
    const extra = await call(t.app, 'POST', '/protocol/add', {
      token: admin,
      body: { document: sampleDocument('bad-extra'), publish: true },
    });
    expect(extra.data.fields.publish).toBe('publish: is not a known field');
    expect((await t.app.database.db.selectFrom('protocol').select('id').execute()).length).toBe(before);
  });

  it('words a refusal in the language of the request, with the same places, rules and params', async () => {
    const before = (await t.app.database.db.selectFrom('protocol').select('id').execute()).length;
    const overlap = sampleDocument('bad-overlap-ru');
    const kw = indexOfItem(overlap, 'gen_kw');
    const other = `items[${indexOfItem(overlap, 'charger_voltage')}](charger_voltage)`;
    overlap.items[kw]!.address = 22;
    const path = `items[${kw}](gen_kw).address`;
    const en = await add(overlap);
    const ru = await add(overlap, 'ru-RU');
    expect(ru.code).toBe(400);
    expect(ru.data.problems).toEqual([
      {
        path,
        rule: 'protocolDoc.overlaps',
        params: { fc: 3, address: 22, other },
        message: `код функции 3, адрес 22: пересекается с ${other}`,
      },
    ]);
    expect(en.data.problems).toEqual([{ ...ru.data.problems[0], message: `fc 3 address 22 overlaps ${other}` }]);
    expect(ru.msg).toBe(
      `Документ протокола отклонён: ${path}: код функции 3, адрес 22: пересекается с ${other} (всего проблем: 1).`,
    );
    expect(ru.data.fields).toEqual({ items: `${path}: код функции 3, адрес 22: пересекается с ${other}` });

    const zh = await add(overlap, 'zh-CN');
    expect(zh.msg).toBe(`协议文档被拒绝：${path}：功能码 3 地址 22 与 ${other} 重叠（共 1 处问题）。`);
    expect(zh.data.problems[0]).toMatchObject({ path, message: `功能码 3 地址 22 与 ${other} 重叠` });

    // Issues of the shape, told generically or by the rule written with the schema.
    const spoilt = sampleDocument('bad-shape') as any;
    const rpm = indexOfItem(spoilt, 'engine_rpm');
    spoilt.version = 'two';
    spoilt.items[0].type = 'int16';
    delete spoilt.items[rpm].name['tr-TR'];
    spoilt.items[1].extra = true;
    const shapeEn = await add(spoilt);
    const shapeEs = await add(spoilt, 'es-ES');
    expect(shapeEs.data.problems.map((p: any) => p.path)).toEqual(shapeEn.data.problems.map((p: any) => p.path));
    expect(shapeEs.data.problems.map((p: any) => [p.path, p.message])).toEqual([
      ['version', 'debe ser un número'],
      [
        'items[0](mains_voltage_l1).type',
        'tipo "int16" desconocido; tipos admitidos: bit, u16, s16, u32, s32, float32',
      ],
      [`items[1](${spoilt.items[1].key})`, 'campos desconocidos: extra'],
      [`items[${rpm}](engine_rpm).name.tr-TR`, 'falta la traducción'],
    ]);
    expect(shapeEs.msg).toMatch(/^Se ha rechazado el documento del protocolo: version: debe ser un número \(4 /);

    const longKey = await add(sampleDocument(`k${'x'.repeat(60)}`), 'zh-TW');
    expect(longKey.data.problems[0]).toEqual({
      path: 'key',
      rule: 'protocolDoc.keyTooLong',
      params: { maximum: 60 },
      message: '最多使用 60 個字元',
    });

    // Every language words every problem, with no placeholder left and no English.
    const many = sampleDocument('bad-many');
    many.items[kw]!.address = 22;
    many.configReadBlocks = [{ fc: 3, start: 4096, count: 200 }];
    many.alarms[0]!.item = 'ghost';
    many.configParams[1]!.min = 100;
    const english = (await add(many)).data.problems.map((p: any) => p.message);
    expect(english.length).toBeGreaterThan(3);
    for (const lang of ['zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR']) {
      const res = await add(many, lang);
      expect(res.code).toBe(400);
      res.data.problems.forEach((problem: any, index: number) => {
        expect(problem.message, lang).not.toBe(english[index]);
        expect(problem.message, lang).not.toMatch(/\{\w+\}/);
      });
    }
    expect((await t.app.database.db.selectFrom('protocol').select('id').execute()).length).toBe(before);
  });

  it('copies a version under a new key and name, as a draft of its own', async () => {
    const g = await idOf(layoutG.key);
    const name = protocolText('Copy G', '副本 G', '副本 G', 'Копия G', 'Copia G', 'Kopya G');
    const res = await call(t.app, 'POST', '/protocol/copy', { token: admin, body: { id: g, key: 'acme-g2', name } });
    expect(res.data).toMatchObject({ key: 'acme-g2', version: 1, status: 'draft', created: true });
    const copy = (await call(t.app, 'GET', `/protocol/info/${res.data.id}`, { token: admin })).data;
    expect(copy.name).toEqual(name);
    expect(copy.items).toEqual(layoutG.items);
    expect(copy.sets).toBe(0);

    expect((await call(t.app, 'POST', '/protocol/copy', { token: admin, body: { id: g, key: 'acme-g2' } })).code).toBe(
      409,
    );
    const badKey = await call(t.app, 'POST', '/protocol/copy', { token: admin, body: { id: g, key: 'Bad Key' } });
    expect(badKey).toMatchObject({ code: 400, msg: 'Protocol key: is not valid' });
    const halfName = await call(t.app, 'POST', '/protocol/copy', {
      token: admin,
      body: { id: g, key: 'acme-g3', name: { 'en-US': 'Only English' } },
    });
    expect(halfName.code).toBe(400);
    expect(halfName.data.fields.name).toBeTruthy();
    expect((await call(t.app, 'POST', '/protocol/copy', { token: admin, body: { id: 999999, key: 'x-y' } })).code).toBe(
      404,
    );
  });
});

describe('versions', () => {
  it('edits a draft in place, and a published version into a new draft; sets stay on the published one', async () => {
    const created = (await add(sampleDocument('acme-v'))).data;
    const items = copyOf(layoutS.items);
    items[0]!.name['en-US'] = 'Mains L1';
    const inPlace = await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id: created.id, items } });
    expect(inPlace.data).toEqual({ id: created.id, key: 'acme-v', version: 1, status: 'draft', created: false });

    expect((await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: created.id } })).code).toBe(200);
    const edited = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id: created.id, layout: 'S2' },
    });
    expect(edited.data).toMatchObject({ key: 'acme-v', version: 2, status: 'draft', created: true });
    const v1 = (await call(t.app, 'GET', `/protocol/info/${created.id}`, { token: admin })).data;
    const v2 = (await call(t.app, 'GET', `/protocol/info/${edited.data.id}`, { token: admin })).data;
    expect(v1).toMatchObject({ layout: 'S', status: 'published', current: true });
    expect(v1.items[0].name['en-US']).toBe('Mains L1');
    expect(v2).toMatchObject({ layout: 'S2', status: 'draft', current: false, version: 2 });
    expect(v2.items[0].name['en-US']).toBe('Mains L1');
    expect(v2.versions.map((v: any) => [v.version, v.status])).toEqual([
      [2, 'draft'],
      [1, 'published'],
    ]);
  });

  it('refuses a layout longer than 20 characters, on save and on import, and keeps the document', async () => {
    const { id } = (await add(sampleDocument('acme-layout'))).data;
    const before = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    const long = 'L'.repeat(21);
    const saved = await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id, layout: long } });
    expect(saved.code).toBe(400);
    expect((await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data).toEqual(before);
    const imported = await add({ ...sampleDocument('acme-layout-long'), layout: long });
    expect(imported.code).toBe(400);
    expect(told(imported.data.problems)).toEqual([{ path: 'layout', message: expect.any(String) }]);
  });

  it('sets dropdown option lists, refusing an unknown parameter or an option out of range', async () => {
    const { id } = (await add(sampleDocument('acme-dd'))).data;
    const labels = (n: number) => protocolText(`${n}`, `${n}次`, `${n}次`, `${n} раз`, `${n} veces`, `${n} kez`);
    const ok = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: {
        id,
        dropdowns: [{ param: 'crank_attempts', options: [1, 2, 3].map((n) => ({ value: n, label: labels(n) })) }],
      },
    });
    expect(ok.code).toBe(200);
    const info = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    // Listed parameters get their options; rated_frequency was left out and lost its list.
    expect(info.dropdowns.map((d: any) => d.param)).toEqual(['crank_attempts']);
    expect(info.coordinates[0]).toMatchObject({ param: 'crank_attempts', menuPath: ['engine', 'engine_start'] });

    const unknown = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, dropdowns: [{ param: 'nope', options: [{ value: 1, label: labels(1) }] }] },
    });
    expect(unknown.data.problems[0]).toEqual({
      path: 'dropdowns[0](nope).param',
      rule: 'protocolDoc.unknownParam',
      params: { param: 'nope' },
      message: 'unknown configuration parameter "nope"',
    });
    const outOfRange = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, dropdowns: [{ param: 'crank_attempts', options: [{ value: 99, label: labels(99) }] }] },
    });
    const index = layoutS.configParams.findIndex((p) => p.key === 'crank_attempts');
    expect(told(outOfRange.data.problems)).toEqual([
      { path: `configParams[${index}](crank_attempts).options[0].value`, message: 'option 99 is outside 1…10' },
    ]);
    const tr = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      lang: 'tr-TR',
      body: { id, dropdowns: [{ param: 'nope', options: [{ value: 1, label: labels(1) }] }] },
    });
    expect(tr.data.problems[0]).toMatchObject({
      path: 'dropdowns[0](nope).param',
      rule: 'protocolDoc.unknownParam',
      message: 'bilinmeyen ayar parametresi "nope"',
    });
    const badOptions = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      lang: 'zh-CN',
      body: { id, dropdowns: [{ param: 'crank_attempts', options: [] }] },
    });
    expect(badOptions.data.problems).toEqual([
      {
        path: 'dropdowns[0].options',
        rule: 'protocolDoc.tooFewEntries',
        params: { minimum: 1 },
        message: '至少需要 1 项',
      },
    ]);
  });

  it('saves module items, shared option lists and the parameters that use them; dropdowns drop the references', async () => {
    const { id } = (await add(sampleDocument('acme-lists'))).data;
    const info = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    expect(info.moduleItems.map((m: any) => m.source)).toContain('hello.firmware');
    expect(info.optionLists.map((l: any) => l.key)).toEqual(['rated_frequency', 'switch', 'panel_language']);

    const attempts = { value: 3, label: protocolText('3', '3次', '3次', '3 раза', '3 veces', '3 kez') };
    const optionLists = [...info.optionLists, { key: 'attempts', name: info.optionLists[0].name, options: [attempts] }];
    const configParams = info.configParams.map((p: any) =>
      p.key === 'crank_attempts' ? { ...p, optionList: 'attempts', options: [attempts] } : p,
    );
    const moduleItems = [
      ...info.moduleItems,
      { key: 'door', name: info.moduleItems[0].name, source: 'inputs', input: 'door' },
    ];
    const saved = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, optionLists, configParams, moduleItems },
    });
    expect(saved).toMatchObject({ code: 200, data: { id, created: false } });
    const after = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    expect(after.optionLists.map((l: any) => l.key)).toEqual([
      'rated_frequency',
      'switch',
      'panel_language',
      'attempts',
    ]);
    expect(after.configParams.find((p: any) => p.key === 'crank_attempts')).toMatchObject({ optionList: 'attempts' });
    expect(after.moduleItems.at(-1)).toMatchObject({ key: 'door', source: 'inputs', input: 'door', unit: '' });

    // A list that no longer matches its parameters' copy is refused at the parameter.
    const stale = optionLists.map((l: any) =>
      l.key === 'attempts' ? { ...l, options: [{ ...attempts, value: 4 }] } : l,
    );
    const refused = await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id, optionLists: stale } });
    const index = layoutS.configParams.findIndex((p) => p.key === 'crank_attempts');
    expect(told(refused.data.problems)).toEqual([
      {
        path: `configParams[${index}](crank_attempts).options`,
        message: 'must be the options of option list "attempts"',
      },
    ]);

    const own = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, dropdowns: [{ param: 'crank_attempts', options: [attempts] }] },
    });
    expect(own.code).toBe(200);
    const last = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    expect(last.configParams.find((p: any) => p.key === 'crank_attempts').optionList).toBeUndefined();
    expect(last.configParams.find((p: any) => p.key === 'rated_frequency').options).toBeUndefined();
  });

  it('moves a dropdown to other bits of its register; overlapping bits are refused at the parameter', async () => {
    const { id } = (await add(sampleDocument('acme-bits'))).data;
    const info = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    const at = (key: string) => info.configParams.findIndex((p: any) => p.key === key);
    const withBits = (key: string, bits: unknown) =>
      info.configParams.map((p: any) => (p.key === key ? { ...p, bits } : p));

    const moved = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, configParams: withBits('panel_language', { start: 6, count: 2 }) },
    });
    expect(moved.code).toBe(200);
    const after = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    expect(after.coordinates.find((c: any) => c.param === 'panel_language').bits).toEqual({ start: 6, count: 2 });

    const overlap = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, configParams: withBits('idle_start', { start: 0, count: 2 }) },
    });
    expect(overlap.code).toBe(400);
    expect(told(overlap.data.problems)).toEqual([
      {
        path: `configParams[${at('idle_start')}](idle_start).address`,
        message: `holding register 4117 bits 0…1 overlaps configParams[${at('mains_fail_auto_start')}](mains_fail_auto_start)`,
      },
    ]);
    const narrow = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, configParams: withBits('panel_language', { start: 6, count: 1 }) },
    });
    expect(narrow.data.problems.map((p: any) => `${p.path}: ${p.message}`)).toEqual([
      `configParams[${at('panel_language')}](panel_language).max: max 3 does not fit in bit 6 (raw 0…1)`,
      `configParams[${at('panel_language')}](panel_language).options[2].value: option 2 does not fit in bit 6 (raw 0…1)`,
      `configParams[${at('panel_language')}](panel_language).options[3].value: option 3 does not fit in bit 6 (raw 0…1)`,
    ]);
    const last = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    expect(last.configParams.find((p: any) => p.key === 'idle_start').bits).toEqual({ start: 1, count: 1 });
  });

  it('refuses edits that break the document, naming the place, and an empty edit', async () => {
    const { id } = (await add(sampleDocument('acme-bad-edit'))).data;
    const items = copyOf(layoutS.items) as any[];
    items[3].name['es-ES'] = '';
    const res = await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id, items } });
    expect(res.code).toBe(400);
    expect(told(res.data.problems)).toEqual([
      { path: `items[3](${items[3].key}).name.es-ES`, message: 'missing translation' },
    ]);
    const commands = copyOf(layoutS.commands);
    commands[0]!.preconditions = [{ ...commands[0]!.preconditions[0]!, item: 'ghost' }];
    const ref = await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id, commands } });
    expect(told(ref.data.problems)).toEqual([
      { path: 'commands[0](start).preconditions[0].item', message: 'unknown item "ghost"' },
    ]);
    const blocks = await call(t.app, 'POST', '/protocol/save', {
      token: admin,
      body: { id, configReadBlocks: [{ fc: 3, start: 4096, count: 10 }] },
    });
    expect(blocks.data.problems[0].message).toMatch(/^no configReadBlocks entry reads registers/);
    expect((await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id } })).code).toBe(400);
    expect((await call(t.app, 'POST', '/protocol/save', { token: admin, body: { items } })).data.fields.id).toBe(
      'ID: cannot be empty',
    );
    const stored = (await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).data;
    expect(stored.items).toEqual(layoutS.items);
  });

  it('publishes a draft once, and refuses publishing a version older than the published one', async () => {
    const { id } = (await add(sampleDocument('acme-p'))).data;
    expect((await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id } })).data).toMatchObject({
      key: 'acme-p',
      version: 1,
      status: 'published',
      sets: 0,
      modules: 0,
    });
    expect((await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id } })).code).toBe(409);
    const v2 = (await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id, layout: 'P2' } })).data;
    const v3 = (await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id, layout: 'P3' } })).data;
    expect([v2.version, v3.version]).toEqual([2, 3]);
    expect((await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: v3.id } })).code).toBe(200);
    const old = await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: v2.id } });
    expect(old).toMatchObject({
      code: 409,
      msg: 'Version 3 of this protocol is already published; publish a newer draft instead.',
    });
    expect((await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: 0 } })).code).toBe(400);
    expect((await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: 999999 } })).code).toBe(404);
  });

  it('deletes drafts and unused versions, and refuses the published version sets run on (409)', async () => {
    const { id } = (await add(sampleDocument('acme-d'))).data;
    expect((await call(t.app, 'POST', '/protocol/del', { token: admin, body: { id } })).code).toBe(200);
    expect((await call(t.app, 'GET', `/protocol/info/${id}`, { token: admin })).code).toBe(404);

    const used = (await add(sampleDocument('acme-used'))).data;
    await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: used.id } });
    await t.app.devices.fleet.createGenset({
      companyId,
      ownerUserId: null,
      name: 'On acme-used',
      modemId: null,
      protocolKey: 'acme-used',
    });
    const refused = await call(t.app, 'POST', '/protocol/del', { token: admin, body: { id: used.id } });
    expect(refused).toMatchObject({ code: 409, msg: 'This version is in use by 1 set(s) and cannot be deleted.' });
    // A newer version published: the old one is no longer what sets run on, and may go.
    const v2 = (await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id: used.id, layout: 'U2' } }))
      .data;
    await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: v2.id } });
    expect((await call(t.app, 'POST', '/protocol/del', { token: admin, body: { id: used.id } })).code).toBe(200);
    expect((await call(t.app, 'POST', '/protocol/del', { token: admin, body: { id: v2.id } })).code).toBe(409);
    expect((await call(t.app, 'POST', '/protocol/del', { token: admin, body: { id: 'x' } })).code).toBe(400);

    const log = await t.app.database.db
      .selectFrom('operation_log')
      .select(['matter', 'feedback'])
      .where('target', '=', 'protocol:acme-used')
      .orderBy('id')
      .execute();
    // Each draft written, each publication and the deletion: one entry each, in order.
    expect(log.map((l) => l.matter)).toEqual([
      'log.protocolDraftSaved',
      'log.protocolPublished',
      'log.protocolDraftSaved',
      'log.protocolPublished',
      'log.protocolDeleted',
    ]);
    expect(JSON.parse(log[2]!.feedback)).toEqual({ key: 'acme-used', version: 2 });
  });
});

describe('export and import', () => {
  it('gives back an identical document when importing the export', async () => {
    const source = sampleDocument('acme-io');
    source.items[0]!.noData = [65535];
    const { id } = (await add(source)).data;
    const file = await exportOf(id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="acme-io-v1.json"');
    const exported = file.json();
    expect(exported.key).toBe('acme-io');

    // Into an installation without the protocol: the same document, version and all.
    await call(t.app, 'POST', '/protocol/del', { token: admin, body: { id } });
    const imported = await call(t.app, 'POST', '/protocol/import', { token: admin, body: { document: exported } });
    expect(imported.data).toMatchObject({ key: 'acme-io', version: 1, status: 'draft', created: true });
    expect((await exportOf(imported.data.id)).json()).toEqual(exported);

    // Once more: the key is known, so it becomes the next version of the same document.
    const next = await call(t.app, 'POST', '/protocol/import', { token: admin, body: { document: exported } });
    expect(next.data.version).toBe(2);
    expect((await exportOf(next.data.id)).json()).toEqual({ ...exported, version: 2 });

    // The seeds round-trip too.
    const s = (await exportOf(await idOf(layoutS.key))).json();
    expect(s).toEqual(JSON.parse(JSON.stringify(layoutS)));
  });

  it('refuses a document with an overlapping address, naming the item', async () => {
    const doc = sampleDocument('acme-overlap') as any;
    const remote = indexOfItem(doc, 'remote_lock');
    doc.items[remote].address = 0;
    const res = await call(t.app, 'POST', '/protocol/import', { token: admin, body: { document: doc } });
    expect(res.code).toBe(400);
    expect(told(res.data.problems)).toEqual([
      {
        path: `items[${remote}](remote_lock).address`,
        message: `fc 1 address 0 overlaps items[${indexOfItem(doc, 'common_alarm')}](common_alarm)`,
      },
    ]);
    expect(res.msg).toContain('remote_lock');
    expect((await call(t.app, 'POST', '/protocol/import', { token: admin, body: { document: 'x' } })).code).toBe(400);
    const list = await call(t.app, 'POST', '/protocol/list', { token: admin, body: { search: 'acme-overlap' } });
    expect(list.data.total).toBe(0);
  });
});

describe('publishing moves sets and modules without a restart', () => {
  it('a new layout S version with one more item shows in monitorList and in the module’s new poll plan', async () => {
    const modemKey = `PROT${Date.now()}`;
    const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
    const set = await t.app.devices.fleet.createGenset({
      companyId,
      ownerUserId: null,
      name: 'Layout S set',
      modemId: modem.id,
      protocolKey: layoutS.key,
    });
    t.app.devices.ingest.invalidate();
    const module = await connectFakeModule(brokerUrl, modemKey, modem.secret);
    await module.publish('hello', {
      model: 'X1',
      firmware: '1.0',
      imei: '1',
      iccid: '2',
      controllers: [{ port: 'port1', address: 1 }],
    });
    const firstPlan = await module.waitFor('plan');
    expect(firstPlan.controllers[0].blocks.some((b: any) => b.fc === 4)).toBe(false);

    const s = await idOf(layoutS.key, 1);
    const items = [
      ...copyOf(layoutS.items),
      {
        key: 'oil_temp',
        name: protocolText(
          'Oil temperature',
          '机油温度',
          '機油溫度',
          'Температура масла',
          'Temperatura del aceite',
          'Yağ sıcaklığı',
        ),
        fc: 4,
        address: 10,
        type: 's16',
        unit: '°C',
        group: 'engine',
        realtime: true,
      },
    ];
    const draft = await call(t.app, 'POST', '/protocol/save', { token: admin, body: { id: s, items } });
    expect(draft.data).toMatchObject({ version: 2, status: 'draft', created: true });
    const monitor = async (lang = 'en-US') =>
      (await call(t.app, 'POST', '/realTimeData/monitorList', { token: manager, lang, body: { token: set.token } }))
        .data.items as any[];
    // A draft changes nothing for the set.
    expect((await monitor()).some((i) => i.key === 'oil_temp')).toBe(false);

    const published = await call(t.app, 'POST', '/protocol/publish', { token: admin, body: { id: draft.data.id } });
    expect(published.data).toMatchObject({ version: 2, sets: 1, modules: 1 });
    const plan = await module.waitFor('plan', (p) => p.controllers[0].blocks.some((b: any) => b.fc === 4));
    expect(plan.controllers[0].blocks).toContainEqual({ fc: 4, start: 10, count: 1 });
    expect((await monitor('ru-RU')).find((i) => i.key === 'oil_temp')).toMatchObject({
      name: 'Температура масла',
      unit: '°C',
      value: null,
      realtime: true,
    });

    // The module's next snapshot carries the new block, and the server decodes it with the new version.
    const v2 = (await exportOf(draft.data.id)).json() as ProtocolDocument;
    await module.publish('data', {
      seq: 1,
      ts: Date.now(),
      port: 'port1',
      address: 1,
      blocks: encodeBlocks(v2, { oil_temp: 96, engine_rpm: 1500 }),
    });
    await module.waitFor('ack');
    const values = await monitor();
    expect(values.find((i) => i.key === 'oil_temp').value).toBe(96);
    expect(values.find((i) => i.key === 'engine_rpm').value).toBe(1500);
    const info = await call(t.app, 'GET', `/protocol/info/${s}`, { token: admin });
    expect(info.data).toMatchObject({ current: false, sets: 1 });
    await module.close();
  });
});

describe('problem texts', () => {
  it('every rule of a protocol document is worded in all six languages', () => {
    expect(catalogs['en-US']).toMatchObject(PROTOCOL_PROBLEM_TEXTS);
    for (const lang of LANGUAGES) {
      for (const rule of PROTOCOL_RULES) {
        const text = catalogs[lang][rule];
        expect(text?.trim(), `${lang} ${rule}`).toBeTruthy();
        if (lang !== 'en-US') expect(text, `${lang} ${rule}`).not.toBe(PROTOCOL_PROBLEM_TEXTS[rule]);
      }
    }
  });
});

describe('OpenAPI document', () => {
  it('lists the protocol calls, and item names need all six languages', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/yewu/docs/json' })).json();
    for (const p of [
      '/yewu/protocol/list',
      '/yewu/protocol/info/{id}',
      '/yewu/protocol/add',
      '/yewu/protocol/copy',
      '/yewu/protocol/save',
      '/yewu/protocol/publish',
      '/yewu/protocol/del',
      '/yewu/protocol/export/{id}',
      '/yewu/protocol/import',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    const save = doc.paths['/yewu/protocol/save'].post.requestBody.content['application/json'].schema;
    const itemName = save.properties.items.items.properties.name;
    expect(itemName.required).toEqual(['en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR']);
  });
});
