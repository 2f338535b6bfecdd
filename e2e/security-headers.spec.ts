// The Content-Security-Policy and the other security headers hold for what the console really loads: the main
// pages (home with its map, my gensets, a set's realtime tab over the WebSocket, the history chart) and the
// OpenAPI viewer report no violation.
/// <reference lib="dom" />
import { test, expect as baseExpect } from './fixtures.ts';
import { demoSetToken, openSignedIn } from './helpers.ts';

// Charts, the map and the live dials take a while to first paint on a busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

test('the main pages load under the security headers without a CSP violation', async ({ page }) => {
  test.slow();
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener(
      'securitypolicyviolation',
      (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
      true,
    );
  });
  const consoleViolations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) consoleViolations.push(m.text());
  });
  const violations = async () => [
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
    ...consoleViolations,
  ];

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

  await page.goto('/genset/mylist');
  await expect(page.getByRole('heading', { name: 'My gensets' })).toBeVisible();
  await expect(page.getByText('Quarry prime power').first()).toBeVisible();
  expect(await violations()).toEqual([]);

  await page.goto(`/top/realtime?token=${demoSetToken('Quarry prime power')}`);
  await expect(page.getByTestId('set-name')).toHaveText('Quarry prime power');
  // the realtime channel is a WebSocket: connect-src allows it
  await expect(page.getByTestId('live-connection')).toHaveText('Live', { timeout: 30_000 });
  await expect(page.getByTestId('gauge-rpm').getByTestId('gauge-value')).toHaveText(/\d/);
  expect(await violations()).toEqual([]);

  await page.goto(`/genset/history?token=${demoSetToken('Quarry prime power')}`);
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
  await expect(page.getByTestId('trend-chart').locator('canvas').first()).toBeVisible();
  expect(await violations()).toEqual([]);

  await page.goto('/yewu/docs');
  await expect(page.getByText('Genset cloud console API').first()).toBeVisible();
  expect(await violations()).toEqual([]);
});
