// Alarm episodes on a set's alarm page, on a server of the test's own (its alarms are the test's): an alarm that
// chattered shows as one row with its count and a flapping mark; the manager acknowledges the active alarm with a
// comment (an empty one is refused in the page's language), and the row then says who, when and why; the fleet's
// alarm list finds an alarm by the words of its title. In English and in Chinese.
import { test, expect } from './fixtures.ts';
import { signInAt, toast } from './helpers.ts';
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
    },
  ],
] as const)
  test(`${lang}: a chattering alarm is one row with its count; the active one is acknowledged with a comment`, async ({
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
