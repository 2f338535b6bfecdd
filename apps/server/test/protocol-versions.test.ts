// Protocol versions through the API: a draft edited in place and a published version into a new draft,
// publishing (sets and their modules move to the new version at once, without a restart), deleting what no set
// runs on, and export and import giving back the same document; every refusal names its place. Listing,
// reading, creating and copying are in protocols.test.ts.
import { describe, expect, it } from 'vitest';
import { layoutS, protocolText, type ProtocolDocument } from '@genset/protocol';
import { call } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule } from './support/fake-module.ts';
import {
  add,
  admin,
  brokerUrl,
  companyId,
  copyOf,
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
