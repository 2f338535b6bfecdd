// The live pages of one set (/top/realtime, realdata, baojing, maintain) with the demo fleet: values that
// follow the simulated controller, a start from the dashboard, an injected fault, the user's items, and the
// "offline" state while the realtime connection is re-established.
/// <reference lib="dom" />
import type { Locator, Page, WebSocketRoute } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { chooseOption, demoSetToken, firstNumber, openSignedIn, PERSONAL, toast, VIEWER } from './helpers.ts';
import { simulator } from './sim-control.ts';

/** The number a dial shows ("1,499.5" → 1499.5). */
const reading = (dial: Locator) => firstNumber(dial.getByTestId('gauge-value'));

async function expectReadingBetween(dial: Locator, low: number, high: number) {
  await expect
    .poll(
      async () => {
        const value = await reading(dial);
        return value >= low && value <= high ? 'in range' : value;
      },
      { message: `a reading between ${low} and ${high}`, timeout: 30_000 },
    )
    .toBe('in range');
}

async function openTab(page: Page, account: { username: string; password: string }, set: string, tab: string) {
  await openSignedIn(page, account, `/top/${tab}?token=${demoSetToken(set)}`);
  await expect(page.getByTestId('set-name')).toHaveText(set);
}

test('the realtime tab shows the dials of a running set and follows a change of load', async ({ page }) => {
  test.setTimeout(120_000);
  const quarry = simulator('DEMO-0002');
  await openTab(page, VIEWER, 'Quarry prime power', 'realtime');
  await expect(page.getByTestId('live-connection')).toHaveText('Live');
  for (const dial of ['rpm', 'voltage', 'frequency', 'power', 'oil', 'coolant', 'fuel', 'battery']) {
    await expect(page.getByTestId(`gauge-${dial}`).getByTestId('gauge-value')).toHaveText(/\d/);
  }
  await expect(page.getByTestId('state-mode')).toContainText('Auto');
  // just after the server started the set may still be on its way to taking the load
  await expect(page.getByTestId('gen-on-load')).toHaveAttribute('data-state', 'closed', { timeout: 60_000 });
  await expect(page.getByTestId('gen-on-load')).toHaveText('On load');

  const power = page.getByTestId('gauge-power');
  try {
    await quarry.setLoad(80);
    await expectReadingBetween(power, 70, 90);
    await quarry.setLoad(250);
    await expectReadingBetween(power, 230, 270);
    await expect(page.getByTestId('power-path')).toContainText('kW');
  } finally {
    await quarry.setLoad(192);
  }

  // this account may only view: every control button is disabled and the card says why
  await expect(page.getByTestId('command-start')).toBeDisabled();
  await expect(page.getByTestId('command-no-rights')).toBeVisible();
});

test('a set in standby is started from the dashboard through the confirmation, the warning and the password', async ({
  page,
}) => {
  const backup = simulator('DEMO-0005');
  await openTab(page, PERSONAL, 'Data centre backup', 'realtime');
  await expect(page.getByTestId('set-status-tag')).toHaveText('Standby');
  try {
    // the start command needs manual mode: an ordinary command, confirmed without a password
    await page.getByTestId('command-manual').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Send the command “Manual mode” to Data centre backup?');
    await expect(dialog.getByTestId('command-password')).toHaveCount(0);
    await dialog.getByTestId('command-confirm').click();
    await expect(toast(page)).toContainText('“Manual mode”: operation successful');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('state-mode')).toContainText('Manual');

    // a risky one carries the warning and asks for the account password
    await page.getByTestId('command-start').click();
    await expect(dialog).toContainText('Warning: non-professionals must not operate');
    await dialog.getByTestId('command-confirm').click();
    await expect(dialog).toContainText('Please enter your password');
    await dialog.getByTestId('command-password').fill('Wrong#2026');
    await dialog.getByTestId('command-confirm').click();
    // the field's message changes from "please enter" to the server's verdict (the old one fades out)
    await expect(dialog.getByText('The password is wrong.')).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('command-password').fill(PERSONAL.password);
    await dialog.getByTestId('command-confirm').click();
    await expect(toast(page)).toContainText('“Start”: operation successful');
    await expect(dialog).toBeHidden();

    await expect(page.getByTestId('set-status-tag')).toHaveText('Running', { timeout: 20_000 });
    await expect(page.getByTestId('state-engine')).not.toContainText('Standby');
    await expectReadingBetween(page.getByTestId('gauge-rpm'), 300, 2000);
  } finally {
    await backup.setMode('stop');
    await backup.setMode('auto');
  }
});

test('an injected fault raises the alarm badge and shows on the alarm tab, live and in the history', async ({
  page,
}) => {
  const trailer = simulator('DEMO-0003');
  await openTab(page, PERSONAL, 'Rental trailer R-12', 'realtime');
  const current = page.getByTestId('current-alarms');
  // the trailer's road leaves its fence once a lap (an alarm of its own): only the injected fault's is looked for
  const fault = current.getByTestId('current-alarm').filter({ hasText: 'Charge alternator failure' });
  await expect(current).toBeVisible();
  await expect(fault).toHaveCount(0);
  try {
    // the trailer drives between its sites with its engine stopped, and a charge failure shows only while the
    // engine runs: a technician on site switches it to TEST, which parks it and runs it
    await trailer.setMode('test');
    await expect
      .poll(async () => (await trailer.state()).genBreakerClosed, { timeout: 90_000, intervals: [2000] })
      .toBe(true);
    await trailer.injectFault('charge_fail');
    await expect(fault).toBeVisible({ timeout: 30_000 });
    await expect(fault).toContainText('Warning');
    await expect(page.getByTestId('alarm-badge').locator('sup')).toHaveText(/^[1-9]/);
    await expect(page.getByTestId('set-alarm-count')).toHaveText(/Alarms: [1-9]/);

    await page
      .getByTestId('top-tabs')
      .getByRole('link', { name: /Alarms/ })
      .click();
    await expect(page).toHaveURL(/\/top\/baojing\?token=/);
    await expect(page.getByTestId('current-alarms')).toContainText('Charge alternator failure');
    const history = page.getByTestId('alarm-history');
    const row = history.locator('tr', { hasText: 'Charge alternator failure' }).first();
    await expect(row).toContainText('Active');
    await expect(row).toContainText('Warning');
    await expect(page.getByTestId('alarm-totals')).not.toContainText(/Warning\s*0/);

    // the level filter: shutdown alarms only leave it out, warnings bring it back
    await chooseOption(page, history.getByTestId('level-filter'), 'Shutdown');
    await expect(history.locator('tr', { hasText: 'Charge alternator failure' })).toHaveCount(0);
    await chooseOption(page, history.getByTestId('level-filter'), 'Warning');
    await expect(history.locator('tr', { hasText: 'Charge alternator failure' }).first()).toBeVisible();

    // the fault goes: it leaves the current alarms and ends in the history
    await trailer.clearFault('charge_fail');
    await expect(page.getByTestId('current-alarms')).not.toContainText('Charge alternator failure', {
      timeout: 30_000,
    });
    await expect(history.locator('tr', { hasText: 'Charge alternator failure' }).first()).not.toContainText('Active');
  } finally {
    await trailer.clearFault('charge_fail');
    await trailer.setMode('auto');
  }
});

test('the realdata tab shows every item grouped and the items the user chose, in their order', async ({ page }) => {
  await openTab(page, PERSONAL, 'City Hospital standby', 'realdata');
  await expect(page.getByTestId('group-engine')).toContainText('Engine speed');
  await expect(page.getByTestId('group-status')).toContainText('Controller mode');
  const tiles = page.getByTestId('selected-item');
  await expect(tiles.first()).toBeVisible();
  const defaults = await tiles.evaluateAll((els) => els.map((el) => el.getAttribute('data-key')));
  expect(defaults.length).toBeGreaterThan(3);

  try {
    await page.getByTestId('choose-items').click();
    const dialog = page.getByRole('dialog');
    const first = dialog.getByTestId('selection-item').first();
    await first.getByRole('button', { name: /^Remove / }).click();
    await dialog
      .getByTestId('selection-item')
      .nth(1)
      .getByRole('button', { name: /^Move .* up$/ })
      .click();
    await dialog.getByTestId('selection-add').click();
    await page.keyboard.type('Reactive power');
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('selection-item').last()).toContainText('Reactive power');
    await dialog.getByTestId('selection-save').click();
    await expect(dialog).toBeHidden();

    const chosen = [defaults[2], defaults[1], ...defaults.slice(3), 'gen_kvar'];
    await expect.poll(() => tiles.evaluateAll((els) => els.map((el) => el.getAttribute('data-key')))).toEqual(chosen);
    await page.reload();
    await expect.poll(() => tiles.evaluateAll((els) => els.map((el) => el.getAttribute('data-key')))).toEqual(chosen);
    await expect(page.getByText('your choice and order')).toBeVisible();
  } finally {
    await page.getByTestId('choose-items').click();
    await page.getByRole('dialog').getByTestId('selection-default').click();
  }
  await expect(page.getByText("the protocol's default")).toBeVisible();
  await expect.poll(() => tiles.evaluateAll((els) => els.map((el) => el.getAttribute('data-key')))).toEqual(defaults);
});

test('while the realtime connection is lost the status reads offline; it retries at once, then after 20 s', async ({
  page,
}) => {
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    sockets.push(ws);
    // the first connection and the one after the wait reach the server; the immediate retry fails
    if (sockets.length === 2) void ws.close();
    else ws.connectToServer();
  });
  await openTab(page, PERSONAL, 'City Hospital standby', 'realtime');
  await expect(page.getByTestId('live-connection')).toHaveText('Live');
  await expect(page.getByTestId('set-status-tag')).not.toHaveText('Offline');

  await sockets[0]!.close();
  await expect(page.getByTestId('live-connection')).toHaveText('Offline, reconnecting');
  await expect(page.getByTestId('set-status-tag')).toHaveText('Offline');
  await expect.poll(() => sockets.length).toBeGreaterThanOrEqual(2);

  // the retry after the wait reaches the server again
  await expect.poll(() => sockets.length, { timeout: 30_000 }).toBe(3);
  await expect(page.getByTestId('live-connection')).toHaveText('Live');
  await expect(page.getByTestId('set-status-tag')).not.toHaveText('Offline', { timeout: 15_000 });
});

test('the maintenance tab shows the countdown and is hidden for a maintenance token', async ({ page }) => {
  await openTab(page, PERSONAL, 'Rental trailer R-12', 'maintain');
  await expect(page.getByTestId('maintain-hours')).toContainText(/\d+\s*h/);
  await expect(page.getByTestId('maintain-state')).toHaveText(/In time|Due soon|Due now|Overdue/);
  await page.goto(`/top/realtime?token=${demoSetToken('Rental trailer R-12')}&mtoken=m1`);
  await expect(page.getByTestId('top-tabs').getByRole('link', { name: 'Maintenance' })).toHaveCount(0);
});

test('the dashboard fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openTab(page, PERSONAL, 'Rental trailer R-12', 'realtime');
  await expect(page.getByTestId('gauge-power').getByTestId('gauge-value')).toHaveText(/\d/);
  await expect(page.getByTestId('command-panel')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('realtime-390.png'), fullPage: true });
});
