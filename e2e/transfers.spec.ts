// Handing a set over: the manager hands a set of their own over from "My gensets" (naming themselves is
// refused in the dialog), the receiver accepts it on the Transfers page and finds it in "My gensets", the
// manager keeps the view subscription chosen; in Chinese, a receiver rejects one handover and the manager
// revokes another. Only sets made here change hands, so the demo fleet stays as other specs expect it.
import type { APIRequestContext, Page } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, registerAccount, useToken } from './helpers.ts';

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

/** A set of the manager's, named to sort after the demo sets. */
async function newSet(request: APIRequestContext, manager: string, label: string) {
  const protocols = await api<{ key: string }[]>(request, '/genset/protocols', {}, manager);
  const name = `Zulu ${label} ${Date.now()}`;
  const added = await api<{ token: string }>(
    request,
    '/genset/add',
    { name, protocolKey: protocols.data[0]!.key },
    manager,
  );
  expect(added.code, added.msg).toBe(200);
  return { name, token: added.data.token };
}

async function remove(request: APIRequestContext, token: string, sessions: string[]) {
  for (const session of sessions) await api(request, '/genset/del', { tokens: [token] }, session);
}

/** A page's first sight after it is opened: its code is loaded on demand, slower on a busy machine. */
const LOADED = { timeout: 60_000 };

// Each test registers an account and drives two browsers: given more time than a one-page test.
test.slow();

const transferRow = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) });

test('a set handed over from My gensets and accepted moves to the receiver, the sender keeps a view', async ({
  page,
  browser,
  manager,
}) => {
  const set = await newSet(page.request, manager, 'handover');
  const receiver = await registerAccount(page.request, 'Rita Receiver');
  try {
    await useToken(page.context(), manager);
    await page.goto(`/genset/mylist?q=${encodeURIComponent(set.name)}`);
    await page.getByRole('button', { name: `More actions for ${set.name}` }).click(LOADED);
    await page.getByRole('menuitem', { name: 'Hand over' }).click();
    const dialog = page.getByRole('dialog', { name: `Hand over ${set.name}` });

    // naming oneself is refused beside the field; nothing is sent
    await dialog.getByLabel('Receiving account').fill(MANAGER.username);
    await dialog.getByRole('button', { name: 'Hand over' }).click();
    await expect(dialog.getByLabel('Receiving account')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog).toContainText('Receiving account: you cannot hand a set over to yourself');

    await dialog.getByLabel('Receiving account').fill(receiver.username);
    await dialog.getByLabel('View rights, as a subscriber').check();
    await dialog.getByLabel('Remark').fill('Keys at the gate');
    await dialog.getByRole('button', { name: 'Hand over' }).click();
    await expect(page.getByText(`Handover of ${set.name} sent. It moves once the receiver accepts.`)).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.goto('/genset/transfers');
    const outgoing = transferRow(page, set.name);
    await expect(outgoing).toContainText('Outgoing', LOADED);
    await expect(outgoing).toContainText('Untreated');
    // until the receiver answers, the sender sees the account as they named it
    await expect(outgoing).toContainText(receiver.username);
    await expect(outgoing.getByRole('button', { name: 'Revoke' })).toBeVisible();

    // the receiver accepts on their Transfers page and finds the set in My gensets
    const other = await browser.newContext();
    try {
      await useToken(other, receiver.token);
      const theirs = await other.newPage();
      await theirs.goto('/genset/transfers');
      const incoming = transferRow(theirs, set.name);
      await expect(incoming).toContainText('Incoming', LOADED);
      await expect(incoming).toContainText('Mia Manager');
      await expect(incoming).toContainText('View subscription');
      await incoming.getByRole('button', { name: 'Accept' }).click();
      await expect(theirs.getByText(`${set.name} is now yours`)).toBeVisible();
      await expect(incoming).toBeHidden();
      await theirs.getByRole('tab', { name: 'Done' }).click();
      await expect(transferRow(theirs, set.name)).toContainText('Accepted');
      await theirs.goto('/genset/mylist');
      await expect(theirs.getByRole('row', { name: new RegExp(set.name) })).toContainText('Owner', LOADED);
    } finally {
      await other.close();
    }

    // the sender sees it done, and keeps the set in My gensets with view rights only
    await page.getByRole('tab', { name: 'Done' }).click();
    await expect(transferRow(page, set.name)).toContainText('Accepted');
    await page.goto(`/genset/mylist?q=${encodeURIComponent(set.name)}`);
    const kept = page.getByRole('row', { name: new RegExp(set.name) });
    await expect(kept).toContainText('View', LOADED);
    await expect(page.getByRole('button', { name: `Edit ${set.name}` })).toHaveCount(0);
  } finally {
    await remove(page.request, set.token, [receiver.token, manager]);
  }
});

test('in Chinese: the receiver rejects a handover and the sender revokes another; both stay with the sender', async ({
  page,
  browser,
  manager,
}) => {
  const rejected = await newSet(page.request, manager, 'rejected');
  const revoked = await newSet(page.request, manager, 'revoked');
  const receiver = await registerAccount(page.request, 'Rui Receiver');
  try {
    for (const set of [rejected, revoked]) {
      const sent = await api(
        page.request,
        '/genset/transferdevice',
        { token: set.token, account: receiver.username },
        manager,
      );
      expect(sent.code, sent.msg).toBe(200);
    }
    const other = await browser.newContext();
    try {
      await useToken(other, receiver.token);
      const theirs = await other.newPage();
      await theirs.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
      await theirs.goto('/genset/transfers');
      await expect(theirs.getByRole('tab', { name: '待处理' })).toBeVisible(LOADED);
      const row = transferRow(theirs, rejected.name);
      await expect(row).toContainText('未处理');
      await row.getByRole('button', { name: '拒绝' }).click();
      // (Ant Design spaces out a button's two Chinese characters: 拒 绝)
      await theirs
        .getByRole('tooltip')
        .getByRole('button', { name: /^拒\s?绝$/ })
        .click();
      await expect(theirs.getByText(`您已拒绝 ${rejected.name}`)).toBeVisible();
    } finally {
      await other.close();
    }

    await useToken(page.context(), manager);
    await page.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
    await page.goto('/genset/transfers');
    const row = transferRow(page, revoked.name);
    await expect(row).toContainText('移交', LOADED);
    await row.getByRole('button', { name: '撤回' }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /^撤\s?回$/ })
      .click();
    await expect(page.getByText(`已撤回 ${revoked.name} 的移交`)).toBeVisible();

    await page.getByRole('tab', { name: '已处理' }).click();
    await expect(transferRow(page, rejected.name)).toContainText('已拒绝');
    await expect(transferRow(page, revoked.name)).toContainText('已撤回');
    // both sets are still the manager's
    const mine = await api<{ list: { token: string; owned: boolean }[] }>(
      page.request,
      '/genset/mylist',
      { search: 'Zulu re', size: 50 },
      manager,
    );
    for (const set of [rejected, revoked]) expect(mine.data.list.find((s) => s.token === set.token)?.owned).toBe(true);
  } finally {
    await remove(page.request, rejected.token, [manager]);
    await remove(page.request, revoked.token, [manager]);
  }
});
