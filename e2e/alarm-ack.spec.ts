// Alarm episodes on a set's alarm page, on a server of the test's own (its alarms are the test's): an alarm that
// chattered shows as one row with its count and a flapping mark; the manager acknowledges the active alarm with a
// comment (an empty one is refused in the page's language), and the row then says who, when and why; the fleet's
// alarm list finds an alarm by the words of its title; the active alarm is shelved for four hours with a reason
// (none is refused) and taken off the shelf again. In English and in Chinese.
import { test, expect } from './fixtures.ts';
import { chooseOption, signInAt, toast } from './helpers.ts';
import { startOwnServer } from './own-server.ts';

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;
let companyId = 0;

test.beforeAll(async () => {
  own = await startOwnServer('alarms', { DEMO_FLEET: '0', DEMO_BACKFILL_DAYS: '0' });
  const manager = await own.server.app.database.db
    .selectFrom('users')
    .select('company_id')
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow();
  companyId = manager.company_id!;
});
test.afterAll(async () => own?.close());

const TITLES = {
  low: { 'en-US': 'Low fuel level warning', 'zh-CN': '燃油液位低预警' },
  stop: { 'en-US': 'Emergency stop', 'zh-CN': '紧急停机' },
};

/** A set of its own with a flapping episode that ended and an emergency stop still active. */
async function setWithAlarms(name: string) {
  const { app } = own!.server;
  const modem = await app.devices.fleet.createModem({ companyId, modemKey: `E2EACK${Date.now()}` });
  const set = await app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name,
    modemId: modem.id,
    protocolKey: 'genset-layout-s',
  });
  app.gensets.directory.invalidate();
  const now = Date.now();
  await app.database.db
    .insertInto('alarm')
    .values([
      {
        genset_id: set.id,
        code: 'low_fuel_warning',
        level: 'warning',
        title: JSON.stringify(TITLES.low),
        start_ts: now - 30 * 60_000,
        end_ts: now - 20 * 60_000,
        acknowledged: 0,
        occurrences: 20,
        flapping: 1,
      },
      {
        genset_id: set.id,
        code: 'emergency_stop',
        level: 'shutdown',
        title: JSON.stringify(TITLES.stop),
        start_ts: now - 5 * 60_000,
        end_ts: null,
        acknowledged: 0,
        occurrences: 1,
        flapping: 0,
      },
    ])
    .execute();
  return set.token;
}

for (const [lang, words] of [
  [
    'en-US',
    {
      flapping: 'Flapping',
      ack: 'Acknowledge',
      required: 'Write what is being done',
      done: 'Alarm acknowledged',
      comment: 'Crew on the way, there in 20 minutes',
      shelve: 'Shelve',
      span: '4 hours',
      reasonRequired: 'Say why it is shelved',
      reason: 'Stop button stuck, part on order',
      shelved: 'Alarm shelved',
      unshelved: 'Alarm taken off the shelf',
    },
  ],
  [
    'zh-CN',
    {
      flapping: '频繁抖动',
      ack: '确认',
      required: '请填写正在采取的措施',
      done: '报警已确认',
      comment: '维修人员已出发',
      shelve: '搁置',
      span: '4 小时',
      reasonRequired: '请填写搁置原因',
      reason: '急停按钮卡住，配件已订购',
      shelved: '报警已搁置',
      unshelved: '已取消搁置',
    },
  ],
] as const)
  test(`${lang}: a chattering alarm is one row with its count; the active one is acknowledged with a comment and shelved for a while`, async ({
    page,
  }) => {
    const token = await setWithAlarms(`Ack set ${lang}`);
    const url = own!.server.url;
    await signInAt(page, url, { username: 'manager@example.com', password: 'Demo#2026' });
    await page.goto(`${url}/index`);
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await page.goto(`${url}/top/baojing?token=${token}`);
    const history = page.getByTestId('alarm-history');
    const flapped = history.getByRole('row', { name: new RegExp(TITLES.low[lang]) });
    await expect(flapped.getByTestId('alarm-occurrences')).toHaveText('×20');
    await expect(flapped.getByTestId('alarm-flapping')).toHaveText(words.flapping);

    const active = history.getByRole('row', { name: new RegExp(TITLES.stop[lang]) });
    await active.getByTestId('alarm-ack-button').click();
    const dialog = page.getByTestId('ack-dialog');
    await expect(dialog.getByRole('dialog')).toContainText(TITLES.stop[lang]);
    // nothing written: refused beside the field, nothing sent
    await dialog.getByRole('button', { name: words.ack }).click();
    await expect(dialog.locator('.ant-form-item-explain-error')).toHaveText(words.required);
    await dialog.getByRole('textbox').fill(`  ${words.comment}  `);
    await dialog.getByRole('button', { name: words.ack }).click();
    await expect(toast(page)).toContainText(words.done);
    await expect(dialog.getByRole('dialog')).toBeHidden();
    const ack = active.getByTestId('alarm-ack');
    await expect(ack).toContainText('Mia Manager');
    await expect(ack).toContainText(words.comment);
    await expect(active.getByTestId('alarm-ack-button')).toHaveCount(0);
    // kept on the server, as said
    const row = await own!.server.app.database.db
      .selectFrom('alarm')
      .innerJoin('genset', 'genset.id', 'alarm.genset_id')
      .select(['alarm.ack_comment', 'alarm.ack_at'])
      .where('genset.token', '=', token)
      .where('alarm.code', '=', 'emergency_stop')
      .executeTakeFirstOrThrow();
    expect(row.ack_comment).toBe(words.comment);
    expect(row.ack_at).not.toBeNull();

    // shelved for four hours with a reason (none is refused); the row says until when, by whom and why
    await active.getByTestId('alarm-shelve-button').click();
    const shelving = page.getByTestId('shelve-dialog');
    await expect(shelving.getByRole('dialog')).toContainText(TITLES.stop[lang]);
    await chooseOption(page, shelving.getByRole('combobox'), words.span);
    await shelving.getByRole('button', { name: words.shelve }).click();
    await expect(shelving.locator('.ant-form-item-explain-error')).toHaveText(words.reasonRequired);
    await shelving.getByRole('textbox').fill(words.reason);
    await shelving.getByRole('button', { name: words.shelve }).click();
    await expect(toast(page)).toContainText(words.shelved);
    const shelf = active.getByTestId('alarm-shelf');
    await expect(shelf).toContainText('Mia Manager');
    await expect(shelf).toContainText(words.reason);
    const kept = await own!.server.app.database.db
      .selectFrom('alarm')
      .innerJoin('genset', 'genset.id', 'alarm.genset_id')
      .select(['alarm.shelved_until', 'alarm.shelved_at', 'alarm.shelve_reason'])
      .where('genset.token', '=', token)
      .where('alarm.code', '=', 'emergency_stop')
      .executeTakeFirstOrThrow();
    expect(Number(kept.shelved_until) - Number(kept.shelved_at)).toBe(4 * 3_600_000);
    expect(kept.shelve_reason).toBe(words.reason);
    // taken off the shelf by hand: the button to shelve it is back
    await shelf.getByTestId('alarm-unshelve-button').click();
    await expect(toast(page)).toContainText(words.unshelved);
    await expect(active.getByTestId('alarm-shelf')).toHaveCount(0);
    await expect(active.getByTestId('alarm-shelve-button')).toBeVisible();

    // the fleet's alarm list finds alarms by the words of their title, and shows the acknowledgement too
    await page.goto(`${url}/genset/alarms`);
    const table = page.getByTestId('alarm-table');
    await expect(table.getByRole('row', { name: new RegExp(TITLES.stop[lang]) }).first()).toContainText(words.comment);
    const search = page.locator('input[data-testid="alarm-search"], [data-testid="alarm-search"] input');
    await search.fill(TITLES.low[lang]);
    await search.press('Enter');
    await expect(table.getByRole('row', { name: new RegExp(TITLES.stop[lang]) })).toHaveCount(0);
    await expect(table.getByRole('row', { name: new RegExp(TITLES.low[lang]) }).first()).toBeVisible();
  });
