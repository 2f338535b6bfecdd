// Firmware upgrades: on a server of the test's own with a real cloud module (the gateway) connected, the
// manager uploads a module firmware file on the Upgrades page, sees its size and hashes, upgrades the set with
// it and follows the upgrade live to "Updated"; the set's page shows it in its upgrade history. In Chinese, a
// file whose declared SHA-256 does not match is refused in Chinese and nothing is listed. The server is the
// test's own so that the shared demo fleet's modules keep their firmware.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { buildModuleImage, silentLogger, startGateway, type Gateway } from '@genset/gateway';
import { translate } from '../apps/server/src/i18n/messages.ts';
import { test, expect } from './fixtures.ts';
import { chooseOption, signInAt, toast } from './helpers.ts';
import { startOwnServer } from './own-server.ts';

const MODEL = 'GW-E2E';
const LOADED = { timeout: 60_000 };

let own: Awaited<ReturnType<typeof startOwnServer>> | undefined;
let gateway: Gateway | undefined;
let gatewayDir = '';
let setToken = '';
const SET_NAME = 'Upgrade yard set';

test.beforeAll(async () => {
  own = await startOwnServer('ota', { DEMO_FLEET: '0', DEMO_BACKFILL_DAYS: '0', OTA_TICK_MS: '200' });
  const { app } = own.server;
  const manager = await app.database.db
    .selectFrom('users')
    .select('company_id')
    .where('account', '=', 'manager@example.com')
    .executeTakeFirstOrThrow();
  const modemKey = `E2EOTA${Date.now()}`;
  const modem = await app.devices.fleet.createModem({ companyId: manager.company_id, modemKey });
  const set = await app.devices.fleet.createGenset({
    companyId: manager.company_id,
    ownerUserId: null,
    name: SET_NAME,
    modemId: modem.id,
    protocolKey: 'genset-layout-s',
  });
  app.devices.ingest.invalidate();
  app.gensets.directory.invalidate();
  setToken = set.token;
  gatewayDir = mkdtempSync(join(tmpdir(), 'e2e-ota-gateway-'));
  gateway = await startGateway(
    {
      modemId: modemKey,
      secret: modem.secret,
      brokerUrl: `mqtt://127.0.0.1:${app.devices.transport.port}`,
      dataDir: gatewayDir,
      model: MODEL,
      firmware: '1.0.0',
      ports: [],
      mqttReconnect: { minMs: 50, maxMs: 500 },
    },
    { logger: silentLogger },
  );
  await expect
    .poll(
      async () =>
        (await app.database.db.selectFrom('modem').select('model').where('id', '=', modem.id).executeTakeFirst())
          ?.model,
      { timeout: 20_000 },
    )
    .toBe(MODEL);
});

test.afterAll(async () => {
  await gateway?.close();
  await own?.close();
  if (gatewayDir) rmSync(gatewayDir, { recursive: true, force: true });
});

/** Signs the manager in on the test's own server and keeps the session in the browser. */
async function signIn(page: Page) {
  await signInAt(page, own!.server.url, { username: 'manager@example.com', password: 'Demo#2026' });
}

test.slow();
// both tests share the one server and module started above
test.describe.configure({ mode: 'serial' });

test('the manager uploads module firmware, upgrades a set with it and follows it live to updated', async ({ page }) => {
  const image = buildModuleImage({ version: '2.0.0' }, 300_000);
  await signIn(page);
  await page.goto(`${own!.server.url}/site/upgrade`);
  const files = page.getByTestId('firmware-files');
  await page.getByRole('button', { name: 'Upload firmware' }).click(LOADED);

  const upload = page.getByRole('dialog', { name: 'Upload firmware' });
  await upload.getByLabel('Name').fill('Yard module build');
  await upload.getByLabel('Version').fill('2.0.0');
  await upload.getByLabel('Model').fill(MODEL);
  await upload.locator('input[type=file]').setInputFiles({
    name: 'gw-2.0.0.bin',
    mimeType: 'application/octet-stream',
    buffer: image,
  });
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(upload).toBeHidden();

  const row = files.getByRole('row', { name: /Yard module build/ });
  await expect(row).toContainText('2.0.0');
  const size = new Intl.NumberFormat('en-US', {
    style: 'unit',
    unit: 'kilobyte',
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(image.length / 1024);
  await expect(row).toContainText(size);
  const md5 = createHash('md5').update(image).digest('hex');
  const sha = createHash('sha256').update(image).digest('hex');
  await expect(row).toContainText(`MD5 ${md5.slice(0, 12)}`);
  await expect(row).toContainText(`SHA-256 ${sha.slice(0, 12)}`);

  await row.getByRole('button', { name: 'Upgrade sets' }).click();
  const assign = page.getByRole('dialog', { name: 'Upgrade sets with Yard module build 2.0.0' });
  await chooseOption(page, assign.getByTestId('assign-sets'), SET_NAME);
  await assign.getByRole('button', { name: 'Start upgrade' }).click();
  await expect(assign).toBeHidden();

  // the file's upgrades, live: the module downloads, verifies, restarts on 2.0.0 and says so
  await row.getByRole('button', { name: 'Expand row' }).click();
  const jobs = page.getByTestId('firmware-upgrades');
  const job = jobs.getByRole('row', { name: new RegExp(SET_NAME) });
  await expect(job.getByTestId('ota-job-state')).toHaveText('Updated', { timeout: 30_000 });
  await expect(job).toContainText('1.0.0 → 2.0.0');
  await expect(row.getByTestId('firmware-counts')).toContainText('Updated: 1');
  expect(gateway!.stats.firmware).toBe('2.0.0');

  // the set's own page keeps the history
  await page.goto(`${own!.server.url}/crewmanage/detail/${setToken}`);
  const history = page.getByTestId('set-upgrades');
  await expect(history.getByRole('row', { name: /Yard module build/ })).toContainText('Updated', LOADED);
});

test('in Chinese a file whose SHA-256 does not match is refused in Chinese and nothing is kept', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'zh-CN'));
  await signIn(page);
  await page.goto(`${own!.server.url}/site/upgrade`);
  await expect(page.getByRole('menuitem', { name: '远程升级' })).toBeVisible(LOADED);
  await page.getByRole('button', { name: '上传固件' }).click();
  const upload = page.getByRole('dialog', { name: '上传固件' });
  await upload.getByLabel('名称').fill('损坏的构建');
  await upload.getByLabel('版本').fill('9.9.9');
  await upload.getByLabel('型号').fill(MODEL);
  await upload.getByLabel('预期 SHA-256（可选）').fill('0'.repeat(64));
  await upload.locator('input[type=file]').setInputFiles({
    name: 'bad.bin',
    mimeType: 'application/octet-stream',
    buffer: buildModuleImage({ version: '9.9.9' }, 1000),
  });
  // (Ant Design spaces out a button's two Chinese characters)
  await upload.getByRole('button', { name: /^上\s?传$/ }).click();
  await expect(toast(page)).toHaveText(translate('zh-CN', 'ota.hashMismatch', { hash: 'SHA-256' }));
  await upload.getByRole('button', { name: /^取\s?消$/ }).click();
  await expect(page.getByTestId('firmware-files')).not.toContainText('损坏的构建');
});
