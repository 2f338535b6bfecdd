// axe-core finds no serious or critical accessibility violation on the sign-in page and in the shell; less motion
// for those who ask for it.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { openSignedIn, VIEWER } from './helpers.ts';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

test('the sign-in page has no serious or critical violation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('login-mode').getByText('SMS code').click();
  await expect(page.getByTestId('send-code')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the shell has no serious or critical violation', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/index');
  await expect(page.getByTestId('welcome')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('sidebar-menu').getByRole('link', { name: 'User manual' }).click();
  await expect(page.getByTestId('help-list').getByRole('link').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto('/user/personal');
  await expect(page.getByTestId('profile-name')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

/** Animations still running on the page (CSS animations and transitions; the Web Animations API lists both). */
function runningAnimations(page: Page) {
  return page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === 'running')
      .map((a) => (a.effect instanceof KeyframeEffect && a.effect.target ? a.effect.target.className : 'animation')),
  );
}

test('for those who ask for less motion nothing moves: the home page with its live sets, and a menu', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL!, reducedMotion: 'reduce' });
  try {
    const page = await context.newPage();
    await openSignedIn(page, { username: 'manager@example.com', password: 'Demo#2026' }, '/index');
    await expect(page.getByTestId('welcome')).toBeVisible();
    await expect(page.getByTestId('fleet-map')).toBeVisible();
    await expect.poll(() => runningAnimations(page)).toEqual([]);
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: 'Personal centre' })).toBeVisible();
    expect(await runningAnimations(page)).toEqual([]);
  } finally {
    await context.close();
  }
});
