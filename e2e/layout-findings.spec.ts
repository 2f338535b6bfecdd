// Layout points the page audit (page-audit.spec.ts) does not see by looking at a page: the words of the user
// menu in each language, Chinese two-character buttons written without a space, the full title of a Russian
// sidebar entry cut short, and the alarm chart's title and legend apart in each language and width.
/// <reference lib="dom" />
import { test, expect } from './fixtures.ts';
import { openSignedIn } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };

test('the user menu signs out in the words of each language', async ({ page }) => {
  const words: Record<string, string> = {
    'en-US': 'Sign out',
    'zh-CN': '退出登录',
    'zh-TW': '登出',
    'ru-RU': 'Выйти',
    'es-ES': 'Cerrar sesión',
    'tr-TR': 'Oturumu kapat',
  };
  await openSignedIn(page, MANAGER, '/help/list');
  for (const [lang, word] of Object.entries(words)) {
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await page.reload();
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: word })).toBeVisible();
    await page.keyboard.press('Escape');
  }
});

test('Chinese two-character buttons read as one word, without a space between the characters', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
  await page.reload();
  const submit = page.getByRole('button', { name: '登录', exact: true });
  await expect(submit).toBeVisible();
  expect(await submit.innerText()).toBe('登录');
  await openSignedIn(page, MANAGER, '/genset/mylist');
  const spaced = await page.evaluate(() =>
    [...document.querySelectorAll('button')]
      .map((b) => b.innerText.trim())
      .filter((text) => /^[\u4e00-\u9fff] [\u4e00-\u9fff]$/.test(text)),
  );
  expect(spaced).toEqual([]);
});

test('a Russian sidebar entry cut short by its width can be read whole in its title', async ({ page }) => {
  await openSignedIn(page, MANAGER, '/index');
  await page.evaluate(() => localStorage.setItem('lang', 'ru-RU'));
  await page.reload();
  const menu = page.getByTestId('sidebar-menu');
  await expect(menu.getByRole('link').first()).toBeVisible();
  const cut = await menu.evaluate((root) =>
    [...root.querySelectorAll('.ant-menu-title-content')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => ({
        text: (e.textContent ?? '').trim(),
        title: e.querySelector('[title]')?.getAttribute('title') ?? '',
      })),
  );
  for (const entry of cut) expect(entry.title, entry.text).toBe(entry.text);
  // every entry carries its title, cut or not
  const titles = await menu.locator('a[title]').count();
  expect(titles).toBeGreaterThan(5);
});

for (const [lang, width, height] of [
  ['en-US', 1440, 900],
  ['zh-CN', 1440, 900],
  ['zh-CN', 390, 844],
  ['ru-RU', 390, 844],
] as const)
  test(`the alarm chart's title and legend do not overlap (${lang}, ${width}×${height}); all gensets list the fleet's alarms`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await openSignedIn(page, MANAGER, '/index');
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await page.goto('/genset/alarms');
    const chart = page.getByTestId('alarm-chart');
    await expect(chart).toBeVisible();
    await expect(page.getByTestId('alarm-table')).toBeVisible();
    const boxes = await chart.evaluate(async (box) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      type Rect = { x: number; y: number; width: number; height: number };
      type Chart = {
        getModel(): { getComponent(type: string): unknown };
        getViewOfComponentModel(model: unknown): {
          group: {
            getBoundingRect(): Rect & { clone(): Rect & { applyTransform(m: unknown): void } };
            transform: unknown;
          };
        };
      };
      const chart = (box as Element & { echartsInstance?: Chart }).echartsInstance!;
      const rect = (type: string) => {
        const view = chart.getViewOfComponentModel(chart.getModel().getComponent(type));
        const r = view.group.getBoundingRect().clone();
        if (view.group.transform) r.applyTransform(view.group.transform);
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      return { title: rect('title'), legend: rect('legend') };
    });
    const { title, legend } = boxes;
    expect(title.height).toBeGreaterThan(0);
    expect(legend.height).toBeGreaterThan(0);
    const apart =
      title.x + title.width <= legend.x ||
      legend.x + legend.width <= title.x ||
      title.y + title.height <= legend.y ||
      legend.y + legend.height <= title.y;
    expect(apart, JSON.stringify(boxes)).toBe(true);
  });
