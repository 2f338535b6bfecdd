// The console's app icons (manifest, home screen, notifications) drawn from apps/web/public/favicon.svg by the
// Chromium the browser tests use: `npx tsx scripts/app-icons.ts` writes apps/web/public/icons/*.png. The maskable
// icon fills its square with the favicon's blue and keeps the mark inside the central safe circle (80 %), so a
// launcher may cut it to any shape; the others are the favicon as it is.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM, programPath } from './system-programs.ts';

const WEB = join(import.meta.dirname, '..', 'apps', 'web', 'public');
const favicon = readFileSync(join(WEB, 'favicon.svg'), 'utf8');
const fill = /<rect[^>]*fill="([^"]+)"/.exec(favicon)?.[1] ?? '#1677ff';
const mark = /<path[^>]*\/>/.exec(favicon)?.[0] ?? '';
// the mark at 62 % of the square, centred: its corners stay inside the safe circle
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${fill}"/><g transform="translate(12.16 12.16) scale(0.62)">${mark}</g></svg>`;

const ICONS: { file: string; size: number; svg: string }[] = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'maskable-512.png', size: 512, svg: maskable },
  { file: 'apple-touch-icon.png', size: 180, svg: maskable },
];

const browser = await chromium.launch({
  executablePath: programPath(CHROMIUM) ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
mkdirSync(join(WEB, 'icons'), { recursive: true });
for (const icon of ICONS) {
  const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
  const src = `data:image/svg+xml;base64,${Buffer.from(icon.svg).toString('base64')}`;
  await page.setContent(
    `<html><body style="margin:0;background:transparent"><img src="${src}" width="${icon.size}" height="${icon.size}" style="display:block"></body></html>`,
  );
  await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
  await page.screenshot({ path: join(WEB, 'icons', icon.file), omitBackground: true });
  await page.close();
  console.log(`icons/${icon.file} (${icon.size}×${icon.size})`);
}
await browser.close();
