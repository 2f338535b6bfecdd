// Firmware downloads of the module against a real HTTP server that answers byte ranges and can cut a
// response after some bytes: a cut download goes on where it stopped (within one upgrade and after giving
// up), a corrupted image is refused with "hash mismatch" and deleted.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModemReply } from '@genset/protocol';
import { silentLogger } from './logger.ts';
import { OtaAgent, buildModuleImage, downloadWithResume, readModuleImageHeader, sha256File } from './ota.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Serves `body` with byte ranges; the first `cuts` responses are cut after `cutAfter` bytes. */
async function fileServer(body: Buffer, opts: { cuts?: number; cutAfter?: number; status?: number } = {}) {
  const seen: { range: string | undefined }[] = [];
  let cuts = opts.cuts ?? 0;
  const server = http.createServer((req, res) => {
    seen.push({ range: req.headers.range });
    if (opts.status) {
      res.writeHead(opts.status).end();
      return;
    }
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    if (start >= body.length) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const slice = body.subarray(start);
    res.writeHead(m ? 206 : 200, {
      'content-length': slice.length,
      'accept-ranges': 'bytes',
      ...(m ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (cuts > 0) {
      cuts -= 1;
      // a clean end of the connection mid-body: the bytes sent arrive, the rest never comes
      res.write(slice.subarray(0, opts.cutAfter ?? 1000), () => res.socket?.end());
      return;
    }
    res.end(slice);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fw.bin`, seen };
}

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-ota-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const retry = { minMs: 10, maxMs: 50 };

describe('firmware download', () => {
  it('goes on where a cut connection stopped, with a range request', async () => {
    const image = buildModuleImage({ version: '2.0.0' }, 300_000);
    const server = await fileServer(image, { cuts: 1, cutAfter: 120_000 });
    const path = join(await tempDir(), 'fw.part');
    const stats = await downloadWithResume({ url: server.url, path, size: image.length, attempts: 5, retry });
    expect(readFileSync(path).equals(image)).toBe(true);
    expect(stats.resumes).toBe(1);
    expect(server.seen[0]!.range).toBeUndefined();
    expect(server.seen[1]!.range).toMatch(/^bytes=\d+-$/);
    const resumedAt = Number(/\d+/.exec(server.seen[1]!.range!)![0]);
    expect(resumedAt).toBeGreaterThan(0);
    // nothing fetched twice: what arrived before the cut was kept
    expect(stats.bytes).toBe(image.length);
  });

  it('keeps a partial file when it gives up, and the next download continues it', async () => {
    const image = buildModuleImage({ version: '2.0.1' }, 200_000);
    const server = await fileServer(image, { cuts: 1, cutAfter: 80_000 });
    const path = join(await tempDir(), 'fw.part');
    await expect(downloadWithResume({ url: server.url, path, size: image.length, attempts: 1, retry })).rejects.toThrow(
      /download failed/,
    );
    const kept = (await stat(path)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(image.length);
    const stats = await downloadWithResume({ url: server.url, path, size: image.length, attempts: 3, retry });
    expect(server.seen.at(-1)!.range).toBe(`bytes=${kept}-`);
    expect(stats.bytes).toBe(image.length - kept);
    expect(await sha256File(path)).toBe(sha256(image));
  });

  it('gives up at once on a refused address', async () => {
    const server = await fileServer(Buffer.alloc(10), { status: 404 });
    const path = join(await tempDir(), 'fw.part');
    await expect(downloadWithResume({ url: server.url, path, attempts: 5, retry })).rejects.toThrow(
      'download refused: HTTP 404',
    );
    expect(server.seen).toHaveLength(1);
  });
});

describe('firmware agent', () => {
  async function agent(dataDir: string) {
    const replies: ModemReply[] = [];
    let reboots = 0;
    /** While false, replies do not go out (the connection dropped). */
    const link = { up: true };
    const ota = new OtaAgent({
      dataDir,
      modemId: 'GW-OTA',
      baseFirmware: '1.0.0',
      rollbackMs: 60_000,
      attempts: 3,
      retry,
      logger: silentLogger,
      reply: async (reply) => link.up && replies.push(reply) > 0,
      reboot: async () => void reboots++,
    });
    cleanups.push(async () => ota.close());
    return { ota, replies, reboots: () => reboots, link };
  }

  it('refuses an image whose hash is not the announced one, and deletes it', async () => {
    const image = buildModuleImage({ version: '3.0.0' }, 50_000);
    const corrupted = Buffer.from(image);
    corrupted[corrupted.length - 1]! ^= 0xff;
    const server = await fileServer(corrupted);
    const dataDir = await tempDir();
    const { ota, replies, reboots } = await agent(dataDir);
    await ota.handle({
      id: 'u1',
      kind: 'ota',
      url: server.url,
      version: '3.0.0',
      sha256: sha256(image),
      size: image.length,
    });
    const last = replies.at(-1)!;
    expect(last).toMatchObject({ id: 'u1', ok: false, progress: { stage: 'failed' } });
    expect(last.error).toMatch(/^hash mismatch/);
    expect(replies.map((r) => r.progress?.stage)).toContain('downloaded');
    expect(replies.map((r) => r.progress?.stage)).not.toContain('verified');
    expect(await readdir(join(dataDir, 'GW-OTA.firmware'))).toEqual([]);
    expect(ota.firmware).toBe('1.0.0');
    expect(reboots()).toBe(0);
  });

  it('installs a good image as the version to run, keeping the old one, and restarts on it', async () => {
    const image = buildModuleImage({ version: '3.1.0' }, 50_000);
    const server = await fileServer(image);
    const dataDir = await tempDir();
    const { ota, replies, reboots, link } = await agent(dataDir);
    await ota.handle({
      id: 'u2',
      kind: 'ota',
      url: server.url,
      version: '3.1.0',
      sha256: sha256(image),
      size: image.length,
    });
    expect(replies.map((r) => r.progress?.stage)).toEqual(
      expect.arrayContaining(['accepted', 'downloading', 'downloaded', 'verified', 'updating']),
    );
    expect(ota.firmware).toBe('3.1.0');
    expect(reboots()).toBe(1);
    expect(existsSync(join(dataDir, 'GW-OTA.firmware', '3.1.0.bin'))).toBe(true);
    const state = JSON.parse(readFileSync(join(dataDir, 'GW-OTA.firmware.json'), 'utf8'));
    expect(state).toMatchObject({ current: '3.1.0', previous: '1.0.0', trial: { requestId: 'u2' } });
    // connected on the new version: it is kept, and the upgrade's last word waits for a connection that takes it
    link.up = false;
    const before = replies.length;
    await ota.afterConnect();
    expect(replies).toHaveLength(before);
    expect(JSON.parse(readFileSync(join(dataDir, 'GW-OTA.firmware.json'), 'utf8'))).toMatchObject({
      current: '3.1.0',
      report: { id: 'u2', ok: true },
    });
    link.up = true;
    await ota.afterConnect();
    expect(replies).toHaveLength(before + 1);
    expect(replies.at(-1)).toEqual({
      id: 'u2',
      ok: true,
      progress: { stage: 'updated', percent: 100, version: '3.1.0' },
    });
  });

  it('reads the image header that marks a version unable to connect', () => {
    expect(readModuleImageHeader(buildModuleImage({ version: '9.9.9', connects: false }, 10))).toEqual({
      version: '9.9.9',
      connects: false,
    });
    expect(readModuleImageHeader(Buffer.from('hello'))).toBeNull();
  });
});
