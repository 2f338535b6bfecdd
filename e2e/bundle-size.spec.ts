// The built sign-in route loads at most 310 KB of gzipped JavaScript: every script the page actually
// fetches is gzipped here and summed. (299.4 KB in 42 files before the bundler split the form and input
// modules the sign-in form shares with later pages into files of their own: 303.7 KB in 47 files, the same code.)
import { gzipSync } from 'node:zlib';
import { test, expect } from './fixtures.ts';

const LIMIT_BYTES = 310 * 1024;

test('the sign-in route loads at most 310 KB of gzipped JavaScript', async ({ page }, testInfo) => {
  const scripts = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    const url = response.url();
    const type = response.headers()['content-type'] ?? '';
    if (/\.m?js(\?|$)/.test(new URL(url).pathname) || type.includes('javascript')) {
      scripts.set(url, response.body());
    }
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  let raw = 0;
  let gzipped = 0;
  const sizes: [string, number][] = [];
  for (const [url, body] of scripts) {
    const size = gzipSync(await body, { level: 9 }).length;
    raw += (await body).length;
    gzipped += size;
    sizes.push([new URL(url).pathname, size]);
  }
  const largest = sizes
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([path, size]) => `  ${(size / 1024).toFixed(1).padStart(6)} KB  ${path}`);
  const line = `sign-in route: ${scripts.size} scripts, ${(raw / 1024).toFixed(1)} KB raw, ${(gzipped / 1024).toFixed(1)} KB gzipped (limit 310 KB)`;
  console.log([line, ...largest].join('\n'));
  testInfo.annotations.push({ type: 'bundle-size', description: line });
  expect(scripts.size).toBeGreaterThan(0);
  expect(gzipped).toBeLessThanOrEqual(LIMIT_BYTES);
});
