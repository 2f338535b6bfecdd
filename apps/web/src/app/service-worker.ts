// Registers the console's service worker (/sw.js, built with the console: the app shell offline, Web Push) in
// a built console; the development server has none. The files this first visit loaded before the worker ran are
// handed to it to keep, so that the console opens offline from the next visit on.
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = async () => {
    try {
      await navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' });
      const ready = await navigator.serviceWorker.ready;
      const urls = performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((url) => new URL(url).pathname.startsWith('/assets/'));
      ready.active?.postMessage({ type: 'keep-assets', urls });
    } catch {
      // no worker (a private window, a browser that refuses it): the console works online as before
    }
  };
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
