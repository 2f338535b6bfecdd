// The shell around the pages: sidebar from the server's menu with its collapse state in a cookie,
// breadcrumb, document title from the company serving this host name.
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { api, openSignedIn, VIEWER } from './helpers.ts';

test('the sidebar shows the permitted menu and keeps its collapsed state in a cookie', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/index');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toHaveCSS('width', '230px');
  const menu = page.getByTestId('sidebar-menu');
  await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'User manual' })).toBeVisible();
  await expect(menu.getByText('Gensets', { exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Monitor', exact: true })).toBeVisible();
  // entries of permissions the viewer lacks are left out, and so are hidden ones (the manual page, the
  // personal centre, a set's details)
  for (const name of ['Protocols', 'Genset management', 'Personal centre', 'Manual page', 'Genset details']) {
    await expect(menu.getByText(name, { exact: true })).toHaveCount(0);
  }

  await page.getByTestId('menu-toggle').click();
  await expect(sidebar).toHaveCSS('width', '64px');
  expect((await page.context().cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
  await page.reload();
  await expect(page.getByTestId('sidebar')).toHaveCSS('width', '64px');
  await page.getByTestId('menu-toggle').click();
  await expect(page.getByTestId('sidebar')).toHaveCSS('width', '230px');
  expect((await page.context().cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('1');
});

test('the breadcrumb starts with Home except on Home, and the title comes from the company', async ({ page }) => {
  const company = await api<{ title: string; name: string }>(page.request, '/company/getName?hostname=127.0.0.1');
  await openSignedIn(page, VIEWER, '/index');
  await expect(page.getByTestId('breadcrumb')).toHaveText('Home');
  await expect(page).toHaveTitle(company.data.title || company.data.name);
  await page.getByTestId('sidebar-menu').getByRole('link', { name: 'User manual' }).click();
  await expect(page.getByTestId('breadcrumb')).toHaveText(/^Home\s*\/\s*User manual$/);
  await page.getByTestId('help-list').getByRole('link').first().click();
  await expect(page.getByTestId('breadcrumb')).toHaveText(/^Home\s*\/\s*User manual\s*\/\s*\S/);
  await page.getByTestId('breadcrumb').getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/index$/);
});

test('navigating starts the next page at the top', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/help/list');
  const links = page.getByTestId('help-list').getByRole('link');
  await expect(links.first()).toBeVisible();
  const [first, second] = await links.evaluateAll((els) => els.slice(0, 2).map((el) => el.getAttribute('href')));
  // read the second page once so that it shows at once, long, when it is opened again
  await links.nth(1).click();
  await expect(page.getByTestId('help-info').locator('.markdown-body')).toBeVisible();
  await page.goBack();
  await links.first().click();
  await expect(page.getByTestId('help-info').locator('.markdown-body')).toBeVisible();
  await page.mouse.wheel(0, 5000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  // another long manual page, reached the way an in-page link would
  await page.evaluate((href) => {
    history.pushState({}, '', href);
    dispatchEvent(new PopStateEvent('popstate'));
  }, second!);
  await expect(page).toHaveURL(new RegExp(`${second!.replace(/[?]/g, '\\?')}$`));
  await expect(page.getByTestId('help-info').locator('.markdown-body')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(1500);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  expect(first).not.toBe(second);
});
