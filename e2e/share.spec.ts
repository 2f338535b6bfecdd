// Sharing a set by QR code: the owner shows a code as a QR code with its link; someone signed out who opens
// the link signs in and comes back to a subscription with the code's rights; after new codes are issued the
// old link is refused, in the user's language.
import { test, expect } from './fixtures.ts';
import { api, apiLogin, registerAccount, signInWithPassword, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

test('a set’s code as a QR code subscribes whoever opens its link, through sign-in; new codes end the old link', async ({
  page,
  browser,
}) => {
  const manager = await apiLogin(page.request, MANAGER);
  const protocols = await api<{ key: string }[]>(page.request, '/genset/protocols', {}, manager.utoken);
  // named to sort after the demo sets
  const name = `Zulu share ${Date.now()}`;
  const added = await api<{ token: string; subscriptionCode: string }>(
    page.request,
    '/genset/add',
    { name, protocolKey: protocols.data[0]!.key },
    manager.utoken,
  );
  expect(added.code, added.msg).toBe(200);
  const { token, subscriptionCode } = added.data;
  try {
    // The owner shows the subscription code as a QR code, with the link it holds.
    await useToken(page.context(), manager.utoken);
    await page.goto(`/crewmanage/detail/${token}`);
    await page.getByRole('button', { name: 'QR code: Subscription code (view)' }).click();
    const dialog = page.getByRole('dialog', { name: `Share ${name}` });
    await expect(dialog.getByTestId('code-qr').locator('canvas')).toBeVisible();
    await expect(dialog.getByTestId('code-sticker')).toContainText(subscriptionCode);
    const link = (await dialog.getByTestId('code-link').innerText()).trim();
    expect(link).toMatch(new RegExp(`/genset/subscribe\\?code=${subscriptionCode}$`));

    // Someone signed out opens the link: sign-in first, then back to the subscription.
    const person = await registerAccount(page.request, 'Sticker reader');
    const visitor = await browser.newContext();
    try {
      const other = await visitor.newPage();
      await other.goto(link);
      await expect(other).toHaveURL(/\/login\?redirect=/);
      // (registering instead would come back here too)
      const back = new URL(other.url()).searchParams.get('redirect');
      await expect(other.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
        'href',
        `/register?redirect=${encodeURIComponent(back!)}`,
      );
      await signInWithPassword(other, person);
      const result = other.getByTestId('subscribe-link');
      await expect(result).toContainText(`${name} added to your gensets (View)`);
      await result.getByRole('button', { name: 'My gensets' }).click();
      await expect(other.getByRole('row', { name: new RegExp(name) })).toBeVisible();
    } finally {
      await visitor.close();
    }

    // New codes: the old link no longer subscribes anyone (here a user reading Chinese).
    const reset = await api(page.request, '/genset/resetcodes', { token }, manager.utoken);
    expect(reset.code, reset.msg).toBe(200);
    const late = await registerAccount(page.request, 'Late reader');
    const lateContext = await browser.newContext();
    try {
      await useToken(lateContext, late.token);
      const latePage = await lateContext.newPage();
      await latePage.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
      await latePage.goto(link);
      await expect(latePage.getByTestId('subscribe-link')).toContainText('此代码未被接受');
      await expect(latePage.getByTestId('subscribe-link').getByRole('button', { name: '我的机组' })).toBeVisible();
    } finally {
      await lateContext.close();
    }
  } finally {
    await api(page.request, '/genset/del', { tokens: [token] }, manager.utoken);
  }
});
