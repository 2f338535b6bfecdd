// The Content-Security-Policy and the other security headers hold for what the console really loads: the home
// page with its map and live sets, and the OpenAPI viewer, report no violation. (Every other page of the console is
// opened under the same policy by the page audit, which fails on any violation: e2e/page-audit.spec.ts.)
/// <reference lib="dom" />
import { test, expect as baseExpect } from './fixtures.ts';
import { openSignedIn } from './helpers.ts';
import { watchCspViolations } from './in-app.ts';

// Charts, the map and the live dials take a while to first paint on a busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

test('the main pages load under the security headers without a CSP violation', async ({ page }) => {
  test.slow();
  const violations = await watchCspViolations(page);

  const documentAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/index');
  await openSignedIn(page, MANAGER, '/index');
  const headers = (await documentAnswer).headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'self'");
  expect(headers['content-security-policy']).toContain("object-src 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['strict-transport-security']).toMatch(/^max-age=\d+$/);
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByTestId('status-counts')).toBeVisible();
  expect(await violations()).toEqual([]);

  await page.goto('/yewu/docs');
  await expect(page.getByText('Genset cloud console API').first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
