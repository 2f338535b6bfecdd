// Firmware upgrades of the module over the air. An `ota` request names a download address, the version and the
// image's SHA-256. The image is fetched over HTTP into the data folder; a download that is cut keeps what
// arrived (`<sha256>.part`) and the next attempt asks only for the rest (`Range: bytes=n-`), also after a
// restart of the module. The whole image is then checked against the SHA-256 (a mismatch deletes it and fails
// the upgrade with "hash mismatch"). A module image is installed by recording its version as the one to run,
// keeping the old one, and restarting the connection: the module comes back and says hello with the new
// version. If the new version has not connected to the broker within the rollback window (5 minutes by
// default), the module goes back to the old one by itself and reports the upgrade failed and rolled back.
//
// A module image is a header line `GENSET-MODULE-FIRMWARE {"version":"…","connects":true}` and the program
// after it. `connects: false` makes an image whose link never comes up: the way to show a rollback for real.
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { readControllerImage, type ModemReply, type ModemRequest } from '@genset/protocol';
import { Backoff } from './backoff.ts';
import { errorText, type GatewayLogger } from './logger.ts';

export const MODULE_IMAGE_MAGIC = 'GENSET-MODULE-FIRMWARE ';

export interface ModuleImageHeader {
  version: string;
  /** False for an image whose network link never comes up (it is rolled back). */
  connects: boolean;
}

/** A module firmware image: the header line and `payloadBytes` of program (deterministic filler by default). */
export function buildModuleImage(header: { version: string; connects?: boolean }, payloadBytes = 64 * 1024): Buffer {
  const line = `${MODULE_IMAGE_MAGIC}${JSON.stringify({ version: header.version, connects: header.connects ?? true })}\n`;
  const payload = Buffer.alloc(payloadBytes);
  for (let i = 0; i < payloadBytes; i++) payload[i] = (i * 31 + 7) & 0xff;
  return Buffer.concat([Buffer.from(line, 'utf8'), payload]);
}

/** The header of a module image, or null when the bytes are not one. */
export function readModuleImageHeader(head: Buffer): ModuleImageHeader | null {
  const text = head.subarray(0, 512).toString('utf8');
  if (!text.startsWith(MODULE_IMAGE_MAGIC)) return null;
  const end = text.indexOf('\n');
  if (end < 0) return null;
  try {
    const value = JSON.parse(text.slice(MODULE_IMAGE_MAGIC.length, end)) as Record<string, unknown>;
    if (typeof value.version !== 'string' || !value.version) return null;
    return { version: value.version, connects: value.connects !== false };
  } catch {
    return null;
  }
}

export class DownloadRefused extends Error {}

export interface DownloadStats {
  /** Bytes received over HTTP for this download (resumes included). */
  bytes: number;
  /** Requests that continued a partial file. */
  resumes: number;
}

export interface DownloadOptions {
  url: string;
  /** Where the bytes go; a partial file there is continued. */
  path: string;
  /** Expected size, when known (the download ends there). */
  size?: number | undefined;
  attempts: number;
  retry: { minMs: number; maxMs: number };
  signal?: AbortSignal;
  onProgress?: (have: number, total: number | undefined) => void;
  logger?: GatewayLogger;
}

/**
 * Fetches `url` into `path`, continuing a partial file with a range request, and again after a cut (at most
 * `attempts` failures in a row; any progress starts the count again). A 4xx answer other than 416 is final.
 */
export async function downloadWithResume(options: DownloadOptions): Promise<DownloadStats> {
  const stats: DownloadStats = { bytes: 0, resumes: 0 };
  const backoff = new Backoff(options.retry.minMs, options.retry.maxMs);
  let failures = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const have = (await stat(options.path).catch(() => null))?.size ?? 0;
    if (options.size !== undefined && have === options.size) return stats;
    if (options.size !== undefined && have > options.size) await rm(options.path, { force: true });
    const from = options.size !== undefined && have > options.size ? 0 : have;
    const before = stats.bytes;
    try {
      const response = await httpGet(options.url, from > 0 ? { range: `bytes=${from}-` } : {}, options.signal);
      const status = response.statusCode ?? 0;
      const header = (name: string) => {
        const value = response.headers[name];
        return typeof value === 'string' ? value : '';
      };
      if (status === 416) {
        // what we hold is not a beginning of this file: start again
        response.resume();
        await rm(options.path, { force: true });
        throw new Error('range not satisfiable');
      }
      if (status >= 400 && status < 500) {
        response.resume();
        throw new DownloadRefused(`download refused: HTTP ${status}`);
      }
      if (status !== 200 && status !== 206) {
        response.resume();
        throw new Error(`download failed: HTTP ${status}`);
      }
      let append = false;
      if (status === 206) {
        const start = /^bytes (\d+)-/.exec(header('content-range'))?.[1];
        if (Number(start) !== from) {
          response.resume();
          await rm(options.path, { force: true });
          throw new Error('the server sent another range than asked');
        }
        append = true;
        if (from > 0) stats.resumes += 1;
      }
      const total =
        options.size ??
        (status === 206
          ? Number(/\/(\d+)$/.exec(header('content-range'))?.[1] ?? NaN) || undefined
          : Number(header('content-length') || NaN) || undefined);
      // Each chunk is written as it arrives: when the link drops, everything that came is kept for the next try.
      let held = append ? from : 0;
      const fd = openSync(options.path, append ? 'a' : 'w');
      try {
        await new Promise<void>((resolve, reject) => {
          response.on('data', (chunk: Buffer) => {
            writeSync(fd, chunk);
            stats.bytes += chunk.length;
            held += chunk.length;
            options.onProgress?.(held, total);
          });
          response.on('end', resolve);
          response.on('error', reject);
          response.on('close', () => {
            if (!response.complete) reject(new Error('the connection was cut'));
          });
        });
      } finally {
        closeSync(fd);
      }
      if (total !== undefined && held < total) throw new Error(`download ended after ${held} of ${total} bytes`);
      return stats;
    } catch (error) {
      if (error instanceof DownloadRefused) throw error;
      if (options.signal?.aborted) throw error;
      if (stats.bytes > before) {
        failures = 0;
        backoff.reset();
      }
      failures += 1;
      if (failures >= options.attempts) throw new Error(`download failed: ${errorText(error)}`, { cause: error });
      const delay = backoff.next();
      options.logger?.warn(`firmware download cut (${errorText(error)}); continuing in ${delay} ms`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function httpGet(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<IncomingMessage> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
  if (!client) return Promise.reject(new DownloadRefused(`download refused: ${target.protocol} is not HTTP`));
  return new Promise((resolve, reject) => {
    const request = client.get(target, { headers, ...(signal ? { signal } : {}) }, resolve);
    request.on('error', reject);
    request.setTimeout(60_000, () => request.destroy(new Error('no answer within 60 s')));
  });
}

/** SHA-256 of a file, hex. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

interface FirmwareState {
  /** The version running (absent: the configured one). */
  current?: string;
  /** Whether the running version's link comes up. */
  connects?: boolean;
  /** The version before it, kept to roll back to. */
  previous?: string;
  /** A new version on trial: committed once it connects, rolled back at `deadline` otherwise. */
  trial?: { requestId: string; version: string; previous: string; deadline: number };
  /** The last word of an upgrade that ended while the module was away; sent after the next hello. */
  report?: ModemReply;
}

export interface OtaAgentOptions {
  dataDir: string;
  modemId: string;
  /** The version the module was built with (until an upgrade installs another). */
  baseFirmware: string;
  rollbackMs: number;
  attempts: number;
  retry: { minMs: number; maxMs: number };
  logger: GatewayLogger;
  /** Sends a reply; false when it could not go (the connection dropped). */
  reply: (reply: ModemReply) => Promise<boolean | void>;
  /** Restarts the module's connection (the new version "boots"). */
  reboot: () => Promise<void>;
  /**
   * Writes a controller image to the controller at `port`/`address` over its Modbus line; resolves with the
   * version the controller runs afterwards.
   */
  writeController?: (
    port: string,
    address: number,
    image: Uint8Array,
    onProgress: (written: number, total: number) => void,
  ) => Promise<string>;
}

export interface OtaStats {
  /** Firmware bytes received over HTTP since start. */
  bytesDownloaded: number;
  /** Download requests that continued a partial file. */
  resumes: number;
  /** Whether an upgrade is being carried out now. */
  busy: boolean;
  rollbacks: number;
}

export class OtaAgent {
  private state: FirmwareState;
  private readonly stateFile: string;
  private readonly dir: string;
  private busy = false;
  private rollbackTimer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private bytesDownloaded = 0;
  private resumes = 0;
  private rollbacks = 0;

  constructor(private readonly options: OtaAgentOptions) {
    this.dir = join(options.dataDir, `${options.modemId}.firmware`);
    this.stateFile = join(options.dataDir, `${options.modemId}.firmware.json`);
    this.state = existsSync(this.stateFile) ? (JSON.parse(readFileSync(this.stateFile, 'utf8')) as FirmwareState) : {};
  }

  /** The version the module runs now. */
  get firmware(): string {
    return this.state.current ?? this.options.baseFirmware;
  }

  get stats(): OtaStats {
    return {
      bytesDownloaded: this.bytesDownloaded,
      resumes: this.resumes,
      busy: this.busy,
      rollbacks: this.rollbacks,
    };
  }

  /** Why the running version cannot connect, if it cannot. */
  cannotConnect(): string | undefined {
    return this.state.connects === false ? `firmware ${this.firmware} cannot bring its network link up` : undefined;
  }

  /** Arms the rollback of a version still on trial (after a restart of the module too). */
  start(): void {
    const trial = this.state.trial;
    if (trial) this.armRollback(Math.max(0, trial.deadline - Date.now()));
  }

  close(): void {
    this.abort.abort();
    if (this.rollbackTimer) clearTimeout(this.rollbackTimer);
  }

  /** After each hello: a version on trial that connected is kept, and an upgrade's last word goes out. */
  async afterConnect(): Promise<void> {
    const trial = this.state.trial;
    if (trial && trial.version === this.firmware) {
      if (this.rollbackTimer) clearTimeout(this.rollbackTimer);
      this.options.logger.info(`firmware ${trial.version} connected: kept (rollback to ${trial.previous} disarmed)`);
      this.save({
        ...this.withoutTrial(),
        report: { id: trial.requestId, ok: true, progress: { stage: 'updated', percent: 100, version: trial.version } },
      });
    }
    const report = this.state.report;
    // kept until it went out: a connection that drops first sends it after the next hello
    if (report && (await this.options.reply(report)) !== false && this.state.report === report) {
      this.save({ ...this.state, report: undefined });
    }
  }

  /** Carries out an `ota` request; every step is reported by a reply with its progress. */
  async handle(request: Extract<ModemRequest, { kind: 'ota' }>): Promise<void> {
    const { id } = request;
    const fail = (error: string) => this.options.reply({ id, ok: false, error, progress: { stage: 'failed' } });
    if (this.busy || this.state.trial) return void (await fail('another upgrade is under way'));
    if (!request.url || !request.sha256 || !/^[0-9a-f]{64}$/i.test(request.sha256)) {
      return void (await fail('an upgrade needs url and sha256'));
    }
    this.busy = true;
    const sha = request.sha256.toLowerCase();
    await mkdir(this.dir, { recursive: true });
    const part = join(this.dir, `${sha}.part`);
    try {
      await this.options.reply({
        id,
        ok: true,
        progress: { stage: 'accepted', percent: 0, version: this.firmware },
      });
      let lastPercent = -1;
      let lastAt = 0;
      const download = await downloadWithResume({
        url: request.url,
        path: part,
        size: request.size,
        attempts: this.options.attempts,
        retry: this.options.retry,
        signal: this.abort.signal,
        logger: this.options.logger,
        onProgress: (have, total) => {
          if (!total) return;
          const percent = Math.floor((have / total) * 100);
          const now = Date.now();
          if (percent === lastPercent || (percent - lastPercent < 10 && now - lastAt < 1000 && percent < 100)) return;
          lastPercent = percent;
          lastAt = now;
          void this.options.reply({ id, ok: true, progress: { stage: 'downloading', percent, bytes: have } });
        },
      });
      this.bytesDownloaded += download.bytes;
      this.resumes += download.resumes;
      const size = (await stat(part)).size;
      await this.options.reply({ id, ok: true, progress: { stage: 'downloaded', percent: 100, bytes: size } });
      if ((await sha256File(part)) !== sha) {
        await rm(part, { force: true });
        return void (await fail('hash mismatch: the downloaded image is not the one announced; deleted'));
      }
      await this.options.reply({ id, ok: true, progress: { stage: 'verified', percent: 100 } });
      if (request.target === 'controller') {
        const image = await readFile(part);
        await rm(part, { force: true });
        return void (await this.toController(request, image));
      }
      const handle = await open(part, 'r');
      const head = Buffer.alloc(512);
      const { bytesRead } = await handle.read(head, 0, 512, 0).finally(() => handle.close());
      const header = readModuleImageHeader(head.subarray(0, bytesRead));
      if (!header) {
        await rm(part, { force: true });
        return void (await fail('not a firmware image for this module'));
      }
      if (request.version && header.version !== request.version) {
        await rm(part, { force: true });
        return void (await fail(`the image is version ${header.version}, not ${request.version}`));
      }
      await rename(part, join(this.dir, `${header.version}.bin`));
      await this.options.reply({ id, ok: true, progress: { stage: 'updating', version: header.version } });
      this.install(id, header);
    } catch (error) {
      if (this.abort.signal.aborted) return;
      await fail(errorText(error));
    } finally {
      this.busy = false;
    }
    if (this.state.trial) await this.options.reboot();
  }

  /** A verified controller image, written to its controller block by block; the controller checks it too. */
  private async toController(request: Extract<ModemRequest, { kind: 'ota' }>, image: Buffer): Promise<void> {
    const { id } = request;
    const fail = (error: string) => this.options.reply({ id, ok: false, error, progress: { stage: 'failed' } });
    const named = readControllerImage(image);
    if (!named) return void (await fail('not a firmware image for a controller'));
    if (request.version && named.version !== request.version)
      return void (await fail(`the image is version ${named.version}, not ${request.version}`));
    if (!this.options.writeController || !request.port || request.address === undefined)
      return void (await fail('no controller named for this image'));
    await this.options.reply({ id, ok: true, progress: { stage: 'updating', percent: 0, version: named.version } });
    let lastPercent = 0;
    const version = await this.options.writeController(request.port, request.address, image, (written, total) => {
      const percent = Math.floor((written / total) * 100);
      if (percent - lastPercent < 10 && percent < 100) return;
      lastPercent = percent;
      void this.options.reply({ id, ok: true, progress: { stage: 'updating', percent, bytes: written } });
    });
    this.options.logger.info(`controller ${request.port}/${request.address} now runs firmware ${version}`);
    await this.options.reply({ id, ok: true, progress: { stage: 'updated', percent: 100, version } });
  }

  /** Records the new version as the one running, the old one to come back to, and arms the rollback. */
  private install(requestId: string, header: ModuleImageHeader): void {
    const previous = this.firmware;
    this.save({
      current: header.version,
      connects: header.connects,
      previous,
      trial: {
        requestId,
        version: header.version,
        previous,
        deadline: Date.now() + this.options.rollbackMs,
      },
    });
    this.options.logger.info(`firmware ${header.version} installed over ${previous}; restarting on it`);
    this.armRollback(this.options.rollbackMs);
  }

  private armRollback(ms: number): void {
    if (this.rollbackTimer) clearTimeout(this.rollbackTimer);
    this.rollbackTimer = setTimeout(() => void this.rollback(), ms);
  }

  private async rollback(): Promise<void> {
    const trial = this.state.trial;
    if (!trial) return;
    const seconds = Math.round(this.options.rollbackMs / 1000);
    this.options.logger.warn(`firmware ${trial.version} did not connect within ${seconds} s: rolling back`);
    this.rollbacks += 1;
    this.save({
      current: trial.previous,
      connects: true,
      report: {
        id: trial.requestId,
        ok: false,
        error: `rolled back to ${trial.previous}: version ${trial.version} did not connect within ${seconds} s`,
        progress: { stage: 'failed', rolledBack: true, version: trial.previous },
      },
    });
    await this.options.reboot();
  }

  private withoutTrial(): FirmwareState {
    const { trial: _trial, ...rest } = this.state;
    return rest;
  }

  private save(state: FirmwareState): void {
    this.state = JSON.parse(JSON.stringify(state)) as FirmwareState;
    const temp = `${this.stateFile}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state));
    renameSync(temp, this.stateFile);
  }
}
