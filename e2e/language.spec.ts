// Switching the language reloads the page in the new language: console strings, the server's menu titles
// and the server's error messages.
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { openSignedIn, registerAccount, toast, useToken } from './helpers.ts';

const HAN = /[\u4e00-\u9fff]/;

test('switching to zh-CN reloads, persists in lang, and shows menu, breadcrumb and server errors in Chinese', async ({
  page,
}) => {
  const account = await registerAccount(page.request, 'Language tester');
  await useToken(page.context(), account.token);
  await page.goto('/help/list');
  await expect(page.getByTestId('help-list')).toBeVisible();
  await page.evaluate(() => ((window as unknown as { beforeSwitch: boolean }).beforeSwitch = true));

  await page.getByTestId('language-switcher').click();
  const reloaded = page.waitForEvent('load');
  await page.getByRole('menuitemradio', { name: '简体中文' }).click();
  await reloaded;

  expect(await page.evaluate(() => (window as unknown as { beforeSwitch?: boolean }).beforeSwitch)).toBeUndefined();
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page).toHaveURL(/\/help\/list$/);

  const menu = page.getByTestId('sidebar-menu');
  await expect(menu.getByRole('link', { name: '首页' })).toBeVisible();
  await expect(menu.getByRole('link', { name: '用户手册' })).toBeVisible();
  await expect(page.getByTestId('breadcrumb')).toHaveText(/首页\s*\/\s*用户手册/);
  await expect(page.getByTestId('language-switcher')).toContainText('简体中文');

  // a server error arrives in Chinese: the old password is wrong
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改密码' });
  await dialog.getByLabel('旧密码').fill('Wrong#2026x');
  await dialog.getByLabel('新密码', { exact: true }).fill('Better#2026');
  await dialog.getByLabel('确认新密码').fill('Better#2026');
  const answer = page.waitForResponse((r) => r.url().endsWith('/yewu/user/password'));
  await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
  const body = (await (await answer).json()) as { code: number; msg: string };
  expect(body.code).not.toBe(200);
  expect(body.msg).toMatch(HAN);
  await expect(toast(page)).toHaveText(body.msg);
  await expect(dialog).toBeVisible();

  // the choice stays for the next visit
  await page.goto('/index');
  await expect(page.getByTestId('welcome')).toContainText('欢迎');
});

test('each language shows its own words on the sign-in page', async ({ page }) => {
  const titles: Record<string, string> = {
    'zh-TW': '登入',
    'ru-RU': 'Вход',
    'es-ES': 'Iniciar sesión',
    'tr-TR': 'Giriş yap',
  };
  for (const [lang, title] of Object.entries(titles)) {
    await page.goto('/login');
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  }
  await openSignedIn(page, { username: 'viewer@example.com', password: 'Demo#2026' }, '/index');
  await expect(page.getByTestId('welcome')).toContainText('Hoş geldiniz');
});
