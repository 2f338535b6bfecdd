// The home dashboard with the demo fleet: counts by status and alarms agree with the server, the greeting
// names the company once, the fleet map falls back to a list when tiles cannot load (tests run offline) and
// shows a dot per set when they can, and the page fits a phone.
import type { HomeSummaryResponse } from '@genset/protocol';
import { test, expect as baseExpect } from './fixtures.ts';
import { api, openSignedIn, PERSONAL, trackReloads } from './helpers.ts';
import { simulator } from './sim-control.ts';

// These pages load charts and maps; on a busy machine their first paint takes a while.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

/** A 1×1 transparent PNG standing in for map tiles. */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test('the home page shows the counts the server has, and the fleet as a list when the map cannot load', async ({
  page,
}) => {
  const token = await openSignedIn(page, PERSONAL, '/index');
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByTestId('home-company')).not.toContainText('..');

  // The demo fleet changes state now and then: read the server and the page until they agree.
  await expect(async () => {
    const summary = (await api<HomeSummaryResponse>(page.request, '/home/summary', {}, token)).data;
    await page.reload();
    const counts = page.getByTestId('status-counts');
    // (the console starts again after the reload: on a busy machine that takes seconds; then the figures are compared)
    await expect(counts.getByTestId('count-total')).toBeVisible({ timeout: 20_000 });
    await expect(counts.getByTestId('count-total')).toContainText(String(summary.counts.total), { timeout: 3000 });
    for (const key of ['running', 'standby', 'shutdown', 'offline', 'alarm'] as const) {
      await expect(counts.getByTestId(`count-${key}`)).toContainText(String(summary.counts[key]), { timeout: 1000 });
    }
    await expect(page.getByTestId('active-alarms')).toContainText(String(summary.alarms.total), { timeout: 1000 });
    expect(summary.counts.total).toBe(8);
  }).toPass({ timeout: 90_000 });

  const map = page.getByTestId('fleet-map');
  await expect(map).toHaveAttribute('data-view', 'list');
  await expect(page.getByTestId('map-unavailable')).toBeVisible();
  const summary = (await api<HomeSummaryResponse>(page.request, '/home/summary', {}, token)).data;
  await expect(map.getByTestId('map-list-item')).toHaveCount(summary.positions.length);
  await expect(map.getByRole('link', { name: 'Telecom tower T-7' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Output ranking, last 30 days' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Latest alarms' })).toBeVisible();

  // A status tile opens My gensets with that filter.
  await page.getByTestId('count-running').click();
  await expect(page).toHaveURL(/\/genset\/mylist\?status=running/);
});

test('with map tiles the fleet is drawn as one dot per set in its status colour', async ({ page }) => {
  await page.route('https://tile.openstreetmap.org/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: TILE }),
  );
  const token = await openSignedIn(page, MANAGER, '/index');
  const summary = (await api<HomeSummaryResponse>(page.request, '/home/summary', {}, token)).data;
  const map = page.getByTestId('fleet-map');
  await expect(map).toHaveAttribute('data-view', 'map');
  await expect(map.locator('path.leaflet-interactive')).toHaveCount(summary.positions.length);
  await expect(page.getByTestId('map-unavailable')).toHaveCount(0);
  // The list is still one click away.
  await map.getByText('List', { exact: true }).click();
  await expect(map).toHaveAttribute('data-view', 'list');
  await expect(map.getByTestId('map-list-item')).toHaveCount(summary.positions.length);
});

test('the home page fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, MANAGER, '/index');
  await expect(page.getByTestId('count-total')).toBeVisible();
  await expect(page.getByTestId('total-kw')).toContainText('kW');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('an alarm raised on a set reaches the home page live, without a reload', async ({ page }) => {
  test.setTimeout(300_000);
  const quarry = simulator('DEMO-0002');
  await openSignedIn(page, MANAGER, '/index');
  const map = page.getByTestId('fleet-map');
  const row = map.getByTestId('map-list-item').filter({ hasText: 'Quarry prime power' });
  await expect(row).toContainText('Running');
  const reloaded = trackReloads(page);
  // The charge alarm is armed once the engine runs on load, which the demo set does a little after start.
  await expect
    .poll(async () => (await quarry.state()).genBreakerClosed, { timeout: 90_000, intervals: [2000] })
    .toBe(true);
  try {
    await quarry.injectFault('charge_fail');
    // Sets the home page follows report at the module's offline rate (15 s on the test server): the pushed alarm count rings
    // the set (which stays in its state), and the summary follows with the alarm itself.
    await expect(row).toContainText(/Alarms: [1-9]/, { timeout: 100_000 });
    await expect(row.locator('[data-state]')).toHaveText(/^(Running|Standby|Stopped)$/);
    const latest = page.getByTestId('latest-alarms').locator('.ant-list-item', { hasText: 'Quarry prime power' });
    await expect(latest.first()).toContainText('Charge alternator failure', { timeout: 30_000 });
    await expect(latest.first()).toContainText('Warning');
    await expect(page.getByTestId('active-alarms')).not.toContainText(/Active alarms\s*0/);
    expect(reloaded()).toBe(false);
  } finally {
    await quarry.clearFault('charge_fail');
  }
});
