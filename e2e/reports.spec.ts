// The report of a set with the demo fleet: the page fills itself from the set's data (and the weather of its
// place, from the local weather service of the global setup), a value out of range is refused beside its field,
// saving makes versions that can be opened again, the saved version downloads as PDF; the set's top bar shows
// the weather with °C in two decimals; the same in Chinese.
import { test, expect as baseExpect } from './fixtures.ts';
import { demoSetToken, openSignedIn, toast } from './helpers.ts';

const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

test('fill a report from data, correct it, save versions, open an earlier one, see the weather', async ({ page }) => {
  const token = demoSetToken('Quarry prime power');
  await openSignedIn(page, MANAGER, `/crewmanage/report/${token}?type=1`);

  // The first visit loads the page's code and fills the form from a month of data: on a busy machine, a while.
  await expect(page.getByRole('heading', { name: 'Report — Quarry prime power' })).toBeVisible({ timeout: 60_000 });
  // No report saved yet: the page fills one from last month's data and the weather at the set's place.
  await expect(page.getByTestId('report-state')).toContainText('Filled from the data of', { timeout: 60_000 });
  await expect(page.getByLabel('Equipment', { exact: true })).toHaveValue('Quarry prime power');
  await expect(page.getByLabel('Ambient temperature (°C)')).toHaveValue('20.01');
  await expect(page.getByLabel('Humidity (%)')).toHaveValue('55');
  await expect(page.getByTestId('report-table').locator('tbody tr')).toHaveCount(6);

  // A figure out of range is refused beside its field, and nothing is saved.
  const fuel = page.getByLabel('Row 2 · Fuel level at end (%)');
  await fuel.fill('150');
  await page.getByTestId('report-save').click();
  await expect(page.getByText('Row 2 · Fuel level at end (%) must be between 0 and 100')).toBeVisible();
  await expect(page.getByTestId('report-versions-open')).toHaveText('Versions');

  await fuel.fill('80');
  await page.getByLabel('Row 1 · Remarks').fill('Belts checked');
  await page.getByLabel('Summary').fill('First visit');
  await page.getByTestId('report-save').click();
  await expect(toast(page)).toContainText('Saved as version 1');
  await expect(page.getByTestId('report-state')).toContainText('Version 1, saved');
  await expect(page.getByLabel('Row 2 · Fuel level at end (%)')).toHaveValue('80');

  await page.getByLabel('Summary').fill('Second visit');
  await page.getByTestId('report-save').click();
  await expect(page.getByTestId('report-state')).toContainText('Version 2, saved');
  await expect(page.getByTestId('report-versions-open')).toHaveText('Versions (2)');

  // The saved version downloads as a PDF.
  const download = page.waitForEvent('download');
  await page.getByTestId('report-export-pdf').click();
  expect((await download).suggestedFilename()).toMatch(/_v2\.pdf$/);

  // Earlier versions stay: open version 1.
  await page.getByTestId('report-versions-open').click();
  const drawer = page.getByTestId('report-versions');
  await expect(drawer.getByTestId('report-version-2')).toBeVisible();
  await drawer.getByTestId('report-version-1').getByRole('button', { name: 'Open' }).click();
  await expect(page.getByText('You are looking at version 1; the latest is version 2.')).toBeVisible();
  await expect(page.getByLabel('Summary')).toHaveValue('First visit');
  await expect(page.getByLabel('Row 1 · Remarks')).toHaveValue('Belts checked');

  // The set's top bar: the weather with °C in two decimals, and a sync button.
  await page.goto(`/top/realtime?token=${token}`);
  const weather = page.getByTestId('weather-line');
  await expect(weather.getByTestId('weather-temp')).toHaveText('20.01 °C');
  await expect(weather).toContainText('55 %');
  await expect(weather).toContainText('1,013 hPa');
  await weather.getByTestId('weather-sync').click();
  await expect(weather.getByTestId('weather-temp')).toHaveText('20.01 °C');

  // The same in Chinese.
  await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
  await page.reload();
  await expect(page.getByTestId('weather-temp')).toHaveText('20.01 °C');
  await page.goto(`/crewmanage/report/${token}?type=1`);
  await expect(page.getByRole('heading', { name: '报表 — Quarry prime power' })).toBeVisible();
  await expect(page.getByTestId('report-state')).toContainText('第 2 版');
  await expect(page.getByLabel('总结')).toHaveValue('Second visit');
  await page.getByLabel('第 3 行 · 期末燃油液位 (%)').fill('101');
  await page.getByTestId('report-save').click();
  await expect(page.getByText('第 3 行 · 期末燃油液位 (%)必须在 0 到 100 之间')).toBeVisible();
});
