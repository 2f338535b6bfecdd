// The message centre, in English and in Spanish: a set handed over to someone rings their bell at once, wherever
// they are in the console, the notice leads to the transfers, and reading it clears the bell. In English and in
// Chinese: message settings are kept; a company administrator adds a webhook, and an address that is not
// http(s) is refused beside the field in the reader's language.
import { test, expect } from './fixtures.ts';
import { api, apiLogin, baseUrl, registerAccount, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

const CENTRE = {
  'en-US': {
    title: (name: string) => `${name} is being handed over to you`,
    bell: 'Messages, 1 unread',
    markUnread: 'Mark unread',
    markAllRead: 'Mark all read',
  },
  'es-ES': {
    title: (name: string) => `Le traspasan ${name}`,
    bell: 'Mensajes, 1 sin leer',
    markUnread: 'Marcar como no leído',
    markAllRead: 'Marcar todo como leído',
  },
};

for (const [lang, text] of Object.entries(CENTRE)) {
  test(`${lang}: a hand-over rings the receiver’s bell live; the notice leads to it; reading clears the bell`, async ({
    page,
    browser,
  }) => {
    test.slow();
    const manager = await apiLogin(page.request, MANAGER);
    const protocols = await api<{ key: string }[]>(page.request, '/genset/protocols', {}, manager.utoken);
    const name = `Zulu notice ${lang} ${Date.now()}`;
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
      await other.addInitScript((l) => localStorage.setItem('lang', l), lang);
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
      await expect(bell).toHaveAccessibleName(text.bell);
      await bell.click();
      const popover = other.getByTestId('notice-popover');
      const item = popover.getByTestId('notice-item').first();
      await expect(item).toContainText(text.title(name));
      await item.click();
      await expect(other).toHaveURL(/\/genset\/transfers$/);
      await expect(bell).toHaveAttribute('data-unread', '0');

      await other.goto(`${baseUrl()}/message`);
      const centre = other.getByTestId('notices-page');
      await expect(centre.getByTestId('notice-item').first()).toHaveAttribute('data-read', 'yes', { timeout: 60_000 });
      await centre.getByRole('button', { name: text.markUnread }).first().click();
      await expect(bell).toHaveAttribute('data-unread', '1');
      await centre.getByRole('button', { name: text.markAllRead }).click();
      await expect(bell).toHaveAttribute('data-unread', '0');
    } finally {
      await context.close();
      await api(page.request, '/genset/del', { tokens: [added.data.token] }, manager.utoken).catch(() => undefined);
    }
  });
}

const SETTINGS = {
  'en-US': {
    offline: 'Set offline for longer than',
    saved: 'Saved',
    name: 'Name',
    address: 'Address',
    save: 'Save',
    refused: 'A webhook address must start with http:// or https://.',
    hook: 'Control room',
    event: 'Alarm raised',
  },
  'zh-CN': {
    offline: '机组离线超过',
    saved: '已保存',
    name: '名称',
    address: '地址',
    // (Ant Design spaces out a button's two Chinese characters; its name may still hold the last save's spinner)
    save: /保\s?存$/,
    refused: 'Webhook 地址必须以 http:// 或 https:// 开头。',
    hook: '控制室',
    event: '报警发生',
  },
};

for (const [lang, text] of Object.entries(SETTINGS)) {
  test(`${lang}: message settings are kept; a webhook with a wrong address is refused beside the field`, async ({
    page,
  }) => {
    test.slow();
    await page.addInitScript((l) => localStorage.setItem('lang', l), lang);
    // the settings of an account of the test's own, so that runs side by side do not read each other's
    const person = await registerAccount(page.request, 'Settings keeper');
    await useToken(page.context(), person.token);
    await page.goto('/user/personal?tab=messages');
    const settings = page.getByTestId('message-settings');
    await expect(settings).toBeVisible({ timeout: 60_000 });
    await settings.getByLabel(text.offline).fill('45');
    await settings.getByTestId('message-details-save').click();
    await expect(page.locator('.ant-message')).toContainText(text.saved);
    await page.reload();
    const offline = page.getByTestId('message-settings').getByLabel(text.offline);
    await expect(offline).toBeVisible({ timeout: 60_000 });
    await expect(offline).toHaveValue('45');

    const manager = await apiLogin(page.request, MANAGER);
    await useToken(page.context(), manager.utoken);
    await page.goto('/system/webhooks');
    const hooks = page.getByTestId('webhooks-page');
    await expect(hooks).toBeVisible({ timeout: 60_000 });
    await hooks.getByTestId('webhook-add').click();
    const form = page.getByTestId('webhook-form');
    await form.getByLabel(text.name).fill(text.hook);
    await form.getByLabel(text.address).fill('ftp://93.184.215.14/hook');
    await page.getByRole('button', { name: text.save }).click();
    await expect(form).toContainText(text.refused);
    await form.getByLabel(text.address).fill('https://93.184.215.14/hook');
    await page.getByRole('button', { name: text.save }).click();
    await expect(hooks.getByRole('row', { name: new RegExp(text.hook) })).toContainText(text.event);
    // tidy up: the demo company keeps no webhook of this test
    const list = await api<{ list: { id: number; name: string }[] }>(page.request, '/webhook/list', {}, manager.utoken);
    for (const h of list.data.list.filter((w) => w.name === text.hook))
      await api(page.request, '/webhook/delete', { id: h.id }, manager.utoken);
  });
}
