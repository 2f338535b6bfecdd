// Browser tests of the console against the real server (started once by e2e/global-setup.ts) in Chromium
// (the test command's preflight finds or gets one).
import { defineConfig } from '@playwright/test';
import { CHROMIUM, programPath } from './scripts/system-programs.ts';

const LONG = /(page-audit|first-look)\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // Two browsers at once (what CI runs): on two cores, two workers in Chromium's headless shell took 15.8 min
  // where one in the full browser took about 23 (BENCHMARKS.md, "Test suite and CI")
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: true,
  // a test that fails is run once more and, if it then passes, reported as flaky (CI runs with this default;
  // E2E_RETRIES=0 fails on the first failure)
  retries: Number(process.env.E2E_RETRIES ?? 1),
  timeout: 60_000,
  // a page's first visit loads its code on demand, which on a small CI machine running two workers and the
  // server takes up to several seconds
  expect: { timeout: 20_000 },
  reporter: [['list']],
  // The longest tests (the page audit's languages and sizes, a minute or more each; the first look, which writes a
  // month of the demo's past) are handed out first, so that neither worker is left running one of them alone at the
  // end: tests are handed out in the order of the projects, then of files and tests.
  // The page audit and the first look see the console as most people do, with its motion; the other tests run it
  // as those who ask their system for less motion do (no transitions, no pulsing dots): an animation that never
  // ends keeps each headless browser redrawing in software, a third of a core each.
  projects: [
    { name: 'long', testMatch: LONG },
    { name: 'console', testIgnore: LONG, use: { reducedMotion: 'reduce' } },
  ],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    // The console's service worker keeps every file a page loads and answers each of its requests: a new browser per
    // test would install it and fill its cache again. Only the tests of the installable console and its push notices
    // (push.spec.ts) run with it.
    serviceWorkers: 'block',
    headless: true,
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    timezoneId: 'Asia/Shanghai',
    // A trace records a picture of the page at every change: on two cores that took more than half of the
    // browsers' time (22 tests: 185 s with a trace of each, 74 s without). A test that fails is traced on its
    // retry; E2E_TRACE=retain-on-failure traces every test (to look at a failure that does not come back).
    trace: (process.env.E2E_TRACE as 'on-first-retry' | 'retain-on-failure' | undefined) ?? 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      // CHROMIUM_PATH, PATH, Debian's /usr/bin/chromium or Playwright's cache (scripts/system-programs.ts)
      executablePath: programPath(CHROMIUM) ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
