// The realtime page of a set the server has offline (the demo's "Farm irrigation pump", whose module went quiet
// two days ago): it reads offline, not live; its alarm state is unknown; no command or restart can be sent; the
// notice gives the real time of its last data, in the set's zone, and how long ago. Also the current alarms
// coming back after a visit to another tab.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { demoSetToken, openSignedIn } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
const DAY = 24 * 60 * 60_000;

async function openRealtime(page: Page, set: string) {
  await openSignedIn(page, MANAGER, `/top/realtime?token=${demoSetToken(set)}`);
  await expect(page.getByTestId('set-name')).toHaveText(set);
}

test('an offline set reads offline: no live tag, alarm state unknown, commands disabled, its last data days old', async ({
  page,
}) => {
  await openRealtime(page, 'Farm irrigation pump');
  await expect(page.getByTestId('set-status-tag')).toHaveText('Offline');
  const connection = page.getByTestId('live-connection');
  await expect(connection).toHaveText('Set offline');
  await expect(connection).not.toHaveText('Live');

  const alarms = page.getByTestId('current-alarms');
  await expect(alarms.getByTestId('alarms-unknown')).toContainText('Alarm state unknown');
  await expect(alarms).not.toContainText('No active alarms');

  // the manager may control the set, but nothing reaches it while it is offline
  await expect(page.getByTestId('command-start')).toBeDisabled();
  await expect(page.getByTestId('command-panel').getByRole('button')).not.toHaveCount(0);
  for (const button of await page.getByTestId('command-panel').getByRole('button').all()) {
    await expect(button).toBeDisabled();
  }
  await expect(page.getByTestId('command-offline')).toHaveText('The set is offline: a command cannot reach it.');
  await expect(page.getByTestId('command-no-rights')).toHaveCount(0);
  await expect(page.getByTestId('restart-module')).toBeDisabled();

  // the notice: the time of the last sample the server holds (stored as the demo starts), in the set's zone
  const notice = page.getByTestId('set-offline');
  await expect(notice).toHaveAttribute('data-ts', /^\d+$/, { timeout: 30_000 });
  const ts = Number(await notice.getAttribute('data-ts'));
  const age = Date.now() - ts;
  expect(age).toBeGreaterThan(2 * DAY - 60_000);
  expect(age).toBeLessThan(3 * DAY);
  const zone = { timeZone: 'Europe/London' };
  const date = new Intl.DateTimeFormat('en-US', { ...zone, month: 'short', day: 'numeric' }).format(ts);
  const zoneName = new Intl.DateTimeFormat('en-US', { ...zone, timeZoneName: 'short' })
    .formatToParts(ts)
    .find((part) => part.type === 'timeZoneName')!.value;
  await expect(notice).toContainText('Nothing has been received from this set since');
  await expect(notice).toContainText(date);
  await expect(notice).toContainText(zoneName);
  await expect(notice).toContainText('(2 days ago)');
});

test('the current alarms show again after a visit to the location tab', async ({ page }) => {
  await openRealtime(page, 'Rental trailer R-12');
  const current = page.getByTestId('current-alarms');
  const content = current.locator('[data-testid="no-alarms"], [data-testid="current-alarm"]').first();
  await expect(content).toBeVisible();
  await expect(page.getByTestId('live-connection')).toHaveText('Live');

  const tabs = page.getByTestId('top-tabs');
  await tabs.getByRole('link', { name: 'Location' }).click();
  await expect(page).toHaveURL(/\/top\/guiji\?token=/);
  await tabs.getByRole('link', { name: 'Real time' }).click();
  await expect(page).toHaveURL(/\/top\/realtime\?token=/);
  await expect(content).toBeVisible();
  await expect(current.locator('.ant-skeleton')).toHaveCount(0);

  // and once more, after the socket had time to stay with the page
  await tabs.getByRole('link', { name: 'Location' }).click();
  await expect(page).toHaveURL(/\/top\/guiji\?token=/);
  await tabs.getByRole('link', { name: 'Real time' }).click();
  await expect(content).toBeVisible();
  await expect(current.locator('.ant-skeleton')).toHaveCount(0);
});
