// Storage stations: the manager finds the demo stations in My stations, opens one in the station layout and
// sees its energy flow follow the live site (kW that change without a reload), the statistics split by period,
// and edits the station's price template — a refusal beside the periods, then a new version — and sends the
// tactic with the password (a wrong one refused beside the field), after which the station's module reports it
// runs the new version. In English at 1440 px on the Shanghai station, in Chinese on a phone on the Valencia one,
// so the two workers never touch the same station.
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, toast, trackReloads, useToken } from './helpers.ts';
import type { Page } from '@playwright/test';
import type { SiteListResponse } from '@genset/protocol';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
const SHANGHAI = 'Industrial park storage';
const VALENCIA = 'Solar logistics hub storage';

/** The manager's session, signed in once per worker. */
const test = base.extend<object, { manager: string }>({
  manager: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext();
      const login = await apiLogin(request, MANAGER);
      await use(login.utoken);
      await request.dispose();
    },
    { scope: 'worker' },
  ],
});

/** A page's first sight after it is opened: its code is loaded on demand, slower on a busy machine. */
const LOADED = { timeout: 60_000 };
/** The demo site's module reports at the online rate while a station page watches it. */
const LIVE = { timeout: 45_000 };

test.slow();

async function stationToken(page: Page, manager: string, name: string): Promise<string> {
  const list = await api<SiteListResponse>(
    page.request,
    `/site/list?name=${encodeURIComponent(name)}`,
    undefined,
    manager,
  );
  const token = list.data.list.find((s) => s.name === name)?.token;
  if (!token) throw new Error(`no demo station named ${name}`);
  return token;
}

/** The four powers of the flow diagram as drawn now. */
async function flowPowers(page: Page): Promise<string> {
  const nodes = ['grid', 'pv', 'battery', 'load'];
  const values = await Promise.all(nodes.map((n) => page.getByTestId(`flow-${n}-kw`).getAttribute('data-kw')));
  return values.join('|');
}

/** The running tactic version as the page shows it. */
const running = (page: Page) => page.getByTestId('tactic-running').getAttribute('data-version');

test('in English the manager follows a station live, reads its statistics and sends it a new template version', async ({
  page,
  manager,
}) => {
  await useToken(page.context(), manager);
  await page.goto('/site/list');
  const row = page.getByTestId('site-table').getByRole('row').filter({ hasText: SHANGHAI });
  await expect(row).toBeVisible(LOADED);
  await expect(row.getByTestId('site-status')).toHaveText(/^(Stopped|Standby|Charging|Discharging)$/, LIVE);
  await row.getByRole('link', { name: SHANGHAI }).click();

  // the station layout: its name, status and totals in the header, the alarm count on the second menu item
  await expect(page).toHaveURL(/\/ems\/index\?token=/);
  await expect(page.getByTestId('station-name')).toHaveText(SHANGHAI, LOADED);
  await expect(page.getByTestId('total-income')).toContainText('¥');
  await expect(page.getByTestId('ems-menu').getByRole('menuitem').nth(1).locator('.ant-badge-count')).toBeVisible();

  // the energy flow follows the site without a reload
  const reloaded = trackReloads(page);
  const load = page.getByTestId('flow-load-kw');
  await expect(load).toHaveText(/\d kW$/, LIVE);
  const before = await flowPowers(page);
  await expect.poll(() => flowPowers(page), LIVE).not.toBe(before);
  await expect(page.getByTestId('live-state')).toHaveText('Live');
  await expect(page.getByTestId('soc-value')).toHaveText(/^\d+%$/);
  expect(reloaded()).toBe(false);

  // statistics of the month by period and by day
  await page.getByTestId('ems-menu').getByRole('link', { name: 'Statistics' }).click();
  const periods = page.getByTestId('stats-periods');
  await expect(periods.locator('.ant-table-row')).toHaveCount(5, LOADED); // four periods and the total
  for (const period of ['Sharp', 'Peak', 'Flat', 'Valley', 'Total']) await expect(periods).toContainText(period);
  await expect(page.getByTestId('stats-buckets').locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('stats-energy-chart')).toBeVisible();
  await page.getByTestId('stats-granularity').getByText('Year').click();
  await expect(page.getByTestId('stats-buckets').locator('.ant-table-row')).toHaveCount(12);

  // a new version of the station's template: a gap is refused beside the periods, then it is saved
  await page.getByTestId('ems-menu').getByRole('link', { name: 'Strategy' }).click();
  const sentBefore = Number(await page.getByTestId('tactic-sent').getAttribute('data-version'));
  const template = page.getByTestId('template-table').getByRole('row').filter({ hasText: 'Shanghai industrial' });
  await expect(template).toBeVisible(LOADED);
  const versionBefore = Number((await template.getByTestId('template-version').innerText()).replace(/\D/g, ''));
  await template.getByRole('button', { name: /New version of/ }).click();
  const editor = page.getByTestId('template-editor');
  await expect(editor.getByTestId('range-row').first()).toBeVisible();
  await editor.getByRole('button', { name: 'Remove range 1' }).click();
  await editor.getByTestId('template-save').click();
  await expect(editor.getByTestId('refusal-ranges')).toContainText('Time periods');
  // paint the night back as valley on the bar, and price the sharp period higher
  await editor.getByTestId('period-brush').getByText('Valley').click();
  const bar = editor.locator('.ems-period-bar');
  const box = (await bar.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + (box.width * 7.9) / 24, y, { steps: 8 });
  await page.mouse.up();
  await expect(editor.getByTestId('period-gap')).toHaveCount(0);
  await expect(editor.getByTestId('refusal-ranges')).toHaveCount(0);
  await editor.getByRole('spinbutton', { name: 'Buy price, Sharp' }).fill('1.5');
  await editor.getByTestId('template-save').click();
  await expect(editor).toBeHidden();
  await expect(template.getByTestId('template-version')).toHaveText(`v${versionBefore + 1}`);

  // sent with the password: a wrong one stays in the dialog, the right one reaches the module
  const send = page.getByTestId('send-tactic');
  await expect(send.getByTestId('send-template')).toContainText(`v${versionBefore + 1}`);
  await send.getByTestId('send-tactic-button').click();
  const dialog = page.getByTestId('send-tactic-dialog');
  await expect(dialog).toContainText('Non-professionals must not operate');
  await dialog.getByTestId('send-password').fill('not the password');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toBeVisible();
  await dialog.getByTestId('send-password').fill(MANAGER.password);
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(toast(page)).toContainText(`accepted strategy v${sentBefore + 1}`, LIVE);
  await expect(page.getByTestId('tactic-sent')).toHaveAttribute('data-version', String(sentBefore + 1));
  await expect.poll(() => running(page), LIVE).toBe(String(sentBefore + 1));
  await expect(page.getByTestId('tactic-card')).toContainText('In force');
});

test('in Chinese on a phone the station list, the live flow, the statistics and sending a template read in Chinese', async ({
  page,
  manager,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
  await useToken(page.context(), manager);
  const token = await stationToken(page, manager, VALENCIA);

  await page.goto('/site/list');
  await expect(page.getByRole('heading', { name: /我的电站/ })).toBeVisible(LOADED);
  const card = page.getByTestId('site-card').filter({ hasText: VALENCIA });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('site-status')).toHaveText(/^(停机|待机|充电中|放电中)$/, LIVE);
  await expect(card).toContainText('€');
  let overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await card.getByRole('link', { name: VALENCIA }).click();
  await expect(page.getByTestId('station-name')).toHaveText(VALENCIA, LOADED);
  await expect(page.getByText('能量流')).toBeVisible();
  await expect(page.getByTestId('flow-pv-kw')).toHaveText(/\d kW$/, LIVE);
  const before = await flowPowers(page);
  await expect.poll(() => flowPowers(page), LIVE).not.toBe(before);
  overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.goto(`/ems/statistics?token=${token}`);
  const periods = page.getByTestId('stats-periods');
  await expect(periods.locator('.ant-table-row')).toHaveCount(5, LOADED);
  for (const period of ['尖', '峰', '平', '谷', '合计']) await expect(periods).toContainText(period);
  await expect(page.getByTestId('stats-totals')).toContainText('€');

  await page.goto(`/ems/strategy?token=${token}`);
  const sentBefore = Number(await page.getByTestId('tactic-sent').getAttribute('data-version'));
  const template = page.getByTestId('template-table').getByRole('row').filter({ hasText: 'Valencia' });
  await expect(template).toBeVisible(LOADED);
  const versionBefore = Number((await template.getByTestId('template-version').innerText()).replace(/\D/g, ''));
  await template.getByRole('button', { name: /新版本/ }).click();
  const editor = page.getByTestId('template-editor');
  await editor.getByRole('spinbutton', { name: '谷买入电价' }).fill('0.08');
  await editor.getByTestId('template-save').click();
  await expect(editor).toBeHidden();
  await expect(template.getByTestId('template-version')).toHaveText(`v${versionBefore + 1}`);

  const send = page.getByTestId('send-tactic');
  await expect(send.getByTestId('send-template')).toContainText(`v${versionBefore + 1}`);
  await send.getByTestId('send-tactic-button').click();
  const dialog = page.getByTestId('send-tactic-dialog');
  await expect(dialog).toContainText('非专业人员请勿操作');
  await dialog.getByTestId('send-password').fill(MANAGER.password);
  await dialog.getByRole('button', { name: /下\s*发/ }).click();
  await expect(toast(page)).toContainText(`v${sentBefore + 1}`, LIVE);
  await expect.poll(() => running(page), LIVE).toBe(String(sentBefore + 1));
  await expect(page.getByTestId('tactic-card')).toContainText('已生效');
});
