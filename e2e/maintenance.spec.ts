// Maintenance plans: on a set's maintain tab the manager adds an item (a reminder longer than its cycle is
// refused beside the field), sees it due, marks it done and finds the next due date and the history; in
// Chinese on a phone the maintenance page lists the due and overdue tasks as cards that fit the screen; a
// maintenance link opens the plan read-only without signing in, until it is revoked. Only sets made here are
// touched, so the demo fleet stays as other specs expect it.
import type { APIRequestContext } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, useToken } from './helpers.ts';

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

/** A set of the manager's, and its calendar day (the plan counts in the set's own time zone). */
async function newSet(request: APIRequestContext, manager: string, label: string) {
  const protocols = await api<{ key: string }[]>(request, '/genset/protocols', {}, manager);
  const name = `Zulu maint ${label} ${Date.now()}`;
  const added = await api<{ token: string }>(
    request,
    '/genset/add',
    { name, protocolKey: protocols.data[0]!.key },
    manager,
  );
  expect(added.code, added.msg).toBe(200);
  const plan = await api<{ today: string }>(request, '/maintain/plan', { token: added.data.token }, manager);
  return { name, token: added.data.token, today: plan.data.today };
}

// Each test opens lazily loaded pages of the console on a machine shared with other runs.
test.slow();

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

async function remove(request: APIRequestContext, token: string, manager: string) {
  await api(request, '/genset/del', { tokens: [token] }, manager);
}

test('the manager plans an item on the maintain tab, sees it due and marks it done', async ({ page, manager }) => {
  const set = await newSet(page.request, manager, 'plan');
  try {
    await useToken(page.context(), manager);
    await page.goto(`/top/maintain?token=${set.token}`);
    const plan = page.getByTestId('maint-plan');
    await plan.getByRole('button', { name: 'Add item' }).click(LOADED);
    const dialog = page.getByRole('dialog', { name: 'Add a maintenance item' });
    await dialog.getByLabel('Item').fill('Oil filter');
    await dialog.getByLabel('Cycle (days)').fill('30');
    await dialog.getByLabel('Remind ahead (days)').fill('40');
    await dialog.getByLabel('Latest service date').fill(addDays(set.today, -27));

    // a reminder longer than the cycle is refused beside its field; nothing is stored
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toContainText('Remind ahead (days): cannot be longer than the cycle');
    await dialog.getByLabel('Remind ahead (days)').fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();

    const row = plan.getByRole('row', { name: /Oil filter/ });
    await expect(row).toContainText(addDays(set.today, 3));
    await expect(row.getByTestId('maint-state')).toHaveText('Due');

    await row.getByRole('button', { name: 'Mark done' }).click();
    const done = page.getByRole('dialog', { name: 'Mark “Oil filter” done' });
    await expect(done.getByLabel('Actual date')).toHaveValue(set.today);
    await done.getByLabel('Run hours').fill('1234');
    await done.getByLabel('Replaced model').fill('LF-3000');
    await done.getByRole('button', { name: 'Mark done' }).click();
    await expect(page.getByText(`Marked done. Next due: ${addDays(set.today, 30)}`)).toBeVisible();
    await expect(row.getByTestId('maint-state')).toHaveText('OK');
    await expect(row).toContainText(addDays(set.today, 30));
    const history = page.getByTestId('maint-history');
    await expect(history).toContainText('Oil filter');
    await expect(history).toContainText('1,234 h');
    await expect(history).toContainText('replaced: LF-3000');
  } finally {
    await remove(page.request, set.token, manager);
  }
});

test('in Chinese on a phone the maintenance page lists due and overdue tasks as cards', async ({ page, manager }) => {
  const set = await newSet(page.request, manager, 'phone');
  try {
    for (const [name, latest] of [
      ['空气滤清器', -8],
      ['机油更换', -20],
    ] as const) {
      const saved = await api(
        page.request,
        '/maintain/item/save',
        { token: set.token, name, cycleDays: 10, remindDays: 3, latestDate: addDays(set.today, latest) },
        manager,
      );
      expect(saved.code, saved.msg).toBe(200);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
    await useToken(page.context(), manager);

    // the home page counts due and overdue tasks over the sets the manager sees (other tests add theirs)
    await page.goto('/index');
    const overdue = page.getByTestId('maintenance-overdue');
    const due = page.getByTestId('maintenance-due');
    await expect(overdue).toBeVisible(LOADED);
    await expect(async () => {
      const counts = (await api<{ due: number; overdue: number }>(page.request, '/maintain/counts', {}, manager)).data;
      expect(counts.overdue).toBeGreaterThanOrEqual(1);
      const shown = [`逾期：${counts.overdue}`, `到期：${counts.due}`];
      if ((await overdue.textContent()) !== shown[0] || (await due.textContent()) !== shown[1]) {
        await page.reload();
        await expect(overdue).toBeVisible(LOADED);
      }
      await expect(overdue).toHaveText(shown[0]!, { timeout: 1000 });
      await expect(due).toHaveText(shown[1]!, { timeout: 1000 });
    }).toPass({ timeout: 120_000 });

    await page.getByTestId('maintenance-counts').click();
    await expect(page).toHaveURL(/\/genset\/maintenance$/);

    const cards = page.getByTestId('maint-task').filter({ hasText: set.name });
    await expect(cards).toHaveCount(2, LOADED);
    // overdue first, then due; each with its set, next due date and state in words
    await expect(cards.nth(0)).toContainText('机油更换');
    await expect(cards.nth(0).getByTestId('maint-state')).toHaveText('逾期');
    await expect(cards.nth(0)).toContainText(addDays(set.today, -10));
    await expect(cards.nth(1)).toContainText('空气滤清器');
    await expect(cards.nth(1).getByTestId('maint-state')).toHaveText('到期');
    await page.getByText('已逾期', { exact: true }).click();
    await expect(cards).toHaveCount(1);

    // the cards fit the phone: nothing scrolls sideways
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // the card leads to the set's maintain tab, its plan as cards too
    await cards.nth(0).getByRole('link', { name: set.name }).click();
    await expect(page.getByTestId('maint-item').filter({ hasText: '机油更换' })).toContainText('逾期', LOADED);
  } finally {
    await remove(page.request, set.token, manager);
  }
});

test('a maintenance link opens the plan read-only without signing in, until it is revoked', async ({
  page,
  manager,
}) => {
  const set = await newSet(page.request, manager, 'link');
  try {
    await api(page.request, '/maintain/item/save', { token: set.token, name: 'Coolant', cycleDays: 365 }, manager);
    const link = await api<{ id: number; mtoken: string }>(
      page.request,
      '/maintain/mtoken/create',
      { token: set.token, days: 7 },
      manager,
    );
    expect(link.code, link.msg).toBe(200);

    await page.goto(`/top/maintain?mtoken=${encodeURIComponent(link.data.mtoken)}`);
    const view = page.getByTestId('maint-public');
    await expect(view).toContainText(set.name, LOADED);
    await expect(view).toContainText('Read-only view of the maintenance plan');
    await expect(view.getByTestId('maint-item')).toContainText('Coolant');
    await expect(view.getByTestId('maint-item').getByTestId('maint-state')).toHaveText('OK');
    await expect(page.getByRole('button', { name: 'Mark done' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add item' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/top\/maintain\?mtoken=/);

    const revoked = await api(page.request, '/maintain/mtoken/revoke', { token: set.token, id: link.data.id }, manager);
    expect(revoked.code, revoked.msg).toBe(200);
    await page.reload();
    await expect(page.getByTestId('maint-link-refused')).toContainText(
      'This maintenance link has been revoked.',
      LOADED,
    );
  } finally {
    await remove(page.request, set.token, manager);
  }
});
