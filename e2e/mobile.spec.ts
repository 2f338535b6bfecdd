// At 390 px the menu is a drawer: closed at first, opened by the toggle, closed by navigating and by a
// touch outside.
import { test, expect } from './fixtures.ts';
import { openSignedIn, VIEWER } from './helpers.ts';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('the mobile menu starts closed and opens and closes by touch', async ({ page }) => {
  await openSignedIn(page, VIEWER, '/index');
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  const drawer = page.locator('.mobile-menu .ant-drawer-section');
  await expect(drawer).toBeHidden();

  await page.getByTestId('menu-toggle').tap();
  await expect(drawer).toBeVisible();
  await drawer.getByRole('link', { name: 'User manual' }).tap();
  await expect(page).toHaveURL(/\/help\/list$/);
  await expect(drawer).toBeHidden();

  await page.getByTestId('menu-toggle').tap();
  await expect(drawer).toBeVisible();
  await page.touchscreen.tap(360, 500);
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/help\/list$/);
});

test('on a phone the administration tables fit the screen: role actions in reach, log entries in one column', async ({
  page,
}) => {
  await openSignedIn(page, { username: 'manager@example.com', password: 'Demo#2026' }, '/system/role');
  const operator = page.getByRole('row').filter({ hasText: 'Operator' });
  const edit = operator.getByRole('button', { name: 'Edit' });
  await expect(edit).toBeVisible();
  // the edit button lies inside the 390 px screen, not past a sideways scroll
  const box = (await edit.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);

  await page.goto('/system/log');
  const table = page.getByTestId('oplog-table');
  // under one heading, each entry gives the matter, then who and when
  await expect(table.getByRole('columnheader')).toHaveText(['Matter']);
  await expect(table.getByRole('row').nth(1)).toContainText(/ · \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2}:\d{2} [AP]M/);
});
