// Protocol management in the browser: data items created, edited and deleted (in English and in Russian),
// the first change of a published version saved as a new draft version that the page moves to; the
// protocol list (create, copy, publish and delete after confirmation, export, import refused with the exact
// place); dropdown lists attached to a parameter, dropdown coordinates at bits of a register, and module-status
// items.
/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { ADMIN, api, apiLogin, chooseOption, openSignedIn, toast } from './helpers.ts';

interface VersionRef {
  id: number;
  key: string;
  version: number;
}

let counter = 0;
function uniqueKey(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid % 1000}-${counter}`;
}

/** A published protocol of its own (a copy of layout S that no set uses), so tests do not meet each other. */
async function publishedCopy(page: Page, prefix: string): Promise<{ token: string; ref: VersionRef }> {
  const { utoken } = await apiLogin(page.request, ADMIN);
  const list = await api<{ list: { id: number; key: string }[] }>(
    page.request,
    '/protocol/list',
    { search: 'genset-layout-s' },
    utoken,
  );
  const source = list.data.list.find((row) => row.key === 'genset-layout-s')!;
  const copy = await api<VersionRef>(page.request, '/protocol/copy', { id: source.id, key: uniqueKey(prefix) }, utoken);
  expect(copy.code, copy.msg).toBe(200);
  const published = await api(page.request, '/protocol/publish', { id: copy.data.id }, utoken);
  expect(published.code, published.msg).toBe(200);
  return { token: utoken, ref: copy.data };
}

async function info(page: Page, token: string, id: number) {
  const res = await api<{
    version: number;
    status: string;
    items: { key: string; name: Record<string, string>; address: number }[];
  }>(page.request, `/protocol/info/${id}`, undefined, token);
  expect(res.code, res.msg).toBe(200);
  return res.data;
}

const LANGUAGE_NAMES = ['English', '简体中文', '繁體中文', 'Русский', 'Español', 'Türkçe'];

const WORDS = {
  'en-US': {
    newItem: 'New data item',
    name: 'Name',
    key: 'Key',
    address: 'Address',
    unit: 'Unit',
    save: 'Save',
    cancel: 'Cancel',
    search: 'Search',
    edit: (key: string) => `Edit ${key}`,
    editTitle: (key: string) => `Edit data item: ${key}`,
    del: (key: string) => `Delete ${key}`,
    confirmDelete: 'Delete',
    newVersion: 'Saved as new draft version 2; you are now editing it',
    inPlace: 'Saved in draft version 2',
    keyTaken: 'This key is already used in this section',
    required: 'This field cannot be empty',
    noMatch: 'Nothing matches the search',
    draftHint: 'Version 2 is a draft',
  },
  'ru-RU': {
    newItem: 'Новый элемент данных',
    name: 'Название',
    key: 'Ключ',
    address: 'Адрес',
    unit: 'Единица',
    save: 'Сохранить',
    cancel: 'Отмена',
    search: 'Поиск',
    edit: (key: string) => `Изменить ${key}`,
    editTitle: (key: string) => `Изменение элемента данных: ${key}`,
    del: (key: string) => `Удалить ${key}`,
    confirmDelete: 'Удалить',
    newVersion: 'Сохранено как новая черновая версия 2; теперь вы редактируете её',
    inPlace: 'Сохранено в черновой версии 2',
    keyTaken: 'Этот ключ уже используется в этом разделе',
    required: 'Поле не может быть пустым',
    noMatch: 'Ничего не найдено',
    draftHint: 'Версия 2 — черновик',
  },
} as const;

for (const lang of ['en-US', 'ru-RU'] as const) {
  test(`data items: create, edit and delete; the first save makes draft version 2 (${lang})`, async ({ page }) => {
    // A long walk through several screens on a machine the other tests share.
    test.setTimeout(120_000);
    const w = WORDS[lang];
    await page.addInitScript((l) => localStorage.setItem('lang', l), lang);
    const { token, ref } = await publishedCopy(page, `e2e-items-${lang.slice(0, 2)}`);
    await openSignedIn(page, ADMIN, `/com/module/xieyi/${ref.id}`);
    const section = page.getByTestId('section-items');
    // The first visit loads the page's code and the version: allow for a busy machine.
    await expect(section.getByRole('row', { name: /mains_freq/ })).toBeVisible({ timeout: 30_000 });

    // create, with a field check first: the key is taken and the names are missing
    await section.getByRole('button', { name: w.newItem }).click();
    const create = page.getByRole('dialog', { name: w.newItem });
    await create.getByLabel(w.key, { exact: true }).fill('gen_kw');
    await create.getByRole('button', { name: w.save }).click();
    await expect(create.getByText(w.keyTaken)).toBeVisible();
    await expect(create.getByText(w.required).first()).toBeVisible();
    await create.getByLabel(w.key, { exact: true }).fill('aux_temp');
    const names = [
      'Auxiliary temperature',
      '辅助温度',
      '輔助溫度',
      'Вспомогательная температура',
      'Temperatura auxiliar',
      'Yardımcı sıcaklık',
    ];
    for (const [index, language] of LANGUAGE_NAMES.entries()) {
      await create.getByLabel(`${w.name} (${language})`, { exact: true }).fill(names[index]!);
    }
    await create.getByLabel(w.address, { exact: true }).fill('60');
    await create.getByLabel(w.unit, { exact: true }).fill('°C');
    await create.getByRole('button', { name: w.save }).click();
    await expect(toast(page)).toHaveText(w.newVersion);
    await expect(create).toBeHidden();

    // the page moved to the new draft version
    await expect(page).not.toHaveURL(new RegExp(`/com/module/xieyi/${ref.id}$`));
    const draftId = Number(/\/com\/module\/xieyi\/(\d+)$/.exec(page.url())?.[1]);
    expect(draftId).toBeGreaterThan(ref.id);
    await expect(page.getByText(w.draftHint)).toBeVisible();
    const search = section.getByRole('searchbox', { name: w.search });
    await search.fill('aux_temp');
    await expect(section.getByRole('row', { name: /aux_temp/ })).toContainText(names[lang === 'en-US' ? 0 : 3]!);

    // edit in place
    await section.getByRole('button', { name: w.edit('aux_temp') }).click();
    const edit = page.getByRole('dialog', { name: w.editTitle('aux_temp') });
    await expect(edit.getByLabel(`${w.name} (English)`, { exact: true })).toHaveValue('Auxiliary temperature');
    await edit.getByLabel(`${w.name} (English)`, { exact: true }).fill('Auxiliary water temperature');
    await edit.getByLabel(`${w.name} (Русский)`, { exact: true }).fill('Температура вспомогательного контура');
    await edit.getByLabel(w.address, { exact: true }).fill('61');
    await edit.getByRole('button', { name: w.save }).click();
    await expect(toast(page)).toHaveText(w.inPlace);
    await expect(edit).toBeHidden();
    const row = section.getByRole('row', { name: /aux_temp/ });
    await expect(row).toContainText(
      lang === 'en-US' ? 'Auxiliary water temperature' : 'Температура вспомогательного контура',
    );
    await expect(row).toContainText('61');
    await expect(page).toHaveURL(new RegExp(`/com/module/xieyi/${draftId}$`));

    const edited = await info(page, token, draftId);
    expect(edited).toMatchObject({ version: 2, status: 'draft' });
    expect(edited.items.find((item) => item.key === 'aux_temp')).toMatchObject({
      address: 61,
      name: { 'en-US': 'Auxiliary water temperature', 'tr-TR': 'Yardımcı sıcaklık' },
    });

    // delete after the confirmation
    await section.getByRole('button', { name: w.del('aux_temp') }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: w.confirmDelete }).click();
    await expect(section.getByText(w.noMatch)).toBeVisible();
    expect((await info(page, token, draftId)).items.some((item) => item.key === 'aux_temp')).toBe(false);
    // the published version is as it was
    expect((await info(page, token, ref.id)).items.some((item) => item.key === 'aux_temp')).toBe(false);
    expect((await info(page, token, ref.id)).status).toBe('published');
  });
}

test('protocol list: create, copy, publish and delete after confirmation, export, and an import refused at the exact place', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { utoken } = await apiLogin(page.request, ADMIN);
  await openSignedIn(page, ADMIN, '/com/module/list');
  const list = page.getByTestId('protocol-list');
  await expect(list.getByRole('row', { name: /genset-layout-s/ })).toBeVisible();

  // create
  const key = uniqueKey('e2e-new');
  await list.getByRole('button', { name: 'New protocol' }).click();
  const create = page.getByRole('dialog', { name: 'New protocol' });
  await create.getByLabel('Protocol key').fill(key);
  await create.getByLabel('Layout').fill('X');
  const names = [
    'Test controller',
    '测试控制器',
    '測試控制器',
    'Тестовый контроллер',
    'Controlador de prueba',
    'Test kontrol cihazı',
  ];
  for (const [index, language] of LANGUAGE_NAMES.entries()) {
    await create.getByLabel(`Name (${language})`, { exact: true }).fill(names[index]!);
  }
  await create.getByLabel('Item key').fill('speed');
  const itemNames = ['Speed', '转速', '轉速', 'Скорость', 'Velocidad', 'Hız'];
  for (const [index, language] of LANGUAGE_NAMES.entries()) {
    await create.getByLabel(`Item name (${language})`).fill(itemNames[index]!);
  }
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page)).toHaveText(`Protocol ${key} was created as draft version 1`);
  await expect(page).toHaveURL(/\/com\/module\/xieyi\/\d+$/);
  await expect(page.getByTestId('section-items').getByRole('row', { name: /speed/ })).toContainText('Speed');

  // publish after the confirmation
  await page.goto('/com/module/list');
  await list.getByRole('searchbox', { name: 'Search key or name' }).fill(key);
  await list.getByRole('searchbox', { name: 'Search key or name' }).press('Enter');
  const row = list.getByRole('row', { name: new RegExp(key) });
  await expect(row).toContainText('Draft');
  await row.getByRole('button', { name: `Publish ${key} version 1` }).click();
  const confirm = page.getByRole('dialog', { name: `Publish version 1 of ${key}?` });
  await expect(confirm).toContainText('The 0 sets of this protocol move to this version');
  await confirm.getByRole('button', { name: 'Publish' }).click();
  await expect(toast(page)).toHaveText('Published: 0 sets moved, 0 modules got the new poll plan');
  await expect(row).toContainText('Published');

  // export downloads the document
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: `Export ${key} version 1` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${key}-v1.json`);
  const exported = JSON.parse(readFileSync(await file.path(), 'utf8')) as { key: string; items: { key: string }[] };
  expect(exported).toMatchObject({ key, items: [{ key: 'speed' }] });

  // an import with an item outside the address space is refused, naming the place
  const broken = { ...exported, key: uniqueKey('e2e-broken'), items: [{ ...exported.items[0], address: 70000 }] };
  const chooser = page.waitForEvent('filechooser');
  await list.getByRole('button', { name: 'Import JSON' }).click();
  await (
    await chooser
  ).setFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
  const problems = page.getByTestId('document-problems');
  await expect(problems).toContainText('items[0](speed).address');
  const before = await api<{ total: number }>(page.request, '/protocol/list', { search: broken.key }, utoken);
  expect(before.data.total).toBe(0);

  // the export imported back becomes version 2 of the same protocol, as a draft
  const again = page.waitForEvent('filechooser');
  await list.getByRole('button', { name: 'Import JSON' }).click();
  await (
    await again
  ).setFiles({ name: 'ok.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
  await expect(toast(page)).toHaveText(`Imported as ${key} version 2 (draft)`);

  // copy under a new key
  const copyKey = uniqueKey('e2e-copy');
  await list.getByRole('button', { name: `Copy ${key} version 1` }).click();
  const copy = page.getByRole('dialog', { name: `Copy ${key} version 1` });
  await expect(copy.getByLabel('Name (English)', { exact: true })).toHaveValue('Test controller');
  await copy.getByLabel('Protocol key').fill(copyKey);
  await copy.getByRole('button', { name: 'Copy' }).click();
  await expect(toast(page)).toHaveText(`Copied as ${copyKey}, draft version 1`);

  // delete version 2 after the confirmation
  await list.getByRole('searchbox', { name: 'Search key or name' }).fill(key);
  await list.getByRole('searchbox', { name: 'Search key or name' }).press('Enter');
  await list.getByRole('button', { name: `Delete ${key} version 2` }).click();
  await expect(page.locator('.ant-popconfirm')).toContainText(`Version 2 of ${key} will be deleted.`);
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page)).toHaveText(`Version 2 of ${key} was deleted`);
  await expect(list.getByRole('button', { name: `Delete ${key} version 2` })).toBeHidden();
  const after = await api<{ list: { key: string; version: number }[] }>(
    page.request,
    '/protocol/list',
    { search: key },
    utoken,
  );
  expect(after.data.list.map((r) => `${r.key}:${r.version}`)).toEqual([`${key}:1`]);
  const copied = await api<{ list: { key: string; status: string }[] }>(
    page.request,
    '/protocol/list',
    { search: copyKey },
    utoken,
  );
  expect(copied.data.list).toEqual([expect.objectContaining({ key: copyKey, status: 'draft' })]);
});

test('dropdowns: a new option list attached to a parameter, refused while in use; a module-status item', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { token, ref } = await publishedCopy(page, 'e2e-lists');
  await openSignedIn(page, ADMIN, `/com/configSelect/configSelectData/${ref.id}`);
  const lists = page.getByTestId('section-optionLists');
  await expect(lists.getByRole('row', { name: /rated_frequency/ })).toBeVisible();

  await lists.getByRole('button', { name: 'New dropdown' }).click();
  const create = page.getByRole('dialog', { name: 'New dropdown' });
  await create.getByLabel('Key', { exact: true }).fill('attempts');
  const names = ['Attempts', '次数', '次數', 'Попытки', 'Intentos', 'Deneme'];
  for (const [index, language] of LANGUAGE_NAMES.entries())
    await create.getByLabel(`Name (${language})`, { exact: true }).fill(names[index]!);
  await create.getByRole('button', { name: 'Save' }).click();
  await expect(create.getByText('Add at least one option')).toBeVisible();
  for (const value of [1, 3]) {
    await create.getByRole('button', { name: 'Add an option' }).click();
    const n = value === 1 ? 1 : 2;
    await create.getByLabel(`Value of option ${n}`).fill(String(value));
    const labels = [`${value} times`, `${value} 次`, `${value} 次`, `${value} раза`, `${value} veces`, `${value} kez`];
    for (const [index, language] of LANGUAGE_NAMES.entries()) {
      await create.getByLabel(`Label of option ${n} (${language})`).fill(labels[index]!);
    }
  }
  await create.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page)).toHaveText('Saved as new draft version 2; you are now editing it');
  const draftId = Number(/\/(\d+)$/.exec(page.url())?.[1]);
  await expect(lists.getByRole('row', { name: /attempts/ })).toContainText('1 = 1 times · 3 = 3 times');

  // attach it to crank attempts on the coordinate screen
  await page.getByRole('tab', { name: 'Dropdown coordinates' }).click();
  await expect(page).toHaveURL(new RegExp(`/com/configSelect/configCoord/${draftId}$`));
  const coordinates = page.getByTestId('section-coordinates');
  await coordinates.getByRole('button', { name: 'Attach a dropdown' }).click();
  const attach = page.getByRole('dialog', { name: 'Attach a dropdown to a parameter' });
  await chooseOption(page, attach.getByLabel('Parameter'), 'Crank attempts (crank_attempts)', false);
  await chooseOption(page, attach.getByLabel('Dropdown'), 'Attempts (attempts)', false);
  await attach.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page)).toHaveText('Saved in draft version 2');
  const row = coordinates.getByRole('row', { name: /crank_attempts/ });
  await expect(row).toContainText('Attempts');
  await expect(row).toContainText('Start sequence');
  await expect(row).toContainText('1 = 1 times · 3 = 3 times');

  // a list in use cannot be deleted
  await page.getByRole('tab', { name: 'Config dropdowns' }).click();
  await expect(lists.getByRole('button', { name: 'Delete attempts' })).toBeDisabled();

  // module status: a module input shown under its own name
  await page.getByRole('tab', { name: 'Module status' }).click();
  const moduleItems = page.getByTestId('section-moduleItems');
  await moduleItems.getByRole('button', { name: 'New module item' }).click();
  const item = page.getByRole('dialog', { name: 'New module item' });
  await item.getByLabel('Key', { exact: true }).fill('door_contact');
  const doorNames = ['Door contact', '门磁', '門磁', 'Датчик двери', 'Contacto de puerta', 'Kapı kontağı'];
  for (const [index, language] of LANGUAGE_NAMES.entries())
    await item.getByLabel(`Name (${language})`, { exact: true }).fill(doorNames[index]!);
  await chooseOption(page, item.getByLabel('Source'), 'Module input (inputs)', false);
  await item.getByLabel('Input name').fill('door');
  await item.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page)).toHaveText('Saved in draft version 2');
  await expect(moduleItems.getByRole('row', { name: /door_contact/ })).toContainText('inputs:door');

  const saved = await api<{
    configParams: { key: string; optionList?: string; options?: { value: number }[] }[];
    moduleItems: { key: string; source: string; input?: string }[];
  }>(page.request, `/protocol/info/${draftId}`, undefined, token);
  expect(saved.data.configParams.find((p) => p.key === 'crank_attempts')).toMatchObject({
    optionList: 'attempts',
    options: [{ value: 1 }, { value: 3 }],
  });
  expect(saved.data.moduleItems.find((m) => m.key === 'door_contact')).toMatchObject({
    source: 'inputs',
    input: 'door',
  });
});

test('dropdown coordinates at bits of a register: moved to other bits, overlaps and misfits refused, shown on the config protocol screen', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { token, ref } = await publishedCopy(page, 'e2e-bits');
  await openSignedIn(page, ADMIN, `/com/configSelect/configCoord/${ref.id}`);
  const coordinates = page.getByTestId('section-coordinates');
  const language = coordinates.getByRole('row', { name: /panel_language/ });
  await expect(language).toContainText('Bits 4–5');
  await expect(language).toContainText('Register 4117 × 1, written with fc 6');
  await expect(coordinates.getByRole('row', { name: /idle_start/ })).toContainText('Bit 1');
  await expect(coordinates.getByRole('row', { name: /rated_frequency/ })).toContainText('Whole register');

  // idle start onto bit 0: that bit belongs to "start on mains failure"
  await coordinates.getByRole('button', { name: 'Edit idle_start' }).click();
  const idle = page.getByRole('dialog', { name: 'Change the dropdown: idle_start' });
  await expect(idle.getByRole('radio', { name: 'Bits of the register' })).toBeChecked();
  await idle.getByLabel('First bit').fill('0');
  await idle.getByRole('button', { name: 'Save' }).click();
  await expect(idle.getByText('Already used in this register by: Start on mains failure (Bit 0)')).toBeVisible();
  // nor can it take the whole register the others share
  await idle.getByRole('radio', { name: 'Whole register' }).check();
  await expect(
    idle.getByText(/Already used in this register by: Start on mains failure \(Bit 0\), .*Bits 4–5/),
  ).toBeVisible();
  await idle.getByRole('button', { name: 'Cancel' }).click();

  // the panel language to bits 6–7; one bit would be too narrow for four languages
  await coordinates.getByRole('button', { name: 'Edit panel_language' }).click();
  const edit = page.getByRole('dialog', { name: 'Change the dropdown: panel_language' });
  await edit.getByLabel('First bit').fill('6');
  await expect(edit.getByText('These bits hold raw values 0 … 3')).toBeVisible();
  await edit.getByLabel('Number of bits').fill('1');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Values that do not fit in these bits: 2, 3')).toBeVisible();
  await edit.getByLabel('Number of bits').fill('2');
  // the refusal goes as soon as the bits are wide enough
  await expect(edit.getByText('Values that do not fit in these bits: 2, 3')).toHaveCount(0);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page)).toHaveText('Saved as new draft version 2; you are now editing it');
  const draftId = Number(/\/(\d+)$/.exec(page.url())?.[1]);
  await expect(language).toContainText('Bits 6–7');
  await expect(language).toContainText('0 = English · 1 = Chinese · 2 = Russian · 3 = Spanish');

  // the config protocol screen shows the register with its bits
  await page.getByRole('tab', { name: 'Config protocol' }).click();
  const params = page.getByTestId('section-configParams');
  await params.getByRole('searchbox', { name: 'Search' }).fill('4117');
  await expect(params.getByRole('row', { name: /panel_language/ })).toContainText('4117 Bits 6–7');
  await expect(params.getByRole('row', { name: /mains_fail_auto_start/ })).toContainText('4117 Bit 0');

  const saved = await api<{ configParams: { key: string; bits?: { start: number; count: number } }[] }>(
    page.request,
    `/protocol/info/${draftId}`,
    undefined,
    token,
  );
  const bitsOf = (key: string) => saved.data.configParams.find((p) => p.key === key)?.bits;
  expect(bitsOf('panel_language')).toEqual({ start: 6, count: 2 });
  expect(bitsOf('idle_start')).toEqual({ start: 1, count: 1 });
  expect(bitsOf('rated_frequency')).toBeUndefined();
});
