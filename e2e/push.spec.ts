// The console as an installed web app: its manifest has what an installability check asks for (name, short name,
// start address, standalone display, PNG icons of 192 and 512 pixels that load as such), its service worker
// registers and controls the page, the console opens its shell with the network down (its person still signed
// in), and a route never opened shows the offline page in the language the console was used in.
// Web Push in headless Chromium, part real and part driven:
// - real: "Notify this device" asks the browser's push service for a subscription with the server's key; Chromium
//   without Google's push service refuses, and the console says so in words;
// - driven: the push message is delivered straight to the service worker through the DevTools protocol
//   (ServiceWorker.deliverPushMessage), and the worker's own push handler runs on it;
// - Chromium's headless shell has no notification service (showNotification is refused whatever permission was
//   granted): there the worker's calls to showNotification are recorded; a full Chromium shows and reads back the
//   real notifications;
// - the click is a notificationclick event dispatched in the worker (nothing to click headless), whose handler
//   leads the open console window to the set's alarms.
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { test, expect } from './fixtures.ts';
import { ADMIN, api, baseUrl, openSignedIn, TOKEN_COOKIE } from './helpers.ts';

// the other tests run without the console's service worker (playwright.config.ts); these are about it
test.use({ serviceWorkers: 'allow' });

/** What the service worker's global scope offers the tests (the DOM's types have no worker scope). */
interface Scope extends EventTarget {
  registration: ServiceWorkerRegistration;
  NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
}

/** Width and height from a PNG's IHDR chunk (and that it is a PNG). */
function pngSize(bytes: Buffer): { png: boolean; width: number; height: number } {
  const signature = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { png: signature, width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The console's service worker once it controls the page (claimed at activation). */
async function controlled(page: Page, context: BrowserContext): Promise<Worker> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const worker = context.serviceWorkers().find((w) => w.url().endsWith('/sw.js'));
  return worker ?? context.waitForEvent('serviceworker', { predicate: (w) => w.url().endsWith('/sw.js') });
}

/** Waits until the worker keeps the shell and every script and style this page loaded. */
async function shellKept(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const name = (await caches.keys()).find((k) => k.startsWith('console-shell-'));
          if (!name) return ['no shell cache'];
          const cache = await caches.open(name);
          const loaded = performance
            .getEntriesByType('resource')
            .map((e) => new URL(e.name))
            .filter((u) => u.origin === location.origin && u.pathname.startsWith('/assets/'))
            .map((u) => u.pathname);
          const wanted = ['/index.html', '/offline.html', '/offline.js', ...loaded];
          const missing: string[] = [];
          for (const path of wanted) if (!(await cache.match(path))) missing.push(path);
          return missing;
        }),
      { message: 'files of the shell not kept by the service worker' },
    )
    .toEqual([]);
}

test('the manifest has what an installability check needs, and its icons are PNGs of their sizes', async ({
  request,
}) => {
  const res = await request.get(`${baseUrl()}/manifest.webmanifest`);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  expect(res.headers()['cache-control']).toBe('no-cache');
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({
    name: 'Genset Cloud',
    short_name: 'Genset Cloud',
    start_url: '/index',
    scope: '/',
    display: 'standalone',
    theme_color: '#1677ff',
    background_color: '#f5f5f5',
  });
  const png = manifest.icons.filter((i) => i.type === 'image/png');
  expect(png.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort()).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of png) {
    const file = await request.get(new URL(icon.src, baseUrl()).href);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toBe('image/png');
    const size = Number(icon.sizes.split('x')[0]);
    expect(pngSize(await file.body()), icon.src).toEqual({ png: true, width: size, height: size });
  }

  const sw = await request.get(`${baseUrl()}/sw.js`);
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toMatch(/^(application|text)\/javascript/);
  expect(sw.headers()['cache-control']).toBe('no-cache');
  expect(await sw.text()).not.toContain('__BUILD__');

  const page = await request.get(`${baseUrl()}/index`);
  const html = await page.text();
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
  expect(html).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"');
  const csp = page.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("worker-src 'self'");
  // the manifest is fetched under default-src when no manifest-src narrows it
  expect(csp).toMatch(/default-src 'self'/);
  expect(csp).not.toContain('manifest-src');
});

test('the service worker controls the console, which opens offline; a route never opened shows the offline page', async ({
  page,
  context,
}) => {
  await openSignedIn(page, ADMIN, '/index');
  await controlled(page, context);
  // a second page of the console, opened while the worker controls the page
  await page.goto('/user/personal');
  await expect(page.getByTestId('message-settings').or(page.getByRole('tab').first())).toBeVisible();
  await shellKept(page);
  // nothing of the server's calls is ever kept
  const kept = await page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    return paths;
  });
  expect(kept).toContain('/index.html');
  expect(kept.filter((path) => /^\/(yewu|api|dev-api|ws|uploads)(\/|$)/.test(path))).toEqual([]);

  await context.setOffline(true);
  try {
    await page.reload();
    // the console's own page, not the offline page: its script runs from what the worker kept
    await expect(page.locator('#root')).not.toBeEmpty();
    await expect(page.getByTestId('offline-page')).toHaveCount(0);
    expect(await page.evaluate(() => document.querySelector('script[src^="/assets/"]') !== null)).toBe(true);
    // its calls fail without a network: it waits for the network, and the person stays signed in (not sent to
    // sign in, the session token kept)
    await expect(page.getByRole('status')).toContainText('Loading');
    await expect(page).toHaveURL(`${baseUrl()}/user/personal`);
    expect((await context.cookies()).some((c) => c.name === TOKEN_COOKIE && c.value !== '')).toBe(true);

    await page.goto('/help/list');
    await expect(page.getByTestId('offline-page')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();

    // in the language the console was last used in
    await page.evaluate(() => localStorage.setItem('lang', 'zh-CN'));
    await page.reload();
    await expect(page.getByRole('heading', { name: '当前处于离线状态' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await page.evaluate(() => localStorage.setItem('lang', 'en-US'));
  } finally {
    await context.setOffline(false);
  }
  // back online, the same address is the console's own page (the offline page may be reloading itself on the
  // browser's "online" event meanwhile: a reload it interrupts is tried again)
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('offline-page')).toHaveCount(0, { timeout: 2000 });
  }).toPass();
  await expect(page).toHaveURL(`${baseUrl()}/help/list`);
  await expect(page.locator('#root')).not.toBeEmpty();
});

test('a push reaches the service worker, which shows its notification, and a click on it opens the set’s alarms', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseUrl() });
  const token = await openSignedIn(page, ADMIN, '/user/personal?tab=messages');
  const worker = await controlled(page, context);
  const sets = JSON.parse(process.env.E2E_SETS ?? '{}') as Record<string, string>;
  const [setName, setToken] = Object.entries(sets)[0]!;

  // The real browser path: the console's "Notify this device" asks the browser's push service with the server's
  // key. Headless Chromium has no push service of Google's to reach: it refuses, and the console says so.
  const key = await api<{ publicKey: string }>(page.request, '/push/key', undefined, token);
  expect(key.code).toBe(200);
  await page.getByTestId('push-subscribe').click();
  await expect(page.getByTestId('push-failed').or(page.getByTestId('push-this-on'))).toBeVisible();
  const subscribed = await page.getByTestId('push-this-on').isVisible();
  test.info().annotations.push({
    type: 'push subscription',
    description: subscribed
      ? 'pushManager.subscribe succeeded in this browser'
      : 'pushManager.subscribe refused (no push service): the push below is delivered through DevTools',
  });
  if (!subscribed) {
    await expect(page.getByTestId('push-failed')).toHaveText(
      'This browser could not register with its push service. Check the network connection and try again later.',
    );
  }

  // Driven: the push message the server would send, handed to the service worker by the DevTools protocol.
  const payload = {
    title: `${setName}: Low oil pressure`,
    body: `Alarm (shutdown) on ${setName}: Low oil pressure.`,
    url: `/top/baojing?token=${encodeURIComponent(setToken)}`,
    tag: `set:${setToken}`,
  };
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const mine = event.registrations.find((r) => r.scopeURL === `${baseUrl()}/` && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');

  // Chromium's headless shell has no notification service: it refuses showNotification whatever permission was
  // granted. There, the worker's showNotification is replaced by a recorder (the worker's own code is unchanged and
  // calls it as it would the browser's); in a full Chromium the real notifications are read back.
  const real = await worker.evaluate(() => Notification.permission === 'granted');
  test.info().annotations.push({
    type: 'notification',
    description: real
      ? 'shown by the browser and read back with registration.getNotifications()'
      : 'this Chromium cannot show notifications: the worker’s showNotification calls are recorded instead',
  });
  if (!real) {
    await worker.evaluate(() => {
      const scope = globalThis as unknown as Scope & { shownForTest: object[] };
      scope.shownForTest = [];
      scope.registration.showNotification = async (title: string, options?: NotificationOptions) => {
        scope.shownForTest.push({ title, ...options });
      };
    });
  }
  const shown = () =>
    worker.evaluate(async (real) => {
      const scope = globalThis as unknown as Scope & { shownForTest: (NotificationOptions & { title: string })[] };
      const list = real ? await scope.registration.getNotifications() : scope.shownForTest;
      return list.map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        icon: new URL(n.icon!, location.origin).pathname,
        url: (n.data as { url: string }).url,
      }));
    }, real);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: baseUrl(),
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  });
  const expected = { title: payload.title, body: payload.body, tag: payload.tag, icon: '/icons/icon-192.png' };
  await expect
    .poll(shown, { message: 'the notification the service worker shows' })
    .toEqual([{ ...expected, url: payload.url }]);

  // a second push for the same set: the same tag (in a real browser it replaces the first)
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: baseUrl(),
    registrationId: await registrationId,
    data: JSON.stringify({ ...payload, body: `${payload.body} (2)` }),
  });
  await expect
    .poll(async () => (await shown()).map((n) => `${n.tag} ${n.body}`))
    .toEqual(
      real
        ? [`${payload.tag} ${payload.body} (2)`]
        : [`${payload.tag} ${payload.body}`, `${payload.tag} ${payload.body} (2)`],
    );

  // The click: headless Chromium shows nothing to click, so the worker is handed the event a click makes (a real
  // NotificationEvent where there is a real notification, else an event carrying what the notification holds).
  await worker.evaluate(
    async ([real, url]) => {
      const scope = globalThis as unknown as Scope;
      if (real) {
        const [notification] = await scope.registration.getNotifications();
        scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
      } else {
        const notification = { data: { url }, close: () => undefined };
        scope.dispatchEvent(Object.assign(new Event('notificationclick'), { notification }));
      }
    },
    [real, payload.url] as const,
  );
  await expect(page).toHaveURL(`${baseUrl()}${payload.url}`);
  if (real) await expect.poll(async () => (await shown()).length).toBe(0);
  await cdp.detach();
});
