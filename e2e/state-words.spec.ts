// One word per set state on every page, in each language: every demo set's state reads the same on the home
// page (its tiles adding up, the alarm overlay apart), in My gensets, on the multi-set monitor and on its
// realtime page, in en-US, zh-CN and ru-RU — the word of the state the server has for the set at that moment.
/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { setStateOf, type GensetListResponse, type Language, type SetState } from '@genset/protocol';
import { test, expect } from './fixtures.ts';
import { api, openSignedIn } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
const LANGS: Language[] = ['en-US', 'zh-CN', 'ru-RU'];
/** The demo fleet changes state now and then: a page is read again until it agrees with the server. */
const AGREE = { timeout: 45_000 };

function words(lang: Language): Record<SetState, string> {
  const file = join(import.meta.dirname, '../apps/web/src/i18n/locales', lang, 'gensets.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { status: Record<SetState, string> }).status;
}

/** Every set's state word as the server has it now, by name. */
async function serverWords(page: Page, token: string, lang: Language): Promise<Map<string, string>> {
  const list = (await api<GensetListResponse>(page.request, '/genset/mylist', { size: 50 }, token)).data;
  const w = words(lang);
  return new Map(list.list.map((s) => [s.name, w[setStateOf(s.status)]]));
}

/** The state words a page shows, by set name, from rows that hold a name and a [data-state] word. */
async function pageWords(page: Page, rows: string, name: string): Promise<Map<string, string>> {
  return new Map(
    await page.locator(rows).evaluateAll(
      (els, nameSelector) =>
        els.map((el) => {
          const state = Array.from(el.querySelectorAll('[data-state]')).find(
            (s) => (s as HTMLElement).offsetParent !== null,
          );
          return [el.querySelector(nameSelector)?.textContent?.trim() ?? '', state?.textContent?.trim() ?? ''] as [
            string,
            string,
          ];
        }),
      name,
    ),
  );
}

// one test per language, so that the three run side by side
for (const lang of LANGS)
  test(`each demo set’s state reads the same on home, My gensets, the monitor and its realtime page, in ${lang}`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const token = await openSignedIn(page, MANAGER, '/index');
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    const w = words(lang);
    const known = new Set(Object.values(w));

    // home: the four states add up to the total; the alarm overlay is a tile of its own, apart from them
    await page.goto('/index');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    const counts = page.getByTestId('status-counts');
    await expect(async () => {
      const n = async (id: string) => Number(await counts.getByTestId(id).locator('.home-tile-value').innerText());
      const parts = await Promise.all(['running', 'standby', 'shutdown', 'offline'].map((k) => n(`count-${k}`)));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(await n('count-total'));
      expect(await n('count-total')).toBe(8);
    }).toPass(AGREE);
    await expect(counts.locator('[data-part="state"]')).toHaveCount(4);
    await expect(counts.getByTestId('count-alarm')).toHaveAttribute('data-part', 'overlay');
    const map = page.getByTestId('fleet-map');
    if ((await map.getAttribute('data-view')) !== 'list') await map.locator('.ant-segmented-item').nth(1).click();
    await expect(async () => {
      const shown = await pageWords(page, '[data-testid="fleet-map"] [data-testid="map-list-item"]', 'a');
      const server = await serverWords(page, token, lang);
      expect(shown.size).toBeGreaterThan(0);
      for (const [name, word] of shown) expect(word, `home ${name}`).toBe(server.get(name));
    }).toPass(AGREE);

    // My gensets
    await page.goto('/genset/mylist');
    await expect(async () => {
      const shown = await pageWords(page, '.ant-table-row', 'a');
      const server = await serverWords(page, token, lang);
      expect(shown.size).toBe(8);
      for (const [name, word] of shown) expect(word, `My gensets ${name}`).toBe(server.get(name));
    }).toPass(AGREE);

    // the multi-set monitor, then each set's realtime page from its tile (no page load)
    await page.goto('/manymonitor');
    const tiles = page.getByTestId('set-tile');
    await expect(tiles).toHaveCount(8);
    await expect(async () => {
      const shown = await pageWords(page, '[data-testid="set-tile"]', '.ant-card-head-title a');
      const server = await serverWords(page, token, lang);
      expect(shown.size).toBe(8);
      for (const [name, word] of shown) expect(word, `monitor ${name}`).toBe(server.get(name));
    }).toPass(AGREE);
    const names = await tiles.locator('.ant-card-head-title a').allInnerTexts();
    for (const name of names) {
      await page.getByTestId('set-tile').locator('.ant-card-head-title a', { hasText: name }).first().click();
      await expect(page.getByTestId('set-name')).toHaveText(name);
      await expect(async () => {
        const expected = (await serverWords(page, token, lang)).get(name);
        const top = (await page.getByTestId('set-status-tag').innerText()).trim();
        expect(top, `realtime top bar ${name}`).toBe(expected);
        const strip = page.getByTestId('state-engine').locator('[data-state]');
        if (await strip.count()) expect((await strip.innerText()).trim(), `realtime state ${name}`).toBe(expected);
        expect(known.has(top)).toBe(true);
      }).toPass(AGREE);
      await page.goBack();
      await expect(page.getByTestId('set-tile')).toHaveCount(8);
    }
  });
