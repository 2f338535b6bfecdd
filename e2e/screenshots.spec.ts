// The main screens at 1440 px and 390 px in English and Chinese, each checked for being no wider than the window;
// with E2E_SCREENSHOTS=1 each is also kept as a picture for people to look at (test-results/…/<screen>.png). The
// pages after the first are opened inside the console, as a user moves about it.
/// <reference lib="dom" />
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { apiLogin, useToken, VIEWER } from './helpers.ts';
import { openInApp, settle } from './in-app.ts';

const PICTURES = process.env.E2E_SCREENSHOTS === '1';

const SIZES = [
  { name: '1440', width: 1440, height: 900 },
  { name: '390', width: 390, height: 844 },
] as const;
const LANGS = ['en-US', 'zh-CN'] as const;

async function shoot(page: Page, name: string, width: number) {
  await settle(page);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${name} is wider than the window`).toBeLessThanOrEqual(width);
  if (PICTURES) await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

for (const size of SIZES) {
  for (const lang of LANGS) {
    test(`screens at ${size.name} px in ${lang}`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.addInitScript((l) => localStorage.setItem('lang', l), lang);
      const tag = `${size.name}-${lang}`;

      await page.goto('/login');
      await expect(page.locator('h1')).toBeVisible();
      await shoot(page, `login-${tag}`, size.width);
      await openInApp(page, '/register');
      await expect(page.locator('h1')).toBeVisible();
      await shoot(page, `register-${tag}`, size.width);
      await openInApp(page, '/xieyis');
      await shoot(page, `agreement-${tag}`, size.width);

      const login = await apiLogin(page.request, VIEWER);
      await useToken(page.context(), login.utoken);
      await page.goto('/index');
      await expect(page.getByTestId('welcome')).toBeVisible();
      await shoot(page, `home-${tag}`, size.width);
      await openInApp(page, '/help/list');
      await expect(page.getByTestId('help-list').getByRole('link').first()).toBeVisible();
      await page.getByTestId('help-list').getByRole('link').first().click();
      await expect(page.getByTestId('help-info')).toBeVisible();
      await shoot(page, `manual-${tag}`, size.width);
      await openInApp(page, '/user/personal');
      await expect(page.getByTestId('profile-name')).toBeVisible();
      await shoot(page, `personal-${tag}`, size.width);
      await expect(async () => {
        await page.getByTestId('user-menu').click();
        await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item').nth(1).click();
        await expect(page.getByRole('dialog')).toBeVisible({ timeout: 2000 });
      }).toPass();
      await page.getByRole('dialog').locator('.ant-btn-primary').click();
      await shoot(page, `password-${tag}`, size.width);
      await page.keyboard.press('Escape');
      if (size.width < 992) {
        await page.getByTestId('menu-toggle').click();
        await expect(page.locator('.mobile-menu .ant-drawer-section')).toBeVisible();
        await shoot(page, `menu-${tag}`, size.width);
        await page.keyboard.press('Escape');
      }
      await openInApp(page, '/top/realtime');
      await shoot(page, `top-${tag}`, size.width);
      await openInApp(page, '/ems/index');
      await shoot(page, `ems-${tag}`, size.width);
      await openInApp(page, '/nowhere');
      await expect(page).toHaveURL(/\/404$/);
      await shoot(page, `404-${tag}`, size.width);
    });
  }
}
