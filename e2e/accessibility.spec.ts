// axe-core finds no serious or critical accessibility violation on the sign-in page and in the shell.
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
