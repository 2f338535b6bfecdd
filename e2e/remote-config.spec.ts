// Remote configuration in the browser against the demo fleet's live simulated controllers: pick a menu,
// read it, a value out of range is refused before anything is sent, the write asks for the warning and the
// account password (a wrong one changes nothing), sends the changed value only and shows that the
// controller took it; in English and in Russian; an offline module's own message; settings at bits of one
// register, one changed while the other keeps its value.
/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { ADMIN, chooseOption, openSignedIn } from './helpers.ts';

function setToken(name: string): string {
  const sets = JSON.parse(process.env.E2E_SETS ?? '{}') as Record<string, string>;
  const token = sets[name];
  if (!token) throw new Error(`no demo set ${name}`);
  return token;
}

const WORDS = {
  'en-US': {
    set: 'Data centre backup',
    online: 'Module online',
    menu: 'Engine',
    param: 'Crank attempts',
    otherParam: 'Cooling time',
    key: 'crank_attempts',
    range: 'Out of range: 1 … 10',
    write: (n: number) => `Write changes (${n})`,
    refusedHere: 'Nothing was sent. Correct these values first: Crank attempts',
    refusedTag: 'Refused before sending: Out of range: 1 … 10',
    dialog: 'Write settings to the controller',
    warning: 'Warning: non-professionals must not operate',
    password: 'Your account password',
    ok: 'Write',
    wrongPassword: 'The password is wrong.',
    taken: 'Taken by the controller',
    done: 'Settings written and read back: 1',
    read: 'Read from controller',
    newValue: (name: string) => `New value of ${name}`,
    changed: 'Changed',
  },
  'ru-RU': {
    set: 'Quarry prime power',
    online: 'Модуль в сети',
    menu: 'Двигатель',
    param: 'Время охлаждения',
    otherParam: 'Число попыток пуска',
    key: 'cooling_time_s',
    range: 'Вне диапазона: 0 … 3 600 с',
    write: (n: number) => `Записать изменения (${n})`,
    refusedHere: 'Ничего не отправлено. Сначала исправьте значения: Время охлаждения',
    refusedTag: 'Отклонено до отправки: Вне диапазона: 0 … 3 600 с',
    dialog: 'Запись настроек в контроллер',
    warning: 'Внимание: неспециалистам не выполнять',
    password: 'Пароль вашей учётной записи',
    ok: 'Записать',
    wrongPassword: 'Неверный пароль.',
    taken: 'Принято контроллером',
    done: 'Записано и прочитано обратно настроек: 1',
    read: 'Прочитать из контроллера',
    newValue: (name: string) => `Новое значение: ${name}`,
    changed: 'Изменено',
  },
} as const;

async function valueOf(page: Page, label: string): Promise<number> {
  return Number(await page.getByRole('spinbutton', { name: label }).inputValue());
}

for (const lang of ['en-US', 'ru-RU'] as const) {
  test(`reads a menu, refuses a value out of range, writes the changed one after the password (${lang})`, async ({
    page,
  }) => {
    // A long walk through several screens on a machine the other tests share.
    test.setTimeout(120_000);
    const w = WORDS[lang];
    await page.addInitScript((l) => localStorage.setItem('lang', l), lang);
    await openSignedIn(page, ADMIN, `/crewmanage/gconfig?token=${setToken(w.set)}`);
    const root = page.getByTestId('remote-config');
    // The first visit loads the page's code, the set and a read through the module: allow for a busy machine.
    await expect(root.getByText(w.set)).toBeVisible({ timeout: 30_000 });
    await expect(root.getByText(w.online)).toBeVisible({ timeout: 30_000 });
    const table = root.getByTestId('config-params');
    // the first read of every setting goes to the controller through the module
    await expect(table.getByRole('row')).not.toHaveCount(1, { timeout: 30_000 });

    // pick the menu: its settings (and those of the menus below it) are read again
    const read = page.waitForResponse((r) => r.url().endsWith('/yewu/configdata/readconfignew'));
    await root.locator('.ant-tree').getByText(w.menu, { exact: true }).click();
    const menuRead = (await (await read).json()) as { code: number; data: { menu: string; params: { key: string }[] } };
    expect(menuRead.code).toBe(200);
    expect(menuRead.data.menu).toBe('engine');
    await expect(table.getByRole('row')).toHaveCount(menuRead.data.params.length + 1);
    expect(menuRead.data.params.map((p) => p.key)).toContain(w.key);

    const input = w.newValue(w.param);
    const current = await valueOf(page, input);
    expect(current).toBeGreaterThan(0);

    // out of range: shown at once, and refused before anything is sent
    let writes = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/yewu/configdata/writeconfignew')) writes += 1;
    });
    await page.getByRole('spinbutton', { name: input }).fill('99999');
    await expect(table.getByText(w.range)).toBeVisible();
    await expect(table.getByRole('row', { name: new RegExp(w.param) })).toContainText(w.changed);
    await root.getByRole('button', { name: w.write(1) }).click();
    await expect(root.getByTestId('write-notice')).toHaveText(w.refusedHere);
    await expect(table.getByText(w.refusedTag)).toBeVisible();
    await expect(page.getByRole('dialog', { name: w.dialog })).toBeHidden();
    expect(writes).toBe(0);

    // a valid change: the confirmation shows the warning and asks for the password
    const next = current + 1;
    await page.getByRole('spinbutton', { name: input }).fill(String(next));
    await expect(table.getByText(w.range)).toBeHidden();
    await root.getByRole('button', { name: w.write(1) }).click();
    const dialog = page.getByRole('dialog', { name: w.dialog });
    await expect(dialog).toContainText(w.warning);
    await expect(dialog.getByTestId('pending-changes')).toContainText(w.param);
    await expect(dialog.getByTestId('pending-changes').getByRole('listitem')).toHaveCount(1);

    // a wrong password: the server refuses before sending anything, the dialog stays
    await dialog.getByLabel(w.password).fill('Wrong#2026x');
    await dialog.getByRole('button', { name: w.ok }).click();
    await expect(dialog.getByText(w.wrongPassword)).toBeVisible();
    await expect(dialog).toBeVisible();

    // the right password: only the changed value is sent, read back and reported
    const sent = page.waitForRequest((r) => r.url().endsWith('/yewu/configdata/writeconfignew'));
    await dialog.getByLabel(w.password).fill(ADMIN.password);
    await dialog.getByRole('button', { name: w.ok }).click();
    const body = (await sent).postDataJSON() as { token: string; values: Record<string, number> };
    expect(body.values).toEqual({ [w.key]: next });
    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await expect(root.getByTestId('write-notice')).toHaveText(w.done);
    const row = table.getByRole('row', { name: new RegExp(w.param) });
    await expect(row).toContainText(w.taken);
    await expect(row).not.toContainText(w.changed);

    // reading again shows the controller keeping the new value
    await root.getByRole('button', { name: w.read }).click();
    await expect(page.getByRole('spinbutton', { name: input })).toHaveValue(String(next), { timeout: 30_000 });
    await expect(table.getByRole('row', { name: new RegExp(w.otherParam) })).toBeVisible();
  });
}

test('an offline module: the read shows the server’s own message and can be tried again', async ({ page }) => {
  await openSignedIn(page, ADMIN, `/crewmanage/gconfig?token=${setToken('Farm irrigation pump')}`);
  const root = page.getByTestId('remote-config');
  await expect(root.getByText('Module offline')).toBeVisible({ timeout: 30_000 });
  const alert = root.getByRole('alert');
  await expect(alert).toContainText('The settings could not be read', { timeout: 30_000 });
  await expect(alert).toContainText('The cloud module of this set is offline');
  await expect(root.getByRole('button', { name: /Write changes/ })).toBeDisabled();
  const again = page.waitForResponse((r) => r.url().endsWith('/yewu/configdata/readconfignew'));
  await alert.getByRole('button', { name: 'Read again' }).click();
  expect(((await (await again).json()) as { code: number }).code).toBe(504);
  // no error toast: the page reads the raw result itself
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
});

test('settings at bits of one register show as dropdowns; changing one keeps the other in the controller', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openSignedIn(page, ADMIN, `/crewmanage/gconfig?token=${setToken('Telecom tower T-7')}`);
  const root = page.getByTestId('remote-config');
  await expect(root.getByText('Module online')).toBeVisible({ timeout: 30_000 });
  const table = root.getByTestId('config-params');
  await expect(table.getByRole('row')).not.toHaveCount(1, { timeout: 30_000 });

  const read = page.waitForResponse((r) => r.url().endsWith('/yewu/configdata/readconfignew'));
  await root.locator('.ant-tree').getByText('Controller options', { exact: true }).click();
  const menu = (await (await read).json()) as { code: number; data: { params: { key: string; value: number }[] } };
  expect(menu.code).toBe(200);
  const valueOf = (params: { key: string; value: number }[], key: string) => params.find((p) => p.key === key)?.value;
  // A set that ran this test before has the switch on already: flip it either way.
  const next = valueOf(menu.data.params, 'idle_start') === 1 ? 0 : 1;
  const mainsBefore = valueOf(menu.data.params, 'mains_fail_auto_start');
  const label = (value: number | undefined) => (value === 1 ? 'Enabled' : 'Disabled');
  await expect(table.getByRole('row')).toHaveCount(4);
  const idle = table.getByRole('row', { name: /Start at idle speed/ });
  const mains = table.getByRole('row', { name: /Start on mains failure/ });
  await expect(idle).toContainText(label(1 - next));
  await expect(mains).toContainText(label(mainsBefore));

  await chooseOption(
    page,
    page.getByRole('combobox', { name: 'New value of Start at idle speed' }),
    label(next),
    false,
  );
  await root.getByRole('button', { name: 'Write changes (1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write settings to the controller' });
  const sent = page.waitForRequest((r) => r.url().endsWith('/yewu/configdata/writeconfignew'));
  await dialog.getByLabel('Your account password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Write' }).click();
  expect(((await sent).postDataJSON() as { values: Record<string, number> }).values).toEqual({ idle_start: next });
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(root.getByTestId('write-notice')).toHaveText('Settings written and read back: 1');
  await expect(idle).toContainText('Taken by the controller');

  // read again: the new value is kept, and the other setting of the register is unchanged
  const again = page.waitForResponse((r) => r.url().endsWith('/yewu/configdata/readconfignew'));
  await root.getByRole('button', { name: 'Read from controller' }).click();
  const values = ((await (await again).json()) as { data: { params: { key: string; value: number }[] } }).data.params;
  expect(valueOf(values, 'idle_start')).toBe(next);
  expect(valueOf(values, 'mains_fail_auto_start')).toBe(mainsBefore);
  await expect(mains).toContainText(label(mainsBefore));
});
