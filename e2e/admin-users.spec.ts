// Administration in the browser: the company administrator adds a department on the department tree page and a
// person in it on the user page (account, department, role, temporary password), then finds them by searching,
// in English and in Chinese. The words are read from the console's own locale files.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, signInWithPassword, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

/** The manager's session, signed in once per worker. */
const test = base.extend<object, { manager: string }>({
  manager: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext();
      const login = await apiLogin(request, MANAGER);
      await use(login.utoken);
      await request.dispose();
    },
    { scope: 'worker' },
  ],
});

type Words = Record<string, any>;
function words(lang: string): { admin: Words; common: Words } {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../apps/web/src/i18n/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return { admin: read('admin'), common: read('common') };
}

/** A button's name as Ant Design writes it (after its icon's name; a space may part two Chinese characters). */
const loose = (text: string) =>
  new RegExp(`(^|\\s)${[...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s?')}$`);

/** The open select list once it has finished sliding in (a click on a list still moving can be lost). */
const settled = (page: Page) =>
  page.locator('.ant-select-dropdown:visible:not([class*="-enter"]):not([class*="-appear"]):not([class*="-leave"])');

/** A page's first sight after it is opened: its code is loaded on demand, slower on a busy machine. */
const LOADED = { timeout: 60_000 };

/** Clicks a button until its dialog shows (a click while the page is still being put together can be lost). */
async function open(button: Locator, dialog: Locator) {
  await button.waitFor(LOADED);
  await expect(async () => {
    if (!(await dialog.isVisible())) await button.click();
    await expect(dialog).toBeVisible({ timeout: 3_000 });
  }).toPass(LOADED);
}

// A page's code loads on demand and the machine may be busy: more time than a one-page test.
test.slow();

async function addDepartmentAndUser(page: Page, lang: string) {
  const { admin, common } = words(lang);
  const stamp = `${Date.now().toString(36)}${lang.slice(0, 2)}`;
  const department = `E2E ${stamp}`;
  const account = `e2e${stamp}@example.com`;

  await page.goto('/system/dept');
  const deptDialog = page.getByRole('dialog', { name: admin.department.add });
  await open(page.getByRole('button', { name: loose(admin.department.add) }), deptDialog);
  await deptDialog.getByLabel(admin.department.name, { exact: true }).fill(department);
  await deptDialog.getByRole('button', { name: loose(common.actions.save) }).click();
  await expect(page.getByTestId(`department-${department}`)).toBeVisible();

  await page.goto('/system/user');
  const dialog = page.getByRole('dialog', { name: admin.user.add });
  await open(page.getByRole('button', { name: loose(admin.user.add) }), dialog);
  await dialog.getByLabel(admin.user.account, { exact: true }).fill(account);
  await dialog.getByLabel(admin.user.nickname, { exact: true }).fill(`Nina ${stamp}`);
  await dialog.getByLabel(admin.user.department, { exact: true }).click();
  await settled(page).locator('.ant-select-tree-title').filter({ hasText: department }).click();
  await dialog.getByLabel(admin.user.role, { exact: true }).click();
  await settled(page).locator('.ant-select-item-option').first().click();
  await expect(settled(page)).toHaveCount(0);
  await dialog.getByLabel(admin.user.temporaryPassword, { exact: true }).fill('Temp#2026x');
  await dialog.getByRole('button', { name: loose(common.actions.save) }).click();
  await expect(page.getByText(admin.user.added)).toBeVisible();

  await page.getByRole('searchbox', { name: admin.user.search }).fill(account);
  await page.getByRole('searchbox', { name: admin.user.search }).press('Enter');
  const row = page.getByRole('row', { name: new RegExp(account) });
  await expect(row).toContainText(department);
}

test('the administrator adds a department and a person in it, in English', async ({ page, manager }) => {
  await useToken(page.context(), manager);
  await addDepartmentAndUser(page, 'en-US');
});

test('the administrator adds a department and a person in it, in Chinese', async ({ page, manager }) => {
  await useToken(page.context(), manager);
  await page.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
  await addDepartmentAndUser(page, 'zh-CN');
});

test('a person given a temporary password changes it at sign-in before any page', async ({ page, manager }) => {
  const roles = await api<{ list: { id: number; roleKey: string }[] }>(
    page.request,
    '/role/list?size=50',
    undefined,
    manager,
  );
  const operator = roles.data.list.find((r) => r.roleKey === 'operator')!;
  const account = `e2etemp${Date.now().toString(36)}@example.com`;
  const added = await api(page.request, '/user/add', { account, roleId: operator.id, password: 'Temp#2026x' }, manager);
  expect(added.code, added.msg).toBe(200);

  await page.goto('/login');
  await signInWithPassword(page, { username: account, password: 'Temp#2026x' });
  const form = page.getByTestId('password-required');
  await expect(form).toBeVisible(LOADED);
  await form.getByLabel('Old password').fill('Temp#2026x');
  await form.getByLabel('New password', { exact: true }).fill('Mine#2026yy');
  await form.getByLabel('Repeat new password').fill('Mine#2026yy');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible(LOADED);
  await expect(form).toHaveCount(0);
});
