// A newcomer's first look: a server started on a fresh data directory, as `npm start` starts it (demo fleet and
// its 30 days of past), shows within a minute a full home page (output ranking, latest alarms), a month of a
// set's trends and an alarm history, and what the month's alarms say (the analytics view and its workbook). The test
// runs a server of its own, so the other tests keep an empty past.
import ExcelJS from 'exceljs';
import type { AlarmAnalyticsResponse } from '@genset/protocol';
import { test, expect } from './fixtures.ts';
import { signInWithPassword } from './helpers.ts';
import { startOwnServer } from './own-server.ts';

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.beforeAll(async () => {
  // as `npm start` starts it: the demo fleet with its past (DEMO_BACKFILL_DAYS at its default)
  own = await startOwnServer('first-look', {});
});

test.afterAll(async () => own?.close());

test('a fresh start shows a full home page, a month of trends and an alarm history within a minute, and the alarms analysed', async ({
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

  // What the fleet's alarms of the month say, as the server counted them for the page: figures, the most frequent
  // alarm, the sets, the week's grid holding every episode, and the workbook; in Chinese too.
  const answer = page.waitForResponse((r) => r.url().endsWith('/yewu/alarm/analytics'));
  await page.goto(`${own!.server.url}/genset/alarms?range=month&view=analytics`);
  const a = ((await (await answer).json()) as { data: AlarmAnalyticsResponse }).data;
  expect(a.episodes).toBeGreaterThan(0);
  expect(a.shutdowns).toBeGreaterThan(0);
  const view = page.getByTestId('alarm-analytics');
  await expect(view.getByTestId('alarm-figures')).toContainText(a.episodes.toLocaleString('en-US'));
  await expect(view.getByTestId('alarm-mtbs')).toContainText(`${a.mtbsHours!.toLocaleString('en-US')} h`);
  const first = view.getByTestId('alarms-by-count').locator('tbody tr').first();
  await expect(first).toContainText(a.byCount[0]!.title);
  await expect(first).toContainText(a.byCount[0]!.episodes.toLocaleString('en-US'));
  await expect(view.getByTestId('alarms-by-set').locator('tbody tr')).toHaveCount(a.bySet.length);
  const cells = view.getByTestId('alarm-week').locator('td');
  await expect(cells).toHaveCount(7 * 24);
  expect(await cells.evaluateAll((tds) => tds.reduce((n, td) => n + Number(td.dataset.count), 0))).toBe(a.episodes);
  const [download] = await Promise.all([page.waitForEvent('download'), view.getByTestId('analytics-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^alarm-analytics-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await download.path())!);
  expect(workbook.worksheets.map((w) => w.name)).toEqual(['Figures', 'Alarms', 'Sets', 'Week']);
  expect(workbook.worksheets[1]!.rowCount - 1).toBeGreaterThanOrEqual(a.byCount.length);
  await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
  await page.reload();
  await expect(page.getByRole('heading', { name: '最常见的报警' })).toBeVisible();
  await expect(page.getByTestId('alarm-figures')).toContainText('每台机组平均停机间隔');
});
