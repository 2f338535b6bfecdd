// Roles and invitations in the browser: the company administrator creates a role with view-only rights and the
// department scope, creates an invitation link; a second person opens the link signed out, signs in from it, comes
// back and applies; the administrator approves the application with that role and a department; the person then
// finds the department's set in My gensets and reaches it, and neither finds nor reaches another set of the company. In English and in Chinese; the words are read
// from the console's locale files and the server's catalog. The department and the two sets (one of them in the
// department) are made through the API beforehand.
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from '@playwright/test';
import serverWords from '../apps/server/src/i18n/catalogs/roles.ts';
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, registerAccount, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
type Lang = 'en-US' | 'zh-CN';

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
function words(lang: Lang): Record<'roles' | 'members' | 'invite' | 'auth' | 'common', Words> {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../apps/web/src/i18n/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return {
    roles: read('roles'),
    members: read('members'),
    invite: read('invite'),
    auth: read('auth'),
    common: read('common'),
  };
}

/** A button's name as Ant Design writes it (after its icon's name; a space may part two Chinese characters). */
const loose = (text: string) =>
  new RegExp(`(^|\\s)${[...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s?')}$`);

/** The open select list once it has finished sliding in. */
const settled = (page: Page) =>
  page.locator('.ant-select-dropdown:visible:not([class*="-enter"]):not([class*="-appear"]):not([class*="-leave"])');

const LOADED = { timeout: 60_000 };

/** Clicks a button until what it opens shows (a click while the page is still being put together can be lost). */
async function open(button: Locator, opened: Locator) {
  await button.waitFor(LOADED);
  await expect(async () => {
    if (!(await opened.isVisible())) await button.click();
    await expect(opened).toBeVisible({ timeout: 3_000 });
  }).toPass(LOADED);
}

test.slow();

async function inviteAndApprove(page: Page, browser: Browser, manager: string, lang: Lang) {
  const w = words(lang);
  const server = serverWords[lang];
  const stamp = `${Date.now().toString(36)}${lang.slice(0, 2)}`;
  const roleName = `Watch ${stamp}`;

  // the department and two sets, one of them in the department
  const dep = await api<{ id: number }>(page.request, '/dept/add', { name: `Dept ${stamp}`, parentId: null }, manager);
  expect(dep.code, dep.msg).toBe(200);
  const protocols = await api<{ key: string }[]>(page.request, '/genset/protocols', {}, manager);
  const sets: { token: string; name: string }[] = [];
  for (const suffix of ['in', 'out']) {
    const name = `Zulu ${stamp} ${suffix}`;
    const added = await api<{ token: string }>(
      page.request,
      '/genset/add',
      { name, protocolKey: protocols.data[0]!.key },
      manager,
    );
    expect(added.code, added.msg).toBe(200);
    sets.push({ token: added.data.token, name });
  }
  const moved = await api(
    page.request,
    '/genset/setDepartment',
    { tokens: [sets[0]!.token], departmentId: dep.data.id },
    manager,
  );
  expect(moved.code, moved.msg).toBe(200);

  await useToken(page.context(), manager);
  if (lang !== 'en-US') await page.addInitScript((l) => localStorage.setItem('lang', l), lang);

  // a role that only views, over its holder's department
  await page.goto('/system/role');
  const drawer = page.locator('.ant-drawer');
  await open(page.getByTestId('role-add'), drawer.getByTestId('role-name'));
  await drawer.getByTestId('role-name').fill(roleName);
  const viewSets = drawer.locator('.ant-tree-treenode').filter({ hasText: server['permissions.genset:view']! });
  await viewSets.locator('.ant-tree-checkbox').click();
  await drawer.getByRole('radio', { name: server['roles.scope.department']! }).check();
  await drawer.getByTestId('role-save').click();
  await expect(page.getByText(w.roles.saved)).toBeVisible();
  await expect(page.getByTestId('roles-table')).toContainText(roleName, LOADED);

  // an invitation link
  await page.goto('/system/member');
  await page.getByRole('tab', { name: w.members.invitations }).click();
  const dialog = page.getByRole('dialog', { name: w.members.inviteCreate });
  await open(page.getByTestId('invite-add'), dialog);
  const created = page.waitForResponse((r) => r.url().includes('/yewu/invite/create'));
  await dialog.getByTestId('invite-ok').click();
  const code = ((await (await created).json()) as { data: { code: string } }).data.code;
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toBeVisible(LOADED);
  await row.getByRole('button', { name: w.members.qr }).click();
  await expect(page.getByTestId('invite-qr')).toBeVisible();

  // the person opens the link signed out, signs in from it and applies
  const person = await registerAccount(page.request, `Pat ${stamp}`);
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL! });
  try {
    const visitor = await other.newPage();
    if (lang !== 'en-US') await visitor.addInitScript((l) => localStorage.setItem('lang', l), lang);
    await visitor.goto(`/invite/${code}`);
    await expect(visitor.getByTestId('invite-page')).toBeVisible(LOADED);
    await visitor.getByTestId('invite-login').click();
    await visitor.getByLabel(w.auth.fields.username).fill(person.username);
    await visitor.getByRole('textbox', { name: w.auth.fields.password }).fill(person.password);
    await visitor.getByRole('button', { name: loose(w.auth.login.submit) }).click();
    await expect(visitor).toHaveURL(new RegExp(`/invite/${code}$`), LOADED);
    await visitor.getByTestId('invite-apply').click();
    await expect(visitor.getByTestId('invite-result')).toContainText(w.invite.applied);

    // the administrator approves it with the role and the department
    await page.goto('/system/member');
    const application = page.getByRole('row').filter({ hasText: person.username });
    await expect(application).toBeVisible(LOADED);
    const approve = page.getByRole('dialog', { name: w.members.approveTitle.replace('{{name}}', `Pat ${stamp}`) });
    await open(application.getByRole('button', { name: loose(w.members.approve) }), approve);
    await approve.getByTestId('approve-role').click();
    await settled(page).locator('.ant-select-item-option').filter({ hasText: roleName }).click();
    await expect(settled(page)).toHaveCount(0);
    await approve.getByTestId('approve-department').click();
    await settled(page)
      .locator('.ant-select-tree-title')
      .filter({ hasText: `Dept ${stamp}` })
      .click();
    await approve.getByTestId('approve-ok').click();
    await expect(page.getByText(w.members.approvedOk)).toBeVisible();

    // My gensets lists the department's set and not the other one; the person reaches the one, not the other
    await visitor.goto('/genset/mylist');
    await expect(visitor.getByText(sets[0]!.name).first()).toBeVisible(LOADED);
    await expect(visitor.getByText(sets[1]!.name)).toHaveCount(0);
    await visitor.goto(`/crewmanage/detail/${sets[0]!.token}`);
    await expect(visitor.getByText(sets[0]!.name).first()).toBeVisible(LOADED);
    await visitor.goto(`/crewmanage/detail/${sets[1]!.token}`);
    await expect(visitor.locator('.ant-result')).toBeVisible(LOADED);
    await expect(visitor.getByText(sets[1]!.name)).toHaveCount(0);
  } finally {
    await other.close();
  }
}

test('a role, an invitation, an application approved: the member sees the department’s set, in English', async ({
  page,
  browser,
  manager,
}) => {
  await inviteAndApprove(page, browser, manager, 'en-US');
});

test('a role, an invitation, an application approved: the member sees the department’s set, in Chinese', async ({
  page,
  browser,
  manager,
}) => {
  await inviteAndApprove(page, browser, manager, 'zh-CN');
});
