// A parallel group of the demo fleet (the harbour plant: two sets on one bus): the group page shows the bus and
// both sets; the group starts through the set's own confirmation and password, handed to the server in one call;
// the tab is closed while it runs, and a new one (in Chinese) shows the server carried it out on each set; both
// sets come onto the bus sharing its load; then the group stops the same way, each set's outcome in the dialog;
// the page fits a phone.
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { firstNumber, openSignedIn } from './helpers.ts';
import { simulator } from './sim-control.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
const PLANT = 'Harbour power plant';
const SETS = ['Harbour plant G1', 'Harbour plant G2'];

test('the group page shows the bus and both sets; the server starts the group while the tab is closed, then it stops in Chinese', async ({
  page,
}) => {
  // the start sequence of a set (preheat, crank, safety-on, idle, warm-up) and the synchronising take about a
  // minute of the simulators' real time
  test.setTimeout(300_000);
  // a remote stop leaves a controller in STOP; the group starts from MANUAL, as its sets are in the demo
  for (const key of ['DEMO-0007', 'DEMO-0008']) await simulator(key).setMode('manual');

  await openSignedIn(page, MANAGER, '/genset/groups');
  const card = page.getByTestId('group-card').filter({ hasText: PLANT });
  // the first visit loads the console's code: allow for a busy machine
  await expect(card).toContainText('Parallel (one bus)', { timeout: 60_000 });
  for (const name of SETS) await expect(card).toContainText(name);
  await card.getByTestId('group-link').click();

  await expect(page).toHaveURL(/\/genset\/groups\/[\w-]+$/);
  const groupUrl = page.url();
  await expect(page.getByTestId('group-name')).toHaveText(PLANT, { timeout: 30_000 });
  await expect(page.getByTestId('live-connection')).toHaveText('Live');
  const bus = page.getByTestId('group-bus');
  await expect(bus).toContainText('Bus');
  for (const label of ['Bus voltage', 'Bus frequency', 'Total active power', 'Total apparent power', 'Sets on load'])
    await expect(bus).toContainText(label);
  let members = page.getByTestId('group-member');
  await expect(members).toHaveCount(2);
  await expect(members.getByTestId('member-name')).toHaveText(SETS);
  for (const member of await members.all()) await expect(member.getByTestId('breaker')).toBeVisible();

  // Start the group: the set's confirmation, with the warning and the password, naming every set; the server
  // takes it in one call and the dialog follows it set by set.
  await page.getByTestId('group-start').click();
  let dialog = page.getByTestId('command-dialog');
  await expect(dialog).toContainText(`to the 2 sets of ${PLANT}`);
  await expect(dialog).toContainText('non-professionals must not operate');
  await expect(dialog).toContainText('carries on even if you close this page');
  for (const name of SETS) await expect(dialog).toContainText(name);
  await dialog.getByTestId('command-password').fill(MANAGER.password);
  await dialog.getByTestId('command-confirm').click();
  let progress = dialog.getByTestId('group-command-set');
  await expect(progress).toHaveCount(2, { timeout: 30_000 });
  await expect(progress).toContainText(SETS);

  // The tab is closed while the server runs the command; a new one, in Chinese, shows it carried out on each set.
  const context = page.context();
  await page.close();
  page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
  await page.goto(groupUrl);
  members = page.getByTestId('group-member');
  dialog = page.getByTestId('command-dialog');
  progress = dialog.getByTestId('group-command-set');
  const commandCard = page.getByTestId('group-command-card');
  // the page's code and texts load again: allow for a busy machine
  await expect(commandCard).toBeVisible({ timeout: 30_000 });
  await expect(commandCard.getByTestId('group-command-summary')).toHaveAttribute('data-state', 'done', {
    timeout: 30_000,
  });
  const done = commandCard.getByTestId('group-command-set');
  await expect(done).toHaveCount(2);
  for (const [i, name] of SETS.entries()) {
    await expect(done.nth(i)).toContainText(name);
    await expect(done.nth(i)).toHaveAttribute('data-state', 'ok');
    await expect(done.nth(i)).toContainText('操作成功');
  }

  // Both sets come onto the bus (one onto the dead bus, the other after synchronising) and share its load.
  for (const member of await members.all())
    await expect(member.getByTestId('breaker')).toHaveAttribute('data-state', 'closed', { timeout: 180_000 });
  await expect(page.getByTestId('bus-state')).toHaveText('有电');
  await expect(page.getByTestId('bus-on-load')).toContainText('2 / 2');
  // the plant's 520 kW, half on each set
  await expect
    .poll(
      async () => {
        const shares = await members
          .getByTestId('member-share')
          .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-share'))));
        const kw = await firstNumber(page.getByTestId('bus-kw'));
        return shares.every((share) => share > 40 && share < 60) && kw > 400 ? 'shared' : `${shares.join(', ')}; ${kw}`;
      },
      { timeout: 60_000 },
    )
    .toBe('shared');

  // Stop the group, in Chinese.
  await expect(page.getByTestId('group-bus')).toContainText('母排电压');
  await expect(members.first().getByTestId('breaker')).toHaveText('合闸');
  await page.getByTestId('group-stop').click();
  await expect(dialog).toContainText(`${PLANT} 的 2 台机组`);
  await dialog.getByTestId('command-password').fill(MANAGER.password);
  await dialog.getByTestId('command-confirm').click();
  await expect(dialog.getByTestId('group-command-summary')).toHaveAttribute('data-state', 'done', {
    timeout: 30_000,
  });
  for (const result of await progress.all()) {
    await expect(result).toHaveAttribute('data-state', 'ok');
    await expect(result).toContainText('操作成功');
  }
  await dialog.getByTestId('command-confirm').click();
  for (const member of await members.all())
    await expect(member.getByTestId('breaker')).toHaveAttribute('data-state', 'open', { timeout: 60_000 });
  await expect(members.first().getByTestId('breaker')).toHaveText('分闸');
  await expect(page.getByTestId('bus-state')).toHaveText('无电');

  // On a technician's phone the page fits the width, the group's buttons within reach.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('group-stop')).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('group-390.png'), fullPage: true });
});
