// The console's service worker (built into the console as /sw.js with the build's id, vite.config.ts):
// - keeps the app shell: index.html, the scripts and styles it loads, and every hashed file of /assets/ the console
//   has fetched, so that a route opened before opens again when the network is down;
// - a route never opened (or anything when nothing is kept yet) shows the offline page instead;
// - never touches calls to the server (/yewu, /api, /dev-api, the realtime channel, uploads): they go to the
//   network as if there were no worker;
// - a new build is a new worker (its id changes): it takes over at once and drops the previous build's files;
// - shows Web Push notices, and opens the console page a notice leads to when it is tapped.
const BUILD = '__BUILD__';
const SHELL = `console-shell-${BUILD}`;
/** Routes that have opened online (their paths, without query): those open offline from the shell. */
const ROUTES = 'console-routes';
const START_URL = '/index';
const STATIC = [
  '/index.html',
  '/offline.html',
  '/offline.js',
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/maskable-512.png',
];
const NEVER = /^\/(yewu|api|dev-api|ws|uploads)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL);
      await shell.addAll(STATIC.map((url) => new Request(url, { cache: 'reload' })));
      // the entry script and styles index.html names (the page that registered us loaded them before we ran)
      const html = await (await shell.match('/index.html')).text();
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      await shell.addAll(assets);
      await (await caches.open(ROUTES)).put(START_URL, new Response(''));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith('console-shell-') && key !== SHELL) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

/** Keeps hashed files of the console (those the page loaded before this worker controlled it). */
async function keepAssets(urls) {
  const shell = await caches.open(SHELL);
  for (const href of urls) {
    const url = new URL(href, self.location.origin);
    if (url.origin !== self.location.origin || !url.pathname.startsWith('/assets/')) continue;
    if (await shell.match(url.pathname)) continue;
    try {
      const res = await fetch(url.pathname);
      if (res.ok) await shell.put(url.pathname, res);
    } catch {
      // offline now: it is kept when next fetched
    }
  }
}

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'keep-assets' && Array.isArray(event.data.urls)) {
    event.waitUntil(keepAssets(event.data.urls));
  }
});

async function navigate(request, url) {
  try {
    const res = await fetch(request);
    if (res.ok && (res.headers.get('content-type') || '').startsWith('text/html')) {
      await (await caches.open(ROUTES)).put(url.pathname, new Response(''));
      await (await caches.open(SHELL)).put('/index.html', res.clone());
    }
    return res;
  } catch {
    const known = url.pathname === '/' || (await (await caches.open(ROUTES)).match(url.pathname));
    const shell = await caches.open(SHELL);
    return (known && (await shell.match('/index.html'))) || (await shell.match('/offline.html')) || Response.error();
  }
}

/** Hashed files never change: kept after their first fetch, answered from the cache from then on. */
async function asset(request) {
  const shell = await caches.open(SHELL);
  const kept = await shell.match(request);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok) await shell.put(request, res.clone());
  return res;
}

/** The other files of the shell: the network's when it answers, else what is kept. */
async function fresh(request) {
  try {
    return await fetch(request);
  } catch {
    return (await (await caches.open(SHELL)).match(request)) || Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request, url));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(asset(request));
  else if (STATIC.includes(url.pathname)) event.respondWith(fresh(request));
});

// Web Push: { title, body, url, tag } (the server's PushPayload); one notification per set (its tag).
self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Genset Cloud', {
      body: data.body || '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: data.tag || '',
      renotify: Boolean(data.tag),
      data: { url: data.url || START_URL },
    }),
  );
});

/** Opens a console page: in a window of the console already open (brought to the front), else in a new one. */
async function openPage(path) {
  const target = new URL(path, self.location.origin);
  if (target.origin !== self.location.origin) return;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    try {
      await open.focus();
    } catch {
      // focusing needs the tap itself; the page still changes
    }
    try {
      await open.navigate(target.href);
      return;
    } catch {
      // a window this worker does not control cannot be led elsewhere: a new one opens
    }
  }
  await self.clients.openWindow(target.href);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const done = openPage((event.notification.data && event.notification.data.url) || START_URL);
  try {
    event.waitUntil(done);
  } catch {
    // an event not from the browser itself cannot extend its life; the page is opened all the same
  }
});
