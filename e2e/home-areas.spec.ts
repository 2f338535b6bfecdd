// A fleet too large for the home map to show set by set (here past HOME_MAP_SETS=3, on a server of the test's own):
// the map draws areas of nearby sets with their count, says why, tells an area's sets by state when pointed at,
// zooms in on a click, and lists the areas in the list view; the same in Chinese.
import type { HomeSummaryResponse } from '@genset/protocol';
import { test, expect } from './fixtures.ts';
import { apiAt, signInAt } from './helpers.ts';
import { startOwnServer } from './own-server.ts';

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;
const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
/** A 1×1 transparent PNG standing in for map tiles. */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test.beforeAll(async () => {
  own = await startOwnServer('areas', { DEMO_FLEET: '0', DEMO_BACKFILL_DAYS: '0', HOME_MAP_SETS: '3' });
  const { app } = own.server;
  const manager = await app.database.db
    .selectFrom('users')
    .select('company_id')
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow();
  // five sets around Madrid, two around Istanbul: more than three, so two areas
  const towns = [
    { name: 'Madrid', lat: 40.4168, lng: -3.7038, sets: 5 },
    { name: 'Istanbul', lat: 41.0082, lng: 28.9784, sets: 2 },
  ];
  for (const town of towns)
    for (let i = 0; i < town.sets; i++)
      await app.devices.fleet.createGenset({
        companyId: manager.company_id!,
        ownerUserId: null,
        name: `${town.name} ${i + 1}`,
        modemId: null,
        protocolKey: 'genset-layout-s',
        details: { latitude: String(town.lat + i * 0.01), longitude: String(town.lng + i * 0.01) },
      });
  app.gensets.directory.invalidate();
});
test.afterAll(async () => own?.close());

test('a fleet past the map’s limit is drawn by area, counted by state, and listed by area', async ({ page }) => {
  await page.route('https://tile.openstreetmap.org/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: TILE }),
  );
  const url = own!.server.url;
  const token = await signInAt(page, url, MANAGER);
  const summary = (await apiAt<HomeSummaryResponse>(page.request, url, '/home/summary', {}, token)).data;
  expect(summary.positions).toEqual([]);
  expect(summary.areas.map((a) => a.sets)).toEqual([5, 2]);

  await page.goto(`${url}/index`);
  const map = page.getByTestId('fleet-map');
  await expect(map).toHaveAttribute('data-view', 'map');
  await expect(map.getByTestId('map-by-area')).toHaveText(
    '7 sets have a known position, too many to show one by one: nearby sets are counted together by area.',
  );
  const discs = map.getByTestId('map-area');
  await expect(discs).toHaveText(['5', '2']);
  // no set drawn one by one
  await expect(map.locator('path.leaflet-interactive')).toHaveCount(0);

  // pointed at, an area tells its sets by state (none has reported: all offline)
  await discs.first().hover();
  await expect(page.locator('.leaflet-tooltip')).toHaveText('Area around 40.44, -3.68Sets: 5 · Offline 5');
  // a click zooms to where its sets are
  const zoomBefore = await page.evaluate(() => document.querySelector('.leaflet-proxy')?.getAttribute('style'));
  await discs.first().click();
  await expect
    .poll(() => page.evaluate(() => document.querySelector('.leaflet-proxy')?.getAttribute('style')))
    .not.toBe(zoomBefore);

  await map.getByText('List', { exact: true }).click();
  await expect(map.getByTestId('map-list-area')).toHaveText([
    'Area around 40.44, -3.68Sets: 5 · Offline 5',
    'Area around 41.01, 28.98Sets: 2 · Offline 2',
  ]);

  // the same in Chinese
  await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
  await page.reload();
  await expect(page.getByTestId('map-by-area')).toHaveText(
    '有已知位置的机组共 7 台，无法逐台显示：相邻的机组按区域合并计数。',
  );
  await expect(page.getByTestId('map-area')).toHaveText(['5', '2']);
});
