// History and alarm pages with the demo fleet: a running set's trend has data with its units, the table
// lists readings, the runtime data downloads as XLSX (parsed here), and the alarm page counts by level.
import ExcelJS from 'exceljs';
import type { HistoryChartResponse } from '@genset/protocol';
import { test, expect as baseExpect } from './fixtures.ts';
import { demoSetToken, openSignedIn } from './helpers.ts';

// These pages load charts and maps; on a busy machine their first paint takes a while.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

test('a running set shows a trend with data and units, a table of readings and an XLSX export', async ({ page }) => {
  const token = demoSetToken('Quarry prime power');
  const chartResponse = (response: { url(): string }) => response.url().includes('/yewu/history/chart');
  await openSignedIn(page, MANAGER, '/index');

  // The demo set reports every few seconds; the first readings may take a moment after the server starts.
  let chart: HistoryChartResponse | undefined;
  await expect(async () => {
    const answer = page.waitForResponse(chartResponse);
    await page.goto(`/genset/history?token=${token}`);
    chart = ((await (await answer).json()) as { data: HistoryChartResponse }).data;
    expect(chart.series.some((s) => s.points.some((p) => p[1] !== null))).toBe(true);
  }).toPass({ timeout: 45_000 });

  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
  await expect(page.getByTestId('set-picker')).toContainText('Quarry prime power');
  const trend = page.getByTestId('trend-chart');
  await expect(trend).toBeVisible();
  await expect(trend.locator('canvas').first()).toBeVisible();
  const power = chart!.series.find((s) => s.key === 'gen_kw')!;
  expect(power.unit).toBe('kW');
  await expect(trend).toHaveAttribute('aria-label', new RegExp(`${power.name} \\(kW\\)`));
  await expect(page.getByText('No data in this range')).toHaveCount(0);

  // Another range asks again.
  const monthAnswer = page.waitForResponse(chartResponse);
  await page.getByTestId('range-select').getByText('Last month').click();
  expect(((await (await monthAnswer).request().postDataJSON()) as { range: string }).range).toBe('month');
  await expect(page).toHaveURL(/range=month/);
  // A custom range: the last day unless the user picks other days.
  const customAnswer = page.waitForResponse(chartResponse);
  await page.getByTestId('range-select').getByText('Custom').click();
  const custom = (await (await customAnswer).request().postDataJSON()) as { range: string; start: number; end: number };
  expect(custom.range).toBe('custom');
  expect(custom.end - custom.start).toBeGreaterThan(86_400_000);
  expect(custom.end - custom.start).toBeLessThan(3 * 86_400_000);
  await expect(page).toHaveURL(/range=custom&start=\d+&end=\d+/);
  await expect(page.getByLabel('Custom range').first()).toBeVisible();

  await page.getByRole('tab', { name: 'Table' }).click();
  const table = page.getByTestId('history-table');
  await expect(table.getByRole('columnheader', { name: `${power.name} (kW)` })).toBeVisible();
  await expect(table.locator('tbody tr.ant-table-row').first()).toBeVisible();

  await page.getByRole('button', { name: 'Export format' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Excel workbook (XLSX)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await download.path())!);
  const sheet = workbook.worksheets[0]!;
  const headers = (sheet.getRow(1).values as unknown[]).filter(Boolean).map(String);
  expect(headers.some((h) => h.includes('kW'))).toBe(true);
  expect(sheet.actualRowCount).toBeGreaterThan(1);
});

test('without a set the history page asks for one; the alarm page counts alarms by level', async ({ page }) => {
  await openSignedIn(page, MANAGER, '/genset/history');
  await expect(page.getByText('Choose a genset to see its history')).toBeVisible();
  await page.getByTestId('set-picker').click();
  await page.locator('.ant-select-item-option', { hasText: 'Data centre backup' }).click();
  await expect(page).toHaveURL(/token=/);
  await expect(page.getByTestId('item-picker')).toBeVisible();

  await page.goto('/genset/alarms');
  await expect(page.getByRole('heading', { name: 'Alarms', exact: true })).toBeVisible();
  await expect(page.getByTestId('alarm-chart')).toBeVisible();
  for (const level of ['Warning', 'Shutdown', 'Trip']) await expect(page.getByText(level).first()).toBeVisible();
  // with all gensets the list is the fleet's: each alarm names its set
  const fleet = page.getByTestId('alarm-table');
  await expect(fleet.getByRole('columnheader', { name: 'Genset' })).toBeVisible();
  await expect(page.getByText(/Choose a genset/)).toHaveCount(0);
  await page.getByTestId('set-picker').click();
  await page.locator('.ant-select-item-option', { hasText: 'City Hospital standby' }).click();
  await expect(page.getByTestId('alarm-table')).toBeVisible();
  await expect(fleet.getByRole('columnheader', { name: 'Genset' })).toHaveCount(0);
});
