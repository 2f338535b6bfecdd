// Set pages with the demo fleet: subscribing with a code puts the set in My gensets with its status and
// rights; the filtered list downloads as XLSX (parsed here) and CSV; the add form checks its fields and
// shows the new set's codes; edit and delete with confirmation; batch actions refuse more than 20 sets.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { GensetInfo, GensetListResponse } from '@genset/protocol';
import { test, expect as baseExpect } from './fixtures.ts';
import {
  api,
  apiLogin,
  chooseOption,
  demoSetToken,
  firstNumber,
  openSignedIn,
  registerAccount,
  toast,
  trackReloads,
  useToken,
} from './helpers.ts';
import { simulator } from './sim-control.ts';

// These pages load charts and maps; on a busy machine their first paint takes a while.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

async function infoOf(request: Parameters<typeof api>[0], token: string, name: string) {
  const result = await api<GensetInfo>(request, '/genset/info', { token: demoSetToken(name) }, token);
  expect(result.code, result.msg).toBe(200);
  return result.data;
}

test('a new user subscribes with a code and sees the set in My gensets with its status and rights', async ({
  page,
}) => {
  const manager = await apiLogin(page.request, MANAGER);
  const standby = await infoOf(page.request, manager.utoken, 'Data centre backup');
  const running = await infoOf(page.request, manager.utoken, 'Quarry prime power');
  expect(standby.subscriptionCode).toBeTruthy();
  expect(running.controlCode).toBeTruthy();

  const user = await registerAccount(page.request, 'Subscriber');
  await useToken(page.context(), user.token);
  // While the list's first answer is awaited the table says nothing of having no gensets: it shows it is loading.
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/yewu/genset/mylist', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/genset/mylist');
  await expect(page.getByRole('heading', { name: 'My gensets' })).toBeVisible();
  await expect(page.locator('.genset-table .ant-spin-spinning')).toBeVisible();
  await expect(page.getByText('You have no gensets yet.', { exact: false })).toHaveCount(0);
  answer();
  await expect(page.getByText('You have no gensets yet. Subscribe to one with its code.')).toBeVisible();
  await page.unroute('**/yewu/genset/mylist');

  // A wrong code says so in the dialog and adds nothing.
  await page.getByRole('button', { name: 'Subscribe' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Subscribe to a genset' });
  await dialog.getByLabel('Subscription or control code').fill('NOSUCHCODE1');
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  await expect(dialog.locator('.ant-form-item-explain-error')).toBeVisible();
  await expect(dialog).toBeVisible();

  // The subscription code: view rights.
  await dialog.getByLabel('Subscription or control code').fill(standby.subscriptionCode!.toLowerCase());
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  await expect(toast(page)).toContainText('Data centre backup added to your gensets (View)');
  const row = page.getByRole('row', { name: /Data centre backup/ });
  await expect(row).toBeVisible();
  // The demo set stands by once its module has reported; the list refreshes on demand.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row.locator('[data-status]')).toHaveText('Standby', { timeout: 2000 });
  }).toPass();
  await expect(row.getByText('View', { exact: true })).toBeVisible();

  // The control code: control rights; the status tag agrees with what the server says of that set.
  await page.getByRole('button', { name: 'Subscribe' }).first().click();
  await dialog.getByLabel('Subscription or control code').fill(running.controlCode!);
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  const quarry = page.getByRole('row', { name: /Quarry prime power/ });
  await expect(quarry.getByText('Control', { exact: true })).toBeVisible();
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    const list = await api<GensetListResponse>(page.request, '/genset/mylist', { search: 'Quarry' }, user.token);
    const words = ['Offline', 'Stopped', 'Standby', 'Running'];
    await expect(quarry.locator('[data-status]')).toHaveText(words[list.data.list[0]!.status]!, { timeout: 2000 });
  }).toPass();
  await expect(page.getByText('Total: 2').first()).toBeVisible();

  // The status filter narrows the list and keeps itself in the address.
  await page.getByTestId('status-filter-standby').click();
  await expect(page).toHaveURL(/status=standby/);
  await expect(page.getByRole('row', { name: /Data centre backup/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Quarry prime power/ })).toHaveCount(0);

  // Unsubscribing asks first.
  await page.getByTestId('status-filter-all').click();
  await page.getByRole('button', { name: 'More actions for Data centre backup' }).click();
  await page.getByRole('menuitem', { name: 'Unsubscribe' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('row', { name: /Data centre backup/ })).toHaveCount(0);
});

test('the filtered list downloads as XLSX and CSV with headers and one row per set', async ({ page }) => {
  const token = await openSignedIn(page, MANAGER, '/genset/mylist?q=DPC-00');
  await expect(page.getByRole('row', { name: /City Hospital standby/ })).toBeVisible();
  const total = await api<GensetListResponse>(page.request, '/genset/mylist', { search: 'DPC-00' }, token);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-button').click()]);
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await download.path())!);
  const sheet = workbook.worksheets[0]!;
  const headers = (sheet.getRow(1).values as unknown[]).filter(Boolean).map(String);
  expect(headers).toEqual(expect.arrayContaining(['Name', 'Number', 'Status', 'Rated power (kW)', 'Cloud module ID']));
  expect(sheet.actualRowCount - 1).toBe(total.data.total);
  const names: string[] = [];
  sheet.eachRow((row, index) => {
    if (index > 1) names.push(String(row.getCell(headers.indexOf('Name') + 1).value));
  });
  expect(names).toEqual(expect.arrayContaining(['City Hospital standby', 'Quarry prime power']));

  // Only the current filter goes into the file.
  await page.getByLabel('Search by name or number').fill('Quarry');
  await page.getByLabel('Search by name or number').press('Enter');
  await expect(page.getByRole('row', { name: /City Hospital standby/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Export format' }).click();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Comma-separated values (CSV)' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const lines = readFileSync((await csv.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('Name');
  expect(lines[1]).toContain('Quarry prime power');
});

test('adding a set checks its fields, shows its codes, and it can be edited and deleted', async ({ page }) => {
  await openSignedIn(page, MANAGER, '/genset/add');
  await expect(page.getByRole('heading', { name: 'Add a genset' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Rated values' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Alternator' })).toBeVisible();

  // Nothing filled: the name is required; out-of-range numbers and other web addresses are refused.
  await page.getByLabel('Rated power (kW)').fill('200000');
  await page.getByLabel('Latitude (°)').fill('95');
  await page.getByLabel('Service contact').fill('ftp://example.com/manual');
  const submit = page.getByTestId('main').getByRole('button', { name: 'Add genset' });
  await submit.click();
  await expect(page.getByText('A genset needs a name')).toBeVisible();
  await expect(page.getByText('Enter a value from 0 to 100000')).toBeVisible();
  await expect(page.getByText('Enter a value from -90 to 90')).toBeVisible();
  await expect(page.getByText('Only addresses starting with http, https, mailto or tel are accepted')).toBeVisible();

  const name = `Form set ${Date.now()}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Number', { exact: true }).first().fill('FS-01');
  await page.getByLabel('Rated power (kW)').fill('250');
  await page.getByLabel('Latitude (°)').fill('39.9042');
  await page.getByLabel('Longitude (°)').fill('116.4074');
  await page.getByLabel('Service contact').fill('tel:+861012345678');
  await page.getByLabel('Controller protocol').click();
  await page.locator('.ant-select-item-option').first().click();
  await submit.click();

  await expect(page.getByText(`${name} was added`)).toBeVisible();
  await expect(page.getByTestId('subscription-code')).toHaveText(/^[A-Z0-9]{6,}$/);
  await expect(page.getByTestId('control-code')).toHaveText(/^[A-Z0-9]{6,}$/);

  await page.getByRole('button', { name: 'Open the genset' }).click();
  const detail = page.getByTestId('genset-detail');
  await expect(detail.getByRole('heading', { name })).toBeVisible();
  await expect(detail.getByText('250 kW').first()).toBeVisible();
  await expect(detail.getByRole('link', { name: 'tel:+861012345678' })).toBeVisible();
  await expect(page.getByTestId('set-map')).toBeVisible();

  await detail.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: `Edit ${name}` })).toBeVisible();
  await page.getByLabel('Rated power (kW)').fill('300');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(detail.getByText('300 kW').first()).toBeVisible();
  // The edit and the addition are in the set's operation log, newest first, with who did them.
  const log = page.getByTestId('operation-log');
  await expect(log.locator('.ant-list-item').first()).toContainText(`Set “${name}” edited`);
  await expect(log).toContainText(`Set “${name}” added`);
  await expect(log).toContainText('Mia Manager');

  await detail.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Their history is kept.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/genset\/mylist/);
  await page.goto(`/genset/mylist?q=${encodeURIComponent(name)}`);
  await expect(page.getByText('No genset matches this filter')).toBeVisible();
});

test('batch delete refuses more than 20 selected sets and deletes up to 20 after confirmation', async ({ page }) => {
  const manager = await apiLogin(page.request, MANAGER);
  // named to sort after the demo sets: tests running meanwhile find those on the manager's first page
  const tag = `Zulu batch ${Date.now()}`;
  const protocols = await api<{ key: string }[]>(page.request, '/genset/protocols', {}, manager.utoken);
  const tokens: string[] = [];
  for (let i = 1; i <= 21; i++) {
    const added = await api<{ token: string }>(
      page.request,
      '/genset/add',
      { name: `${tag} ${String(i).padStart(2, '0')}`, protocolKey: protocols.data[0]!.key },
      manager.utoken,
    );
    expect(added.code, added.msg).toBe(200);
    tokens.push(added.data.token);
  }
  try {
    await useToken(page.context(), manager.utoken);
    await page.goto(`/genset/list?q=${encodeURIComponent(tag)}&size=30`);
    await expect(page.getByText('Total: 21').first()).toBeVisible();
    await page.getByRole('row').first().getByRole('checkbox').check();
    await expect(page.getByTestId('selection-bar')).toContainText('Selected: 21');
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await expect(toast(page)).toHaveText('You cannot select more than 20 items');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.getByRole('checkbox', { name: `Select ${tag} 21` }).uncheck();
    await expect(page.getByTestId('selection-bar')).toContainText('Selected: 20');
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page)).toContainText('Deleted: 20');
    await expect(page.getByText('Total: 1').first()).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(`${tag} 21`) })).toBeVisible();
  } finally {
    // one by one: a delete is all or none and the ones this try deleted are gone; none may outlive a failed
    // try, or the manager's fleet (which other tests count) keeps them
    for (const token of tokens) await api(page.request, '/genset/del', { tokens: [token] }, manager.utoken);
  }
});

test('the list fits a phone: status under the name, actions in a menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, MANAGER, `/genset/mylist?q=${encodeURIComponent('Data centre backup')}`);
  const row = page.getByRole('row', { name: /Data centre backup/ });
  await expect(row.locator('[data-status]')).toBeVisible();
  await row.getByRole('button', { name: 'More actions for Data centre backup' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  await expect(page.getByTestId('genset-detail').getByRole('heading', { name: 'Data centre backup' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('the owner sees the subscribers of a set, changes their rights and removes them', async ({ page }) => {
  const manager = await apiLogin(page.request, MANAGER);
  const farm = await infoOf(page.request, manager.utoken, 'Farm irrigation pump');
  const nickname = `Sub ${Date.now() % 100000}`;
  const user = await registerAccount(page.request, nickname);
  const subscribed = await api(page.request, '/sub/add', { code: farm.subscriptionCode }, user.token);
  expect(subscribed.code, subscribed.msg).toBe(200);
  const rightsOfUser = async () => {
    const list = await api<GensetListResponse>(page.request, '/genset/mylist', { search: 'Farm' }, user.token);
    return list.data.list.map((s) => s.rights);
  };
  expect(await rightsOfUser()).toEqual(['view']);

  await useToken(page.context(), manager.utoken);
  await page.goto(`/crewmanage/detail/${farm.token}`);
  await page.getByTestId('genset-detail').getByRole('button', { name: 'Subscribers and codes' }).click();
  const drawer = page.getByRole('dialog', { name: 'Subscribers of Farm irrigation pump' });
  await expect(drawer.getByTestId('subscription-code')).toHaveText(farm.subscriptionCode!);
  const row = drawer.getByRole('row', { name: new RegExp(nickname) });
  await expect(row).toBeVisible();

  await chooseOption(page, row.getByRole('combobox', { name: `Rights of ${nickname}` }), 'Control');
  await expect(toast(page)).toContainText('Rights changed');
  await expect.poll(rightsOfUser).toEqual(['control']);

  await row.getByRole('button', { name: `Remove ${nickname}` }).click();
  await page.getByRole('tooltip').getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page)).toContainText('Removed: 1');
  await expect(drawer.getByRole('row', { name: new RegExp(nickname) })).toHaveCount(0);
  await expect.poll(rightsOfUser).toEqual([]);
});

test('a row of My gensets follows the set’s pushed values without a reload', async ({ page, context }) => {
  test.setTimeout(150_000);
  const tower = simulator('DEMO-0004');
  const name = 'Telecom tower T-7';
  await openSignedIn(page, MANAGER, `/genset/mylist?q=${encodeURIComponent(name)}`);
  const row = page.getByRole('row', { name: new RegExp(name) });
  const power = row.locator('.genset-power .genset-num');
  await expect(power).toHaveText(/\d/);
  const reloaded = trackReloads(page);

  // A realtime page on the set brings its module to the online rate; its dial shows when the load is taken.
  const dashboard = await context.newPage();
  await dashboard.goto(`/top/realtime?token=${demoSetToken(name)}`);
  const dial = dashboard.getByTestId('gauge-power').getByTestId('gauge-value');
  try {
    await tower.setLoad(12);
    await expect.poll(async () => Math.abs((await firstNumber(dial)) - 12) < 2, { timeout: 60_000 }).toBe(true);
    // While the realtime channel is open the list refreshes on its own only every 2 minutes; the push brings
    // the row along within seconds.
    await expect.poll(async () => Math.abs((await firstNumber(power)) - 12) < 2, { timeout: 10_000 }).toBe(true);
    expect(reloaded()).toBe(false);
  } finally {
    await tower.setLoad(24);
    await dashboard.close();
  }
});
