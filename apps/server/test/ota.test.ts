// Firmware upgrades over the air with real cloud modules (the gateway) on the server's embedded broker. The
// modules download through an HTTP proxy in front of the server that can cut a download after some bytes or
// damage it in transit, as a cellular link does. Files: hashes computed on upload, refusals localised with
// nothing stored. Upgrades: three modules, one cut halfway and resumed, all updated and verified; a damaged
// download refused by the module; a version that cannot connect rolled back by the module itself; cancel,
// delete while in use, wrong model, a module away waits in the queue.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildControllerImage, computeSign, DEFAULT_SIGN_SECRET, type OtaJob } from '@genset/protocol';
import { buildModuleImage, silentLogger, startGateway, type Gateway, type GatewayConfigInput } from '@genset/gateway';
import { startGensetSimulator } from '@genset/simulator';
import { translate } from '../src/i18n/messages.ts';
import { inWindow } from '../src/modules/ota/service.ts';
import { call, createTestApp, login, type Envelope, type TestApp } from './helpers.ts';

const PASSWORD = 'Demo#2026';
const MODEL = 'GW-4G';
const BOUNDARY = '----ota-test-boundary';
let t: TestApp;
let manager: string;
let companyId: number;
let brokerUrl: string;
const cleanup: (() => Promise<unknown>)[] = [];

/** An HTTP proxy between the modules and the server's download address that can cut or damage a download. */
async function startProxy() {
  const state = {
    target: 0,
    /** The next fresh download (no Range) is cut after this many body bytes. */
    cutNextAfter: undefined as number | undefined,
    /** The next fresh download has one byte flipped. */
    corruptNext: false,
    requests: [] as { path: string; range: string | undefined; status?: number }[],
  };
  const server = http.createServer((req, res) => {
    const entry: (typeof state.requests)[number] = { path: req.url ?? '', range: req.headers.range };
    state.requests.push(entry);
    const fresh = req.headers.range === undefined;
    const cutAfter = fresh ? state.cutNextAfter : undefined;
    if (fresh) state.cutNextAfter = undefined;
    const corrupt = fresh && state.corruptNext;
    if (corrupt) state.corruptNext = false;
    const upstream = http.request(
      { host: '127.0.0.1', port: state.target, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        entry.status = up.statusCode;
        res.writeHead(up.statusCode ?? 502, up.headers);
        let sent = 0;
        let flipped = false;
        up.on('data', (chunk: Buffer) => {
          if (res.writableEnded) return;
          let out = chunk;
          if (corrupt && !flipped && out.length > 0) {
            out = Buffer.from(out);
            out[out.length - 1]! ^= 0xff;
            flipped = true;
          }
          if (cutAfter !== undefined && sent + out.length >= cutAfter) {
            // the link drops mid-download: what was sent arrives, the rest never does
            res.write(out.subarray(0, cutAfter - sent));
            sent = cutAfter;
            up.destroy();
            res.socket?.end();
            return;
          }
          sent += out.length;
          res.write(out);
        });
        up.on('end', () => res.end());
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}
let proxy: Awaited<ReturnType<typeof startProxy>>;

interface Site {
  token: string;
  modemKey: string;
  gensetId: number;
  gateway: Gateway;
  dataDir: string;
}

let n = 0;
async function newSite(
  opts: { model?: string; firmware?: string; rollbackMs?: number; ports?: GatewayConfigInput['ports'] } = {},
): Promise<Site> {
  const modemKey = `OTA${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name: `Upgrade set ${n}`,
    modemId: modem.id,
    protocolKey: 'genset-layout-s',
  });
  t.app.devices.ingest.invalidate();
  const dataDir = mkdtempSync(join(tmpdir(), 'ota-gateway-'));
  const gateway = await startGateway(
    {
      modemId: modemKey,
      secret: modem.secret,
      brokerUrl,
      dataDir,
      model: opts.model ?? MODEL,
      firmware: opts.firmware ?? '1.0.0',
      ports: opts.ports ?? [],
      mqttReconnect: { minMs: 50, maxMs: 300 },
      otaRollbackMs: opts.rollbackMs ?? 300_000,
      otaDownloadRetry: { minMs: 20, maxMs: 200 },
    },
    { logger: silentLogger },
  );
  cleanup.push(async () => {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  // its hello is recorded: the server knows the module's model and version
  await expect.poll(() => modemRow(modemKey).then((m) => m?.model), { timeout: 10_000 }).toBe(opts.model ?? MODEL);
  return { token: set.token, modemKey, gensetId: set.id, gateway, dataDir };
}

const modemRow = (modemKey: string) =>
  t.app.database.db
    .selectFrom('modem')
    .select(['model', 'firmware'])
    .where('modem_key', '=', modemKey)
    .executeTakeFirst();

function signed(token: string | undefined, lang = 'en-US') {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'x-time': time,
    'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
    'accept-language': lang,
    ...(token ? { 'x-token': token } : {}),
  };
}

function formBody(fields: Record<string, string>, file?: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

async function upload(fields: Record<string, string>, file: Buffer | Readable | undefined, lang = 'en-US') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/yewu/ota/file/upload',
    headers: { ...signed(manager, lang), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: file instanceof Readable ? file : formBody(fields, file),
  });
  return res.json() as Envelope;
}

const fileFields = (over: Record<string, string> = {}) => ({
  name: 'Module firmware',
  version: '2.0.0',
  target: 'module',
  model: MODEL,
  ...over,
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

async function files() {
  const res = await call(t.app, 'GET', '/ota/file/list', { token: manager });
  expect(res.code).toBe(200);
  return res.data.list as any[];
}

async function jobsOfFile(fileId: number): Promise<OtaJob[]> {
  const res = await call(t.app, 'GET', '/ota/job/list', { token: manager, query: { fileId: String(fileId) } });
  expect(res.code).toBe(200);
  return res.data.list;
}

/** Stored firmware files on disk (the incoming folder left out). */
const storedFiles = () => readdirSync(join(t.dataDir, 'firmware')).filter((f) => f !== '.incoming');
const incomingFiles = () => readdirSync(join(t.dataDir, 'firmware', '.incoming'));

/** Every state each job was seen in on the realtime bus, in order. */
const seen = new Map<number, string[]>();

beforeAll(async () => {
  proxy = await startProxy();
  t = await createTestApp({ OTA_TICK_MS: '100', OTA_PUBLIC_URL: proxy.url });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  proxy.target = (t.app.server.address() as AddressInfo).port;
  brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
  manager = await login(t.app, 'manager@example.com', PASSWORD);
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  t.app.devices.bus.subscribe('ota', (m) => {
    const list = seen.get(m.job.id) ?? [];
    if (list.at(-1) !== m.job.state) list.push(m.job.state);
    seen.set(m.job.id, list);
  });
});
afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
  await t?.close();
});

describe('firmware files', () => {
  it('takes a file with its size, MD5 and SHA-256 computed while it streams in, lists and deletes it', async () => {
    const image = buildModuleImage({ version: '1.5.0' }, 100_000);
    const res = await upload(fileFields({ version: '1.5.0', sha256: sha256(image), md5: md5(image) }), image);
    expect(res.code).toBe(200);
    expect(res.data).toEqual({ id: expect.any(Number), size: image.length, md5: md5(image), sha256: sha256(image) });
    const listed = (await files()).find((f) => f.id === res.data.id);
    expect(listed).toMatchObject({
      name: 'Module firmware',
      version: '1.5.0',
      target: 'module',
      model: MODEL,
      size: image.length,
      md5: md5(image),
      sha256: sha256(image),
      inUse: false,
      counts: { notDownloaded: 0, downloaded: 0, updated: 0, failed: 0 },
    });
    expect(storedFiles()).toHaveLength(1);
    const deleted = await call(t.app, 'POST', '/ota/file/delete', { token: manager, body: { id: res.data.id } });
    expect(deleted.code).toBe(200);
    expect((await files()).some((f) => f.id === res.data.id)).toBe(false);
    expect(storedFiles()).toHaveLength(0);
  });

  it('refuses an empty file, a hash that does not match and a missing field, in the caller’s language, storing nothing', async () => {
    const before = (await files()).length;
    const image = buildModuleImage({ version: '2.0.0' }, 10_000);

    const empty = await upload(fileFields(), Buffer.alloc(0));
    expect(empty.code).toBe(400);
    expect(empty.msg).toBe(translate('en-US', 'ota.emptyFile'));

    const wrongSha = await upload(fileFields({ sha256: sha256(Buffer.from('other')) }), image, 'zh-CN');
    expect(wrongSha.code).toBe(400);
    expect(wrongSha.msg).toBe(translate('zh-CN', 'ota.hashMismatch', { hash: 'SHA-256' }));

    const wrongMd5 = await upload(fileFields({ md5: md5(Buffer.from('other')) }), image, 'ru-RU');
    expect(wrongMd5.code).toBe(400);
    expect(wrongMd5.msg).toBe(translate('ru-RU', 'ota.hashMismatch', { hash: 'MD5' }));

    const noModel = await upload({ name: 'x', version: '2.0.0', target: 'module' }, image);
    expect(noModel.code).toBe(400);
    expect(noModel.msg).toBe(
      `${translate('en-US', 'fields.firmwareModel')}: ${translate('en-US', 'validation.required')}`,
    );
    expect(Object.keys(noModel.data.fields)).toEqual(['model']);

    const noFile = await upload(fileFields(), undefined);
    expect(noFile.code).toBe(400);

    expect((await files()).length).toBe(before);
    expect(storedFiles()).toHaveLength(0);
    expect(incomingFiles()).toHaveLength(0);
  });

  it('stops reading a file over the size limit and keeps nothing of it', async () => {
    const head = Buffer.concat(
      Object.entries(fileFields()).map(([k, v]) =>
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      ),
    );
    const chunk = Buffer.alloc(1024 * 1024, 0x5a);
    let left = 65; // MB, over the 64 MB limit
    const body = Readable.from(
      (function* () {
        yield head;
        yield Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        );
        while (left-- > 0) yield chunk;
        yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
      })(),
    );
    const res = await upload({}, body, 'es-ES');
    expect(res.code).toBe(400);
    expect(res.msg).toBe(translate('es-ES', 'ota.tooLarge', { mb: 64 }));
    expect(storedFiles()).toHaveLength(0);
    expect(incomingFiles()).toHaveLength(0);
  });

  it('needs ota:manage', async () => {
    const operator = await login(t.app, 'operator@example.com', PASSWORD);
    const res = await call(t.app, 'GET', '/ota/file/list', { token: operator });
    expect(res.code).toBe(403);
  });
});

describe('upgrades of real modules', () => {
  it('upgrades three modules, one of them cut halfway and resumed, all updated with their hashes verified', async () => {
    const sites = [await newSite(), await newSite(), await newSite()];
    const image = buildModuleImage({ version: '2.0.0' }, 600_000);
    const file = await upload(fileFields({ sha256: sha256(image) }), image);
    expect(file.code).toBe(200);
    proxy.cutNextAfter = 250_000;
    proxy.requests.length = 0;
    const assigned = await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: { fileId: file.data.id, tokens: sites.map((s) => s.token), concurrency: 2 },
    });
    expect(assigned.code).toBe(200);
    expect(assigned.data.jobs).toBe(3);

    await expect
      .poll(async () => (await jobsOfFile(file.data.id)).map((j) => j.state), { timeout: 30_000 })
      .toEqual(['updated', 'updated', 'updated']);
    const jobs = await jobsOfFile(file.data.id);
    for (const job of jobs) {
      expect(job).toMatchObject({ specState: 'updated', progress: 100, reason: '', fromVersion: '1.0.0' });
      // each went forward step by step to updated. The consoles are told the job's state as it is when the push
      // goes out, so the dispatcher's first steps may reach them as one; the module's replies are recorded one
      // after the other, each told before the next: the module reported its hash verified before it updated.
      const order = ['queued', 'initiated', 'downloading', 'downloaded', 'verified', 'updating', 'updated'];
      const steps = seen.get(job.id)!;
      expect(steps[0]).toBe('queued');
      expect(steps.at(-1)).toBe('updated');
      expect(steps.map((s) => order.indexOf(s))).toEqual([...steps.map((s) => order.indexOf(s))].sort((a, b) => a - b));
      expect(steps.every((s) => order.includes(s))).toBe(true);
      expect(steps.slice(-4)).toEqual(['downloaded', 'verified', 'updating', 'updated']);
    }
    // never more than two modules downloading at once
    expect(maxConcurrent).toBeLessThanOrEqual(2);

    for (const site of sites) {
      expect(site.gateway.stats.firmware).toBe('2.0.0');
      expect((await modemRow(site.modemKey))?.firmware).toBe('2.0.0');
      expect(site.gateway.stats.ota.bytesDownloaded).toBeGreaterThanOrEqual(image.length);
    }
    // exactly one module lost its connection; it went on where it stopped instead of starting again
    const resumed = sites.filter((s) => s.gateway.stats.ota.resumes > 0);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.gateway.stats.ota.bytesDownloaded).toBeLessThan(2 * image.length);
    expect(proxy.requests.filter((r) => r.range !== undefined).map((r) => r.range)).toEqual(['bytes=250000-']);

    const history = await call(t.app, 'GET', '/ota/job/list', { token: manager, query: { token: sites[0]!.token } });
    expect(history.data.list).toEqual([
      expect.objectContaining({ version: '2.0.0', state: 'updated', specState: 'updated', fromVersion: '1.0.0' }),
    ]);
    const listed = (await files()).find((f) => f.id === file.data.id);
    expect(listed.counts).toEqual({ notDownloaded: 0, downloaded: 0, updated: 3, failed: 0 });
    // the download address of a finished upgrade no longer works
    const anyUrl = proxy.requests[0]!.path;
    expect((await t.app.inject({ method: 'GET', url: anyUrl })).statusCode).toBe(404);
  });

  it('a download damaged on the way is refused by the module and the upgrade marked failed with the reason', async () => {
    const site = await newSite();
    const image = buildModuleImage({ version: '2.1.0' }, 200_000);
    const file = await upload(fileFields({ version: '2.1.0' }), image);
    proxy.corruptNext = true;
    const assigned = await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: { fileId: file.data.id, tokens: [site.token] },
    });
    expect(assigned.code).toBe(200);
    await expect.poll(async () => (await jobsOfFile(file.data.id))[0]?.state, { timeout: 20_000 }).toBe('failed');
    const [job] = await jobsOfFile(file.data.id);
    expect(job!.reason).toMatch(/^hash mismatch/);
    expect(job!.specState).toBe('notDownloaded');
    expect(seen.get(job!.id)).not.toContain('verified');
    expect(site.gateway.stats.firmware).toBe('1.0.0');
    // the damaged image was deleted by the module
    expect(readdirSync(join(site.dataDir, `${site.modemKey}.firmware`))).toEqual([]);
  });

  it('a version that cannot connect is rolled back by the module itself and reported failed', async () => {
    const site = await newSite({ rollbackMs: 1500 });
    const image = buildModuleImage({ version: '3.0.0', connects: false }, 50_000);
    const file = await upload(fileFields({ version: '3.0.0', name: 'Broken build' }), image);
    await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: { fileId: file.data.id, tokens: [site.token] },
    });
    await expect.poll(async () => (await jobsOfFile(file.data.id))[0]?.state, { timeout: 20_000 }).toBe('failed');
    const [job] = await jobsOfFile(file.data.id);
    expect(job!.reason).toMatch(/^rolled back to 1\.0\.0: version 3\.0\.0 did not connect/);
    expect(seen.get(job!.id)).toEqual(expect.arrayContaining(['verified', 'updating', 'failed']));
    expect(site.gateway.stats.ota.rollbacks).toBe(1);
    expect(site.gateway.stats.firmware).toBe('1.0.0');
    // it came back on the old version and said so in its hello
    await expect.poll(() => site.gateway.stats.mqttConnected, { timeout: 10_000 }).toBe(true);
    expect((await modemRow(site.modemKey))?.firmware).toBe('1.0.0');
  });

  it('keeps a module that is away in the queue; cancels it; a file in use cannot be deleted until then', async () => {
    const site = await newSite({ model: 'GW-AWAY' });
    await site.gateway.close();
    await expect.poll(() => t.app.devices.transport.connected(site.modemKey), { timeout: 10_000 }).toBe(false);
    const image = buildModuleImage({ version: '4.0.0' }, 10_000);
    const file = await upload(fileFields({ version: '4.0.0', model: 'GW-AWAY' }), image);
    // every set of the model the caller manages
    const assigned = await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: { fileId: file.data.id, allOfModel: true, window: { startHour: 0, endHour: 0 } },
    });
    expect(assigned.data.jobs).toBe(1);
    const [job] = await jobsOfFile(file.data.id);
    expect(job).toMatchObject({ state: 'queued', specState: 'notDownloaded', setToken: site.token });
    // the same set cannot be given a second upgrade while this one is open
    const again = await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: { fileId: file.data.id, tokens: [site.token] },
    });
    expect(again.code).toBe(409);

    const inUse = await call(t.app, 'POST', '/ota/file/delete', { token: manager, body: { id: file.data.id } });
    expect(inUse.code).toBe(409);
    expect(inUse.msg).toBe(translate('en-US', 'ota.fileInUse', { name: 'Module firmware' }));

    const cancelled = await call(t.app, 'POST', '/ota/job/cancel', { token: manager, body: { id: job!.id } });
    expect(cancelled.code).toBe(200);
    expect((await jobsOfFile(file.data.id))[0]).toMatchObject({ state: 'cancelled', reason: 'Cancelled.' });
    const twice = await call(t.app, 'POST', '/ota/job/cancel', { token: manager, body: { id: job!.id } });
    expect(twice.code).toBe(409);
    const deleted = await call(t.app, 'POST', '/ota/file/delete', { token: manager, body: { id: file.data.id } });
    expect(deleted.code).toBe(200);
  });

  it('starts nothing outside the hours of its window', async () => {
    const site = await newSite({ model: 'GW-WINDOW' });
    const file = await upload(
      fileFields({ version: '6.0.0', model: 'GW-WINDOW' }),
      buildModuleImage({ version: '6.0.0' }, 10_000),
    );
    const hour = new Date().getUTCHours();
    const assigned = await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: {
        fileId: file.data.id,
        tokens: [site.token],
        window: { startHour: (hour + 2) % 24, endHour: (hour + 3) % 24 },
      },
    });
    expect(assigned.code).toBe(200);
    // a round of the dispatcher (besides its own) starts nothing: the module is there, but not the hour
    expect(await t.app.ota.tick()).toBe(0);
    const [job] = await jobsOfFile(file.data.id);
    expect(job).toMatchObject({ state: 'queued', specState: 'notDownloaded' });
    expect(site.gateway.stats.ota.bytesDownloaded).toBe(0);
    await call(t.app, 'POST', '/ota/job/cancel', { token: manager, body: { id: job!.id } });

    // hours of the day in UTC; a window may run over midnight, and equal hours mean any time
    const at = (h: number) => Date.UTC(2026, 0, 1, h, 30);
    expect([inWindow(22, 4, at(23)), inWindow(22, 4, at(1)), inWindow(22, 4, at(12))]).toEqual([true, true, false]);
    expect([inWindow(4, 22, at(4)), inWindow(4, 22, at(22)), inWindow(3, 3, at(12))]).toEqual([true, false, true]);
    expect(inWindow(null, null, at(0))).toBe(true);
  });

  it('refuses a file for another model than the sets’ modules, in the caller’s language, and starts nothing', async () => {
    const site = await newSite({ model: 'GW-OTHER' });
    const image = buildModuleImage({ version: '5.0.0' }, 10_000);
    const file = await upload(fileFields({ version: '5.0.0' }), image);
    const res = await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      lang: 'tr-TR',
      body: { fileId: file.data.id, tokens: [site.token] },
    });
    expect(res.code).toBe(400);
    expect(res.msg).toBe(
      translate('tr-TR', 'ota.wrongModel', { set: `Upgrade set ${n}`, model: 'GW-OTHER', fileModel: MODEL }),
    );
    expect(await jobsOfFile(file.data.id)).toEqual([]);
    const campaigns = await t.app.database.db
      .selectFrom('ota_campaign')
      .select('id')
      .where('file_id', '=', file.data.id)
      .execute();
    expect(campaigns).toEqual([]);
  });
});

describe('controller firmware', () => {
  /** A layout S controller simulator that installs firmware in 200 ms, behind a module of a set of its own. */
  async function controllerSite() {
    const sim = await startGensetSimulator({
      layout: 'S',
      port: 0,
      host: '127.0.0.1',
      unitId: 1,
      realtime: false,
      firmwareInstallMs: 200,
    } as Parameters<typeof startGensetSimulator>[0]);
    cleanup.push(() => sim.close());
    const site = await newSite({
      ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port!, controllers: [{ address: 1 }] }],
    });
    return { sim, site };
  }

  it('is written block by block to a simulated controller, which runs the new version, shown in the set’s info', async () => {
    const { sim, site } = await controllerSite();
    // the module read the controller's version at start and said so
    const info = async () =>
      (await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: site.token } })).data;
    await expect.poll(async () => (await info()).controllerFirmware, { timeout: 10_000 }).toBe('1.0.0');

    const image = Buffer.from(buildControllerImage('HGM6120', '1.4.2', randomBytes(30_000)));
    const file = await upload(
      fileFields({ name: 'HGM6120 firmware', version: '1.4.2', target: 'controller', model: 'genset-layout-s' }),
      image,
    );
    expect(file.code, file.msg).toBe(200);
    const assigned = await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: { fileId: file.data.id, tokens: [site.token] },
    });
    expect(assigned.code, assigned.msg).toBe(200);
    await expect
      .poll(async () => (await jobsOfFile(file.data.id)).map((j) => j.state), { timeout: 30_000 })
      .toEqual(['updated']);
    expect(sim.state.firmwareVersion).toBe('1.4.2');
    await expect.poll(async () => (await info()).controllerFirmware, { timeout: 10_000 }).toBe('1.4.2');
    // the module itself kept its own version
    expect(site.gateway.stats.firmware).toBe('1.0.0');
  });

  it('an image for another controller model is refused by the controller, which keeps its version', async () => {
    const { sim, site } = await controllerSite();
    const image = Buffer.from(buildControllerImage('DSE7320', '7.0.0', randomBytes(5_000)));
    const file = await upload(
      fileFields({ name: 'DSE firmware', version: '7.0.0', target: 'controller', model: 'genset-layout-s' }),
      image,
    );
    await call(t.app, 'POST', '/ota/job/assign', {
      token: manager,
      body: { fileId: file.data.id, tokens: [site.token] },
    });
    await expect
      .poll(async () => (await jobsOfFile(file.data.id)).map((j) => j.state), { timeout: 30_000 })
      .toEqual(['failed']);
    expect((await jobsOfFile(file.data.id))[0]!.reason).toContain('wrongModel');
    expect(sim.state.firmwareVersion).toBe('1.0.0');
  });
});

/** Most jobs of one file seen initiated or downloading at the same moment on the bus. */
let maxConcurrent = 0;
const current = new Map<number, string>();
beforeAll(() => {
  t.app.devices.bus.subscribe('ota', (m) => {
    current.set(m.job.id, m.job.state);
    const active = [...current.values()].filter((s) => s === 'initiated' || s === 'downloading').length;
    maxConcurrent = Math.max(maxConcurrent, active);
  });
});
