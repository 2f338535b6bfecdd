// The frames of the set pages (/top/*) and the station pages (/ems/*).
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { demoSetToken, openSignedIn, PERSONAL, VIEWER } from './helpers.ts';

test('the top layout without a set says so and offers all four tabs with a running clock', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/top/realtime');
  await expect(page.getByTestId('set-name')).toHaveText('No set selected');
  await expect(page.getByTestId('no-set')).toBeVisible();
  const tabs = page.getByTestId('top-tabs');
  for (const name of ['Real time', 'Real data', 'Alarms', 'Maintenance']) {
    await expect(tabs.getByRole('link', { name })).toBeVisible();
  }
  await expect(page.getByTestId('restart-module')).toBeDisabled();
  const clock = page.getByTestId('clock');
  const first = await clock.textContent();
  await expect(clock).not.toHaveText(first ?? '', { timeout: 3000 });
});

test('a maintenance token hides the maintenance tab and the query is carried between tabs', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/top/realtime?token=unknownSet1&mtoken=m1');
  const tabs = page.getByTestId('top-tabs');
  await expect(tabs.getByRole('link', { name: 'Alarms' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Maintenance' })).toHaveCount(0);
  // the server does not know this set: the status line says why
  await expect(page.getByTestId('set-status')).not.toBeEmpty();
  await expect(page.getByTestId('set-status').locator('.ant-typography-danger')).toBeVisible();
  await tabs.getByRole('link', { name: 'Real data' }).click();
  await expect(page).toHaveURL(/\/top\/realdata\?token=unknownSet1&mtoken=m1$/);
});

test('the top bar shows a live set: name, status in colour and word, alarms, refreshed every 10 s', async ({
  page,
}) => {
  const token = demoSetToken('City Hospital standby');
  await openSignedIn(page, PERSONAL, `/top/realtime?token=${token}`);
  await expect(page.getByTestId('set-name')).toHaveText('City Hospital standby');
  const status = page.getByTestId('set-status');
  await expect(status.locator('.ant-tag')).toHaveText(/^(Offline|Stopped|Standby|Running)$/);
  await expect(status).toContainText(/Alarms: \d+/);
  // control rights on this set: the module may be restarted
  await expect(page.getByTestId('restart-module')).toBeEnabled();
  const again = await page.waitForRequest((r) => r.url().endsWith('/yewu/devicedata/getstatus'), { timeout: 15_000 });
  expect(JSON.parse(again.postData() ?? '{}')).toMatchObject({ token });
});

test('a set the user may only view cannot have its module restarted', async ({ page }) => {
  await openSignedIn(page, PERSONAL, `/top/realtime?token=${demoSetToken('Quarry prime power')}`);
  await expect(page.getByTestId('set-name')).toHaveText('Quarry prime power');
  await expect(page.getByTestId('restart-module')).toBeDisabled();
});

test('the clock shows only in Chinese and English', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'ru-RU'));
  await openSignedIn(page, VIEWER, '/top/realtime');
  await expect(page.getByTestId('set-name')).toHaveText('Установка не выбрана');
  await expect(page.getByTestId('clock')).toHaveCount(0);
});

test('on a phone the top layout tabs sit in a drawer 60 % wide', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, VIEWER, '/top/realtime');
  await page.getByTestId('top-drawer-toggle').click();
  const drawer = page.locator('.ant-drawer-content-wrapper');
  await expect(drawer).toBeVisible();
  expect((await drawer.boundingBox())?.width).toBeCloseTo(234, 0);
  await page.getByRole('link', { name: 'Alarms' }).click();
  await expect(page).toHaveURL(/\/top\/baojing$/);
  await expect(drawer).toBeHidden();
});

test('the station layout shows the company, the totals and an alarm badge on its second menu item', async ({
  page,
}) => {
  await openSignedIn(page, VIEWER, '/ems/index');
  await expect(page.getByTestId('ems-company')).toHaveText('Demo Power Fleet');
  const totals = page.getByTestId('station-totals');
  for (const label of ['Total charge', 'Total discharge', 'Total income', 'kWh', '¥']) {
    await expect(totals.getByText(label, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByTestId('no-station')).toBeVisible();
  // the station pages the server's menu gives: the overview first, the alarms (with their badge) second
  const items = page.getByTestId('ems-menu').getByRole('menuitem');
  await expect(items.first()).toContainText('Overview');
  await expect(items.nth(1)).toContainText('Alarms');
  expect(await items.count()).toBeGreaterThanOrEqual(2);
  await expect(items.nth(1).locator('.ant-badge-count')).toBeVisible();
  await expect(items.nth(0).locator('.ant-badge-count')).toHaveCount(0);
});
