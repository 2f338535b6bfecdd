// The video of a set in the browser: the demo set's camera plays on its video page (English) and on the
// stand-alone page (Chinese) — the <video> element's time advances — both pages share one ffmpeg on the
// server, and that ffmpeg ends within 30 s after the pages close.
/// <reference lib="dom" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { FFMPEG, programForTests } from '../scripts/system-programs.ts';
import { test, expect } from './fixtures.ts';
import { demoSetToken, openSignedIn, VIEWER } from './helpers.ts';

const ffmpeg = programForTests(FFMPEG, 'the browser test of camera video');
const SET = 'City Hospital standby';
const CAMERA = 'Engine room';

/** The server's stream processes: ffmpeg writing into this server's video directory. */
function streamProcesses(): number[] {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'video');
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    if (/ffmpeg$/.test(argv[0] ?? '') && argv.some((arg) => arg.startsWith(dir))) found.push(Number(pid));
  }
  return found;
}

/** Waits until the camera's picture is moving: the video element's time goes on. */
async function expectPlaying(page: Page) {
  const video = page.getByTestId('camera-video');
  await expect(video).toBeVisible();
  const time = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(time, { timeout: 30_000, message: 'the video starts' }).toBeGreaterThan(0.5);
  const started = await time();
  await expect.poll(time, { timeout: 15_000, message: 'the video time advances' }).toBeGreaterThan(started + 1);
  await expect(page.getByTestId('camera-problem')).toHaveCount(0);
}

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

test.skip(!ffmpeg || process.platform !== 'linux', 'needs ffmpeg (and /proc to find its processes)');

test('the demo set’s camera plays on its video page and on the stand-alone page, and its ffmpeg ends after they close', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const token = demoSetToken(SET);
  await openSignedIn(page, VIEWER, `/crewmanage/monitorVideo?token=${encodeURIComponent(token)}`);
  // the first page of a fresh browser loads the console's scripts: more time than a later step needs
  await expect(page.getByRole('heading', { name: `Video · ${SET}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('camera-list')).toContainText(CAMERA);
  // a viewer may watch, not manage
  await expect(page.getByRole('button', { name: 'Add camera' })).toHaveCount(0);
  await expect(page.getByLabel(`Live picture of ${CAMERA}`)).toBeVisible();
  await expectPlaying(page);
  expect(streamProcesses()).toHaveLength(1);
  expect(await seriousViolations(page)).toEqual([]);

  // the same camera on its own page, in Chinese, from the same session: the running ffmpeg serves both
  const standalone = await context.newPage();
  await standalone.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
  await page
    .getByRole('link', { name: `Open ${CAMERA} in its own window` })
    .getAttribute('href')
    .then((href) => standalone.goto(href!));
  await expect(standalone.getByRole('heading', { name: `${CAMERA} · ${SET}` })).toBeVisible({ timeout: 30_000 });
  await expect(standalone.getByLabel(`${CAMERA}的实时画面`)).toBeVisible();
  await expectPlaying(standalone);
  const running = streamProcesses();
  expect(running).toHaveLength(1);

  await standalone.close();
  await page.close();
  await expect
    .poll(() => streamProcesses().length, { timeout: 30_000, message: 'ffmpeg ends after the pages close' })
    .toBe(0);
});
