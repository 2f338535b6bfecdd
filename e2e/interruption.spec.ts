// When the server cannot reach its database (or broker, or Redis) it tells every open console, and every page
// says above its content that live data is interrupted, until the server says it is back. The outage itself
// is the fault test's (apps/server/test/faults.test.ts); here the server's own health record is set, on a
// server of the test's own, and the console is watched through the real realtime channel.
import { test, expect } from './fixtures.ts';
import { startOwnServer } from './own-server.ts';

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.beforeAll(async () => {
  own = await startOwnServer('interruption', {
    DEMO_BACKFILL_DAYS: '0',
    DEMO_STATION_BACKFILL_DAYS: '0',
    // the server's own checks (every 3 s by default) would find its database answering and end the outage the test
    // sets, before the page had been looked at
    HEALTH_WATCH_MS: '3600000',
  });
});

test.afterAll(async () => own?.close());

test('a page says live data is interrupted while the server cannot reach its database, in the user’s language', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'ru-RU'));
  await page.goto(`${own!.server.url}/login`);
  await page.locator('#login_username').fill('manager@example.com');
  await page.locator('#login_password').fill('Demo#2026');
  await page.getByTestId('login-submit').click();
  // the home page follows the sets over the realtime channel
  await expect(page.getByTestId('status-counts')).toBeVisible();
  const banner = page.getByTestId('live-data-banner');
  await expect(banner).toHaveCount(0);

  const health = own!.server.app.devices.health;
  // (told at once if the console is connected, else with its first heartbeat)
  health.set(['database']);
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Поток данных в реальном времени прерван');
  await expect(banner).toContainText('базой данных');
  await expect(banner).toHaveAttribute('role', 'alert');
  // (units in Cyrillic too, as everywhere in Russian)
  await expect(page.getByTestId('total-kw')).toContainText('кВт');

  health.set([]);
  await expect(banner).toHaveCount(0);
});
