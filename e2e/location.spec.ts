// A set's location tab: the demo trailer's track of the last hour is played back at ×10 along its road, the
// player's time moving to the end ten minutes of track a second; in Spanish the manager draws a polygon fence on
// a set of their own with clicks on the map, a fence whose edges cross is refused with the reason, a triangle is
// saved.
import type { APIRequestContext, Page } from '@playwright/test';
import type { GensetListResponse, TrackResponse } from '@genset/protocol';
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, toast, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
const LOADED = { timeout: 60_000 };

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

test.slow();

async function trailer(request: APIRequestContext, manager: string): Promise<string> {
  const list = await api<GensetListResponse>(request, '/genset/mylist', { search: 'Rental trailer' }, manager);
  expect(list.data.list.length, 'the demo trailer').toBeGreaterThan(0);
  return list.data.list[0]!.token;
}

/** Clicks the map at fractions of its box. */
async function clickMap(page: Page, points: [number, number][]) {
  const map = page.getByTestId('location-map');
  const box = (await map.boundingBox())!;
  for (const [x, y] of points) await map.click({ position: { x: box.width * x, y: box.height * y } });
}

/** Track time the player moves on each of its frames at ×1 (a minute of track a second, ten frames a second). */
const X1_STEP_MS = 6_000;

test('the trailer’s last hour plays back at ×10 along its road', async ({ page, manager }) => {
  const token = await trailer(page.request, manager);
  // the trailer reports a fix each time it has moved 50 m: wait until its road has a few, over more time than
  // three frames of the player at ×1, so that ×10 can be told from ×1 by the player's first step
  await expect(async () => {
    const now = Date.now();
    const track = await api<TrackResponse>(
      page.request,
      '/genset/guiji',
      { token, start: now - 3_600_000, end: now },
      manager,
    );
    const points = track.data.points;
    expect(points.length).toBeGreaterThanOrEqual(3);
    expect(points.at(-1)![0]! - points[0]![0]!).toBeGreaterThan(3 * X1_STEP_MS);
  }).toPass({ timeout: 120_000 });

  await useToken(page.context(), manager);
  await page.goto(`/top/guiji?token=${token}`);
  await expect(page.getByTestId('location-tab')).toBeVisible(LOADED);
  await expect(page.getByTestId('fence-state')).toHaveText(/Inside|Outside|At the edge/);
  await page.getByTestId('track-load').click();
  await expect(page.getByTestId('track-summary')).toContainText(/^\d+ fixes, \d+(\.\d)? km$/);
  const map = page.getByTestId('location-map');
  expect(Number(await map.getAttribute('data-points'))).toBeGreaterThanOrEqual(3);
  // the road is drawn
  await expect(map.locator('path.leaflet-interactive').first()).toBeVisible();

  const time = page.getByTestId('track-time');
  const start = Number(await time.getAttribute('data-at'));
  await page.getByText('×10').click();
  // the player's time at each of its frames, noted in the page as it moves (a short road ends between two looks)
  await time.evaluate((el) => {
    const steps: number[] = [];
    (window as unknown as { trackSteps: number[] }).trackSteps = steps;
    new MutationObserver(() => steps.push(Number(el.getAttribute('data-at')))).observe(el, {
      attributes: true,
      attributeFilter: ['data-at'],
    });
  });
  const steps = () => page.evaluate(() => (window as unknown as { trackSteps: number[] }).trackSteps);
  await page.getByTestId('track-play').click();
  await expect.poll(async () => (await steps()).length).toBeGreaterThan(0);
  // ×10 plays ten minutes of track a second: the last hour ends within seconds, and the player stops
  await expect(page.getByTestId('track-play')).toHaveText(/Play/, { timeout: 30_000 });
  const end = Number(await time.getAttribute('data-at'));
  const seen = await steps();
  expect(seen.at(-1)).toBe(end);
  expect(end - start).toBeGreaterThan(3 * X1_STEP_MS);
  // a frame at ×10 moves the time on by a minute of track, ten times a frame at ×1 (two frames may reach the
  // page as one); the last one stops at the end of the track
  const strides = seen.map((at, i) => at - (i === 0 ? start : seen[i - 1]!));
  expect(strides[0]).toBeGreaterThanOrEqual(Math.min(10 * X1_STEP_MS, end - start));
  for (const stride of strides.slice(0, -1)) {
    expect(stride).toBeGreaterThan(0);
    expect(stride % (10 * X1_STEP_MS)).toBe(0);
  }
});

test('in Spanish the manager draws a polygon fence; one whose edges cross is refused', async ({ browser, manager }) => {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL!,
    viewport: { width: 1280, height: 900 },
  });
  await context.addInitScript(() => localStorage.setItem('lang', 'es-ES'));
  await useToken(context, manager);
  const page = await context.newPage();
  const protocols = await api<{ key: string }[]>(page.request, '/genset/protocols', {}, manager);
  const added = await api<{ token: string }>(
    page.request,
    '/genset/add',
    { name: `Zulu fence ${Date.now()}`, protocolKey: protocols.data[0]!.key },
    manager,
  );
  const token = added.data.token;
  try {
    await page.goto(`/top/guiji?token=${token}`);
    await expect(page.getByTestId('fence-state')).toHaveText('Sin geocerca', LOADED);
    await page.getByRole('button', { name: 'Editar geocerca' }).click();
    const editor = page.getByTestId('fence-editor');
    await editor.getByText('Polígono').click();
    // a bow tie: its second and fourth corners swapped
    await clickMap(page, [
      [0.3, 0.3],
      [0.7, 0.7],
      [0.7, 0.3],
      [0.3, 0.7],
    ]);
    await page.getByTestId('fence-save').click();
    await expect(toast(page)).toContainText('los lados del polígono se cruzan');
    await expect(page.getByTestId('fence-editor')).toBeVisible();

    for (let i = 0; i < 4; i++) await editor.getByRole('button', { name: 'Deshacer el último vértice' }).click();
    await clickMap(page, [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.5, 0.7],
    ]);
    await page.getByTestId('fence-save').click();
    await expect(page.locator('.ant-message-notice', { hasText: 'Geocerca guardada.' })).toBeVisible();
    await expect(page.getByTestId('fence-editor')).toBeHidden();
    await expect(page.getByTestId('fence-state')).toHaveText('En el borde o aún sin posición');
    const fence = await api<{ fence: { type: string; points: unknown[] } }>(
      page.request,
      '/genset/fence',
      { token },
      manager,
    );
    expect(fence.data.fence.type).toBe('polygon');
    expect(fence.data.fence.points).toHaveLength(3);
  } finally {
    await api(page.request, '/genset/del', { tokens: [token] }, manager);
    await context.close();
  }
});
