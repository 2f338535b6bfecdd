// The operation log in the reader's language: a command sent (in English) to the demo's offline set reads, for a
// Russian reader, as the command's Russian title, with the set's name rather than its token, the outcome in words
// and no raw record ("command: …, outcome: …") — on the log page and in the set's recent operations.
import { computeSign, DEFAULT_SIGN_SECRET, layoutG } from '@genset/protocol';
import { expect, test } from './fixtures.ts';
import { apiLogin, baseUrl, demoSetToken, openSignedIn } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
const SET = 'Farm irrigation pump';
const title = layoutG.commands.find((c) => c.key === 'fault_reset')!.title;

test('a command in the operation log reads in Russian, with the set’s name', async ({ page, request }) => {
  const token = demoSetToken(SET);
  const login = await apiLogin(request, MANAGER);
  // the set's module is offline: the command is logged as not sent, and nothing changes on any set
  const time = String(Math.floor(Date.now() / 1000));
  const secret = process.env.API_SIGN_SECRET ?? DEFAULT_SIGN_SECRET;
  await request.post(`${baseUrl()}/yewu/devicedata/sendaction`, {
    headers: {
      'X-Time': time,
      'X-Sign': computeSign(login.utoken, time, secret),
      'X-Token': login.utoken,
      'Accept-Language': 'en-US',
    },
    data: { token, action: 'fault_reset', password: MANAGER.password },
  });

  await page.addInitScript(() => localStorage.setItem('lang', 'ru-RU'));
  await openSignedIn(page, MANAGER, '/system/log');
  const row = page
    .getByTestId('oplog-table')
    .getByRole('row')
    .filter({ hasText: `Команда «${title['ru-RU']}»` })
    .first();
  await expect(row).toContainText(SET);
  await expect(row).toContainText('Модуль не в сети');
  await expect(row).not.toContainText(token);
  await expect(page.getByTestId('oplog-table')).not.toContainText(/command:|outcome:|fault_reset/);

  await page.goto(`/crewmanage/detail/${token}`);
  const recent = page.getByTestId('operation-log');
  await expect(recent).toContainText(`Команда «${title['ru-RU']}»`);
  await expect(recent).not.toContainText(/fault_reset|Fault reset/);
});
