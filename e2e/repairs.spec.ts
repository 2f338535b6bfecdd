// Repair requests in the browser. On a phone, someone who follows a set asks for a repair with a picture
// (previewed, sent with its progress) and lands on the request; the service company moves it along from its
// queue on a desk, in Chinese; the requester follows each step. In Spanish, a program renamed .jpg is refused
// by the server and a 50 MB picture by the form, each with a message in Spanish; a proper picture then goes.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';
import { api, apiLogin, PERSONAL, useToken } from './helpers.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
/** A console page loaded from scratch (its code and texts) on a busy machine. */
const LOADED = { timeout: 60_000 };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

interface Worker {
  personal: string;
  manager: string;
  set: { token: string; name: string };
  picture: Buffer;
}

/** One sign-in of each account per worker, and a set of the manager's that the personal user follows. */
const test = base.extend<object, { worker: Worker }>({
  worker: [
    async ({ playwright }, use, info) => {
      const baseURL = process.env.E2E_BASE_URL!;
      const request: APIRequestContext = await playwright.request.newContext({ baseURL });
      const manager = (await apiLogin(request, MANAGER)).utoken;
      const personal = (await apiLogin(request, PERSONAL)).utoken;
      const protocols = await api<{ key: string }[]>(request, '/genset/protocols', {}, manager);
      const name = `Zulu repair ${info.workerIndex} ${Date.now()}`;
      const added = await api<{ token: string; subscriptionCode: string }>(
        request,
        '/genset/add',
        { name, protocolKey: protocols.data[0]!.key },
        manager,
      );
      expect(added.code, added.msg).toBe(200);
      const sub = await api(request, '/sub/add', { code: added.data.subscriptionCode }, personal);
      expect(sub.code, sub.msg).toBe(200);
      const picture = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#d04020' } })
        .jpeg()
        .toBuffer();
      await use({ personal, manager, set: { token: added.data.token, name }, picture });
      await api(request, '/genset/del', { tokens: [added.data.token] }, manager);
      await request.dispose();
    },
    { scope: 'worker' },
  ],
});

async function signedInContext(browser: Browser, token: string, lang: string, phone: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL!,
    ...(phone ? PHONE : { viewport: { width: 1440, height: 900 } }),
  });
  await context.addInitScript((l) => localStorage.setItem('lang', l), lang);
  await useToken(context, token);
  return context;
}

async function fillForm(page: Page, o: { address: string; description: string }) {
  await page.getByLabel(/^(Service address|Dirección del servicio)$/).fill(o.address);
  await page.getByLabel(/^(Fault description|Descripción de la avería)$/).fill(o.description);
}

const fileInput = (page: Page) => page.getByTestId('repair-form').locator('input[type=file]');

test('on a phone a repair is requested with a picture; the service queue moves it on in Chinese; the requester follows', async ({
  browser,
  worker,
}) => {
  // two consoles (phone and desk), each loaded from scratch
  test.setTimeout(240_000);
  const phone = await signedInContext(browser, worker.personal, 'en-US', true);
  const desk = await signedInContext(browser, worker.manager, 'zh-CN', false);
  try {
    const page = await phone.newPage();
    await page.goto(`/baoxiu/add?token=${worker.set.token}`);
    const form = page.getByTestId('repair-form');
    // the first page of a context loads the whole console
    await expect(form).toBeVisible(LOADED);
    // the set is chosen, contact and phone are the user's own
    await expect(form.getByTestId('set-picker')).toContainText(worker.set.name);
    await expect(page.getByLabel('Contact', { exact: true })).toHaveValue('Pat Personal');
    await expect(page.getByLabel('Contact phone')).toHaveValue('13800000001');
    await fillForm(page, { address: 'Harbour Road 12, gate 3', description: 'Low oil pressure shutdown after start.' });
    await fileInput(page).setInputFiles({ name: 'oil-leak.jpg', mimeType: 'image/jpeg', buffer: worker.picture });
    await expect(form.locator('.ant-upload-list-item')).toHaveCount(1);
    // the form fits the phone's width
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByTestId('repair-submit').tap();
    await expect(page).toHaveURL(/\/baoxiu\/detail\/[A-Za-z0-9_-]+$/, LOADED);
    const requestToken = page.url().split('/').pop()!;
    const detail = page.getByTestId('repair-detail');
    await expect(detail.getByTestId('repair-state').first()).toHaveText('Submitted');
    const thumb = detail.getByTestId('repair-thumb');
    await expect(thumb).toBeVisible();
    await thumb.tap();
    await expect(page.getByTestId('repair-full-picture')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(detail.getByTestId('repair-service')).toHaveCount(0);

    // The service company's queue, in Chinese, on a desk.
    const service = await desk.newPage();
    await service.goto('/baoxiu/list?tab=queue');
    const item = service.locator(`[data-token="${requestToken}"]`);
    await expect(item.getByTestId('repair-state')).toHaveText('已提交', LOADED);
    await item.getByTestId('repair-link').click();
    await expect(service.getByTestId('repair-detail')).toBeVisible(LOADED);
    await service.getByTestId('repair-next-accepted').click();
    await service.getByTestId('repair-note').fill('Technician comes Monday 9:00');
    await service.getByTestId('repair-update').click();
    await expect(service.getByTestId('repair-detail').getByTestId('repair-state').first()).toHaveText('已受理');
    await service.getByTestId('repair-next-in_progress').click();
    await service.getByTestId('repair-update').click();
    await expect(service.getByTestId('repair-detail').getByTestId('repair-state').first()).toHaveText('维修中');
    await expect(service.getByTestId('repair-step')).toHaveCount(3);

    // The requester sees each step with its note.
    await page.reload();
    await expect(detail.getByTestId('repair-state').first()).toHaveText('In progress', LOADED);
    const steps = detail.getByTestId('repair-step');
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(1)).toContainText('Accepted');
    await expect(steps.nth(1)).toContainText('Technician comes Monday 9:00');
    await expect(steps.nth(1)).toContainText('Mia Manager');
    await page.goto('/baoxiu/list');
    await expect(page.locator(`[data-token="${requestToken}"]`).getByTestId('repair-state')).toHaveText(
      'In progress',
      LOADED,
    );
  } finally {
    await phone.close();
    await desk.close();
  }
});

test('in Spanish a program named .jpg and a 50 MB picture are refused with a message; a proper picture is sent', async ({
  browser,
  worker,
}, testInfo) => {
  test.setTimeout(240_000);
  const phone = await signedInContext(browser, worker.personal, 'es-ES', true);
  try {
    const page = await phone.newPage();
    await page.goto(`/baoxiu/add?token=${worker.set.token}`);
    await expect(page.getByTestId('repair-form')).toBeVisible(LOADED);
    await fillForm(page, { address: 'Calle Mayor 5', description: 'No arranca.' });

    // 50 MB: refused by the form before anything is sent
    const huge = testInfo.outputPath('enorme.jpg');
    writeFileSync(huge, Buffer.alloc(50 * 1024 * 1024, 0xff));
    await fileInput(page).setInputFiles(huge);
    await expect(page.getByText('«enorme.jpg» ocupa más de 10 MB.')).toBeVisible();
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(0);

    // a program renamed .jpg: the browser calls it a JPEG, the server reads its content and refuses it
    const program = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(4096)]);
    await fileInput(page).setInputFiles({ name: 'vacaciones.jpg', mimeType: 'image/jpeg', buffer: program });
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(1);
    await page.getByTestId('repair-submit').tap();
    await expect(page.getByText('«vacaciones.jpg» no es una foto JPEG, PNG o WebP.')).toBeVisible();
    await expect(page).toHaveURL(/\/baoxiu\/add/);

    // the program out, a proper picture in: sent
    await page
      .locator('.ant-upload-list-item')
      .getByRole('button', { name: /remove|eliminar/i })
      .tap();
    await expect(page.locator('.ant-upload-list-item')).toHaveCount(0);
    await fileInput(page).setInputFiles({ name: 'motor.jpg', mimeType: 'image/jpeg', buffer: worker.picture });
    await page.getByTestId('repair-submit').tap();
    await expect(page).toHaveURL(/\/baoxiu\/detail\//, LOADED);
    await expect(page.getByTestId('repair-state').first()).toHaveText('Enviada');
    await expect(page.getByTestId('repair-thumb')).toHaveCount(1);
  } finally {
    await phone.close();
  }
});
