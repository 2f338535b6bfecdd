// Protocol management through the API: listing, reading, creating and copying, with every refusal naming its
// place in the caller's language, and nothing without protocol:manage; every rule worded in all six languages and
// the calls in the OpenAPI document. Editing versions, publishing (sets and their modules move to the new version
// at once), deleting, export and import are in protocol-versions.test.ts.
import { describe, expect, it } from 'vitest';
import { LANGUAGES, layoutG, layoutS, PROTOCOL_PROBLEM_TEXTS, PROTOCOL_RULES, protocolText } from '@genset/protocol';
import { catalogs } from '../src/i18n/messages.ts';
import { ensureRoles } from '../src/seed/base.ts';
import { createUser } from '../src/seed/base.ts';
import { call, freshUser, login } from './helpers.ts';
import {
  add,
  admin,
  companyId,
  exportOf,
  idOf,
  indexOfItem,
  manager,
  sampleDocument,
  t,
  told,
  useProtocolServer,
} from './support/protocols.ts';

useProtocolServer();

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
