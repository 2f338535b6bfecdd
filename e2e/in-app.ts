// Moving about the console as a user does once it has loaded: a path opened inside the single-page app (no reload,
// so no new start of the console), then a wait until nothing on the page is loading or moving.
/// <reference lib="dom" />
import type { Page } from '@playwright/test';

/** Opens a path inside the single-page app (no reload) and waits until nothing on it is loading. */
export async function openInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(
      { usr: null, key: Math.random().toString(36).slice(2, 10), idx: window.history.length },
      '',
      to,
    );
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    window.scrollTo(0, 0);
  }, path);
  await settle(page);
}

/**
 * Waits (at most 3 s) until the page has shown no skeleton, spinner, busy mark or entering transition for 150 ms and
 * a horizontal menu's entries stay where they are; a page still loading then is looked at as it is.
 */
export async function settle(page: Page) {
  await page.evaluate(async () => {
    const started = performance.now();
    let quietSince = started;
    // A horizontal menu fits its entries to its width over a few frames (those that do not fit go to its "…"): it
    // is looked at once they stay where they are.
    const menuLayout = () =>
      [...document.querySelectorAll('.ant-menu-horizontal > .ant-menu-overflow-item')]
        .map((item) => {
          const r = item.getBoundingClientRect();
          return `${Math.round(r.left)}:${Math.round(r.width)}:${item.checkVisibility({ opacityProperty: true })}`;
        })
        .join();
    let lastMenu = menuLayout();
    // at most 3 s: a page still loading then is looked at as it is
    while (performance.now() - started < 3000) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 40)));
      const busy = document.querySelector(
        '.ant-skeleton, .ant-spin-spinning, .ant-table-placeholder .ant-spin, [aria-busy="true"], [class*="-enter"], [class*="-appear"]',
      );
      const menu = menuLayout();
      const moving = menu !== lastMenu;
      lastMenu = menu;
      if (busy || moving) quietSince = performance.now();
      else if (performance.now() - quietSince > 150) return;
    }
  });
}

/**
 * Records the page's Content-Security-Policy violations (reported to the page, or on its console) from its next load
 * on; the function returned gives those since it was last called.
 */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener(
      'securitypolicyviolation',
      (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
      true,
    );
  });
  const onConsole: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) onConsole.push(m.text());
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations.splice(0))),
    ...onConsole.splice(0),
  ];
}
