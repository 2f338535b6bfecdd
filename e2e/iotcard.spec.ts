// SIM cards: on a demo set's page the manager finds its module's card (ICCID, IMSI), the demo plan with the
// share used, and the day and month charts; a plan of 0 MB is refused beside its field, a good one is saved
// and shown. In Chinese on a phone the section reads in Chinese and fits the screen. The demo plan is put
// back afterwards, so the demo fleet stays as other specs expect it.
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, demoSetToken, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

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

// Each test opens lazily loaded pages of the console on a machine shared with other runs.
test.slow();

test('the manager sees a set’s SIM card and sets its plan', async ({ page, manager }) => {
  const token = demoSetToken('Quarry prime power');
  try {
    await useToken(page.context(), manager);
    await page.goto(`/crewmanage/detail/${token}`);
    const card = page.getByTestId('sim-card');
    await expect(card).toContainText('89860000000000000001', LOADED);
    await expect(card).toContainText('460000000000001');
    await expect(card.getByTestId('sim-plan')).toContainText('500 MB');
    await expect(card.getByTestId('sim-progress')).toBeVisible();
    await expect(card.getByTestId('sim-daily-chart')).toBeVisible();
    await expect(card.getByTestId('sim-monthly-chart')).toBeVisible();

    await card.getByRole('button', { name: 'Set plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'SIM card data plan' });
    await dialog.getByLabel('Plan size (MB)').fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toContainText('Plan size (MB): is not valid');
    await dialog.getByLabel('Plan size (MB)').fill('2048');
    await dialog.getByLabel('Notify at (% of the plan)').fill('90');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('sim-plan')).toContainText('2,048 MB');
    await expect(card).toContainText('notify at 90 %');
  } finally {
    await api(page.request, '/iotcard/setPlan', { token, sizeMb: 500, startDay: 1, alarmShare: 80 }, manager);
  }
});

test('in Chinese on a phone the SIM card section reads in Chinese and fits the screen', async ({ page, manager }) => {
  const token = demoSetToken('Telecom tower T-7');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
  await useToken(page.context(), manager);
  await page.goto(`/crewmanage/detail/${token}`);
  const card = page.getByTestId('sim-card');
  await expect(card.getByRole('heading', { name: '物联网卡' })).toBeVisible(LOADED);
  await expect(card).toContainText('89860000000000000003');
  await expect(card.getByTestId('sim-used')).toContainText('已用');
  await expect(card.getByTestId('sim-left')).toContainText('剩余');
  await expect(card.getByTestId('sim-plan')).toContainText('500 MB');
  await expect(card.getByRole('heading', { name: '每日用量' })).toBeVisible();
  await card.getByTestId('sim-daily-chart').scrollIntoViewIfNeeded();
  await expect(card.getByTestId('sim-monthly-chart')).toBeVisible();

  // nothing scrolls sideways
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // the plan's dialog in Chinese
  await card.getByRole('button', { name: '设置套餐' }).click();
  const dialog = page.getByRole('dialog', { name: '物联网卡流量套餐' });
  await expect(dialog.getByLabel('套餐流量（MB）')).toHaveValue('500');
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await expect(dialog).toBeHidden();
});
