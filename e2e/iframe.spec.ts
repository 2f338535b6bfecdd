// iframe=1: the page alone, without menu or bars, signed in by the yuntoken query.
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { apiLogin, VIEWER } from './helpers.ts';

test('iframe=1 shows only the main area, signed in by yuntoken', async ({ page }) => {
  const login = await apiLogin(page.request, VIEWER);
  await page.goto(`/index?iframe=1&yuntoken=${encodeURIComponent(login.utoken)}`);
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByTestId('main')).toBeVisible();
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await expect(page.getByTestId('navbar')).toHaveCount(0);
  await expect(page.getByTestId('tags-view')).toHaveCount(0);
  await expect(page.getByTestId('menu-toggle')).toHaveCount(0);
  // the host page's session is left alone
  expect((await page.context().cookies()).find((c) => c.name === 'Admin-Token')).toBeUndefined();
  // navigating inside the frame keeps the embedded mode
  await page.evaluate(() => {
    history.pushState({}, '', '/help/list');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByTestId('help-list')).toBeVisible();
  await expect(page.getByTestId('navbar')).toHaveCount(0);
});
