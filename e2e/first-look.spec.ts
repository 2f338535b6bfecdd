// A newcomer's first look: a server started on a fresh data directory, as `npm start` starts it (demo fleet and
// its 30 days of past), shows within a minute a full home page (output ranking, latest alarms), a month of a
// set's trends and an alarm history. The test runs a server of its own, so the other tests keep an empty past.
import { test, expect } from './fixtures.ts';
import { signInWithPassword } from './helpers.ts';
import { startOwnServer } from './own-server.ts';

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.beforeAll(async () => {
  // as `npm start` starts it: the demo fleet with its past (DEMO_BACKFILL_DAYS at its default)
  own = await startOwnServer('first-look', {});
});

test.afterAll(async () => own?.close());

test('a fresh start shows a full home page, a month of trends and an alarm history within a minute', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${own!.server.url}/login`);
  await signInWithPassword(page, { username: 'manager@example.com', password: 'Demo#2026' });

  // The home page: the ranking fills as the sets' pasts are stored (the page follows without a reload).
  // (the first visit loads the console's code from a server storing a month of the fleet's past, beside the
  // other worker's tests on a small machine)
  await expect(page.getByRole('heading', { name: 'Output ranking, last 30 days' })).toBeVisible({ timeout: 60_000 });
  // (a ranking listed for screen readers too: one entry per set with output)
  await expect(page.getByTestId('output-ranking')).toBeVisible({ timeout: 60_000 });
  // (the sets' pasts are written one after the other; the page reads the summary again each minute)
  await expect(page.getByText('Quarry prime power:', { exact: false }).first()).toBeAttached({ timeout: 90_000 });
  await expect(page.getByTestId('latest-alarms').locator('.ant-list-item').first()).toBeVisible({ timeout: 60_000 });
  // (how long the past takes is measured by the server's log line, not asserted here: on a busy machine it varies)
  await own!.server.app.devices.demoBackfilled;

  // A set's month of trends.
  const sets = await own!.server.app.database.db.selectFrom('genset').select(['name', 'token']).execute();
  const quarry = sets.find((s) => s.name === 'Quarry prime power')!;
  const chart = page.waitForResponse((r) => r.url().endsWith('/yewu/history/chart'));
  await page.goto(`${own!.server.url}/genset/history?token=${quarry.token}&range=month`);
  const series = ((await (await chart).json()) as { data: { series: { points: [number, number | null][] }[] } }).data
    .series;
  const points = series.flatMap((s) => s.points);
  expect(points.filter((p) => p[1] !== null).length).toBeGreaterThan(points.length * 0.9);
  await expect(page.getByTestId('trend-chart').locator('canvas').first()).toBeVisible();
  await expect(page.getByText('No data in this range')).toHaveCount(0);

  // Its alarm history over the month: the day the cooling failed.
  await page.goto(`${own!.server.url}/genset/alarms?token=${quarry.token}&range=month`);
  const table = page.getByTestId('alarm-table');
  await expect(table.getByRole('row', { name: /High coolant temperature shutdown/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Maintenance due/ }).first()).toBeVisible();
});
