// The tag strip's context menu: refresh, close, close others, close left, close right, close all; Home is
// pinned; closing the active tab goes to the last remaining one.
/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { openSignedIn, VIEWER } from './helpers.ts';

const HOME = '/index';
const LIST = '/help/list';
const INFO = '/help/info';
const PERSONAL = '/user/personal';

function tag(page: Page, path: string) {
  return page.locator(`[data-testid="tag"][data-path="${path}"]`);
}

async function tabPaths(page: Page): Promise<string[]> {
  return page.getByTestId('tag').evaluateAll((els) => els.map((el) => el.getAttribute('data-path') ?? ''));
}

async function expectTabs(page: Page, paths: string[]) {
  await expect.poll(() => tabPaths(page)).toEqual(paths);
}

/** Home, the manual list, a manual page and the personal centre, opened by clicking through the console. */
async function openFourTabs(page: Page) {
  await openSignedIn(page, VIEWER, HOME);
  await expect(page.getByTestId('welcome')).toBeVisible();
  await page.getByTestId('sidebar-menu').getByRole('link', { name: 'User manual' }).click();
  await expect(page.getByTestId('help-list')).toBeVisible();
  await page.getByTestId('help-list').getByRole('link').first().click();
  await expect(page.getByTestId('help-info')).toBeVisible();
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Personal centre' }).click();
  await expect(page).toHaveURL(/\/user\/personal$/);
  await expectTabs(page, [HOME, LIST, INFO, PERSONAL]);
  await expect(tag(page, PERSONAL)).toHaveAttribute('data-active', 'true');
}

async function contextAction(page: Page, path: string, action: string) {
  await tag(page, path).click({ button: 'right' });
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last();
  await expect(menu).toBeVisible();
  // measured once the opening animation has settled
  await expect.poll(async () => (await menu.boundingBox())?.width).toBe(105);
  await menu.getByRole('menuitem', { name: action, exact: true }).click();
}

test('refresh remounts the page and fetches its data again', async ({ page }) => {
  await openFourTabs(page);
  await tag(page, LIST).getByRole('link').click();
  await expect(page.getByTestId('help-list')).toBeVisible();
  await page.getByTestId('help-list').evaluate((el) => el.setAttribute('data-marker', 'before-refresh'));
  const refetch = page.waitForRequest((r) => r.url().includes('/yewu/help/list'));
  await contextAction(page, LIST, 'Refresh');
  await refetch;
  await expect(page).toHaveURL(/\/help\/list$/);
  await expect(page.getByTestId('help-list')).toBeVisible();
  await expect(page.getByTestId('help-list')).not.toHaveAttribute('data-marker', 'before-refresh');
  await expectTabs(page, [HOME, LIST, INFO, PERSONAL]);
});

test('close removes one tab; closing the active tab goes to the last remaining tab', async ({ page }) => {
  await openFourTabs(page);
  await contextAction(page, LIST, 'Close');
  await expectTabs(page, [HOME, INFO, PERSONAL]);
  await expect(page).toHaveURL(/\/user\/personal$/);

  await contextAction(page, PERSONAL, 'Close');
  await expectTabs(page, [HOME, INFO]);
  await expect(page).toHaveURL(/\/help\/info\?slug=/);

  // the close button does the same; Home has none and its Close entry is disabled
  await tag(page, INFO)
    .getByRole('button', { name: /^Close / })
    .click();
  await expectTabs(page, [HOME]);
  await expect(page).toHaveURL(/\/index$/);
  await expect(tag(page, HOME).getByRole('button')).toHaveCount(0);
  await tag(page, HOME).click({ button: 'right' });
  await expect(page.getByRole('menuitem', { name: 'Close', exact: true })).toHaveAttribute('aria-disabled', 'true');
});

test('close others keeps Home and the chosen tab and shows it', async ({ page }) => {
  await openFourTabs(page);
  await contextAction(page, LIST, 'Close others');
  await expectTabs(page, [HOME, LIST]);
  await expect(page).toHaveURL(/\/help\/list$/);
  await expect(page.getByTestId('help-list')).toBeVisible();
});

test('close left closes the tabs left of the chosen one but never Home', async ({ page }) => {
  await openFourTabs(page);
  await contextAction(page, INFO, 'Close left');
  await expectTabs(page, [HOME, INFO, PERSONAL]);
  await expect(page).toHaveURL(/\/user\/personal$/);
});

test('close right closes the tabs right of the chosen one and shows it when the active tab went', async ({ page }) => {
  await openFourTabs(page);
  await contextAction(page, LIST, 'Close right');
  await expectTabs(page, [HOME, LIST]);
  await expect(page).toHaveURL(/\/help\/list$/);
});

test('close all leaves only the pinned Home tab and goes there', async ({ page }) => {
  await openFourTabs(page);
  await contextAction(page, INFO, 'Close all');
  await expectTabs(page, [HOME]);
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByTestId('welcome')).toBeVisible();
});

test('a reload keeps the tag strip and its active tab; signing out clears it', async ({ page }) => {
  await openFourTabs(page);
  await page.reload();
  await expectTabs(page, [HOME, LIST, INFO, PERSONAL]);
  await expect(tag(page, PERSONAL)).toHaveAttribute('data-active', 'true');
  await expect(tag(page, LIST)).toHaveText(/User manual/);
  // another language names the kept tabs in its words
  await page.evaluate(() => localStorage.setItem('lang', 'ru-RU'));
  await page.reload();
  await expectTabs(page, [HOME, LIST, INFO, PERSONAL]);
  await expect(tag(page, LIST)).toHaveText(/Руководство пользователя/);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/login/);
  await openSignedIn(page, VIEWER, HOME);
  await expectTabs(page, [HOME]);
});
