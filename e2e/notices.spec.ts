// The message centre: a set handed over to someone rings their bell at once, wherever they are in the console
// (Spanish here), the notice leads to the transfers, and reading it clears the bell; message settings are kept;
// a company administrator adds a webhook, and an address that is not http(s) is refused beside the field.
import { test, expect } from './fixtures.ts';
import { api, apiLogin, baseUrl, registerAccount, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

test('a hand-over rings the receiver’s bell live; the notice leads to it; reading clears the bell', async ({
  page,
  browser,
}) => {
  test.slow();
  const manager = await apiLogin(page.request, MANAGER);
  const protocols = await api<{ key: string }[]>(page.request, '/genset/protocols', {}, manager.utoken);
  const name = `Zulu notice ${Date.now()}`;
  const added = await api<{ token: string }>(
    page.request,
    '/genset/add',
    { name, protocolKey: protocols.data[0]!.key },
    manager.utoken,
  );
  expect(added.code, added.msg).toBe(200);
  const receiver = await registerAccount(page.request, 'Bell reader');

  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    await other.addInitScript(() => localStorage.setItem('lang', 'es-ES'));
    await useToken(context, receiver.token);
    await other.goto(`${baseUrl()}/help/list`);
    const bell = other.getByTestId('notice-bell');
    await expect(bell).toBeVisible({ timeout: 60_000 });
    await expect(bell).toHaveAttribute('data-unread', '0');

    const sent = await api(
      page.request,
      '/genset/transferdevice',
      { token: added.data.token, account: receiver.username, keepSubscription: 'none' },
      manager.utoken,
    );
    expect(sent.code, sent.msg).toBe(200);
    // pushed over the realtime channel: no reload, no waiting for a poll
    await expect(bell).toHaveAttribute('data-unread', '1', { timeout: 10_000 });
    await expect(bell).toHaveAccessibleName('Mensajes, 1 sin leer');
    await bell.click();
    const popover = other.getByTestId('notice-popover');
    const item = popover.getByTestId('notice-item').first();
    await expect(item).toContainText(`Le traspasan ${name}`);
    await item.click();
    await expect(other).toHaveURL(/\/genset\/transfers$/);
    await expect(bell).toHaveAttribute('data-unread', '0');

    await other.goto(`${baseUrl()}/message`);
    const centre = other.getByTestId('notices-page');
    await expect(centre.getByTestId('notice-item').first()).toHaveAttribute('data-read', 'yes', { timeout: 60_000 });
    await centre.getByRole('button', { name: 'Marcar como no leído' }).first().click();
    await expect(bell).toHaveAttribute('data-unread', '1');
    await centre.getByRole('button', { name: 'Marcar todo como leído' }).click();
    await expect(bell).toHaveAttribute('data-unread', '0');
  } finally {
    await context.close();
    await api(page.request, '/genset/del', { token: added.data.token }, manager.utoken).catch(() => undefined);
  }
});

test('message settings are kept; a webhook with a wrong address is refused beside the field', async ({ page }) => {
  test.slow();
  const manager = await apiLogin(page.request, MANAGER);
  await useToken(page.context(), manager.utoken);
  await page.goto('/user/personal?tab=messages');
  const settings = page.getByTestId('message-settings');
  await expect(settings).toBeVisible({ timeout: 60_000 });
  await settings.getByLabel('Set offline for longer than').fill('45');
  await settings.getByTestId('message-details-save').click();
  await expect(page.locator('.ant-message')).toContainText('Saved');
  await page.reload();
  const offline = page.getByTestId('message-settings').getByLabel('Set offline for longer than');
  await expect(offline).toBeVisible({ timeout: 60_000 });
  await expect(offline).toHaveValue('45');

  await page.goto('/system/webhooks');
  const hooks = page.getByTestId('webhooks-page');
  await expect(hooks).toBeVisible({ timeout: 60_000 });
  await hooks.getByTestId('webhook-add').click();
  const form = page.getByTestId('webhook-form');
  await form.getByLabel('Name').fill('Control room');
  await form.getByLabel('Address').fill('ftp://93.184.215.14/hook');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(form).toContainText('A webhook address must start with http:// or https://.');
  await form.getByLabel('Address').fill('https://93.184.215.14/hook');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(hooks.getByRole('row', { name: /Control room/ })).toContainText('Alarm raised');
  // tidy up: the demo company keeps no webhook of this test
  const list = await api<{ list: { id: number; name: string }[] }>(page.request, '/webhook/list', {}, manager.utoken);
  for (const h of list.data.list.filter((w) => w.name === 'Control room'))
    await api(page.request, '/webhook/delete', { id: h.id }, manager.utoken);
});
