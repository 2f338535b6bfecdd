// The error catalogue as the user meets it: a dead session at load, one re-login box however many calls
// fail with a re-login code, and the transport-failure toast. Failures are injected at the network.
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { openSignedIn, toast, useToken, VIEWER } from './helpers.ts';

test('a session the server no longer knows sends the user to sign-in with the reason', async ({ page }) => {
  await useToken(page.context(), 'no-such-session-token');
  const answer = page.waitForResponse((r) => r.url().endsWith('/yewu/user/info'));
  await page.goto('/help/list');
  const body = (await (await answer).json()) as { code: number; msg: string };
  expect(body.code).not.toBe(200);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fhelp%2Flist$/);
  await expect(toast(page)).toHaveText(body.msg);
  expect((await page.context().cookies()).find((c) => c.name === 'Admin-Token')).toBeUndefined();
});

test('several calls failing with re-login codes open one confirm box; Re-Login signs out', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/index');
  await expect(page.getByTestId('welcome')).toBeVisible();
  let failed = 0;
  await page.route('**/yewu/help/**', async (route) => {
    failed += 1;
    await route.fulfill({ json: { code: failed % 2 ? 50014 : 50012, msg: 'session ended', data: null } });
  });
  await page.getByTestId('sidebar-menu').getByRole('link', { name: 'User manual' }).click();
  const box = page.locator('.ant-modal-confirm');
  await expect(box).toHaveCount(1);
  await expect(box).toContainText('Confirm logout');
  // more failing calls while the box is open: still one box
  await page.evaluate(async () => {
    history.pushState({}, '', '/redirect/help/list');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect.poll(() => failed).toBeGreaterThanOrEqual(2);
  await expect(box).toHaveCount(1);

  await box.getByRole('button', { name: 'Cancel' }).click();
  await expect(box).toHaveCount(0);
  await expect(page.getByTestId('navbar')).toBeVisible();

  await page.getByTestId('tags-view').getByRole('link', { name: 'User manual' }).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Refresh' }).click();
  await expect(box).toHaveCount(1);
  await box.getByRole('button', { name: 'Re-Login' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fhelp%2Flist$/);
  expect((await page.context().cookies()).find((c) => c.name === 'Admin-Token')).toBeUndefined();
});

test('a transport failure shows the network error toast', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/index');
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.route('**/yewu/help/list', (route) => route.abort('connectionfailed'));
  await page.getByTestId('sidebar-menu').getByRole('link', { name: 'User manual' }).click();
  await expect(toast(page)).toHaveText('Network error, please contact the administrator');
  await expect(page.getByTestId('help-list').getByRole('alert')).toContainText('could not be loaded');
  await page.unroute('**/yewu/help/list');
  await page.getByTestId('help-list').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('help-list').getByRole('link').first()).toBeVisible();
});
