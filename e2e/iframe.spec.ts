// iframe=1: the page alone, without menu or bars, signed in by a one-time code that the host page asked for (the
// address never carries a session token; the code works once).
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { api, apiLogin, VIEWER } from './helpers.ts';

test('iframe=1 shows only the main area, signed in by a one-time code', async ({ page }) => {
  const login = await apiLogin(page.request, VIEWER);
  const issued = await api<{ code: string }>(page.request, '/user/embedCode', {}, login.utoken);
  await page.goto(`/index?iframe=1&code=${encodeURIComponent(issued.data.code)}`);
  await expect(page.getByTestId('welcome')).toBeVisible();
  // the code is taken out of the address once used
  expect(new URL(page.url()).searchParams.get('code')).toBeNull();
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

test('an embedding code opens one page only', async ({ page }) => {
  const login = await apiLogin(page.request, VIEWER);
  const issued = await api<{ code: string }>(page.request, '/user/embedCode', {}, login.utoken);
  expect((await api(page.request, '/user/embedLogin', { code: issued.data.code })).code).toBe(200);
  await page.goto(`/index?iframe=1&code=${encodeURIComponent(issued.data.code)}`);
  await expect(page).toHaveURL(/\/login/);
});
