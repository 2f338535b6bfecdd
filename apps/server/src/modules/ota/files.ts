// Firmware files on disk. An upload is streamed into DATA_DIR/firmware/.incoming under a random name while its
// size, MD5 and SHA-256 are computed; it stops being read at the size limit. Only a valid upload is moved beside
// the others under a new random name; any refusal removes what was written. The folder is never served as
// static files: modules fetch a file through its upgrade's download address.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface IncomingFirmware {
  path: string;
  size: number;
  md5: string;
  sha256: string;
}

/** Passes the bytes through while hashing and counting them. */
class Digest extends Transform {
  readonly md5 = createHash('md5');
  readonly sha256 = createHash('sha256');
  size = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.md5.update(chunk);
    this.sha256.update(chunk);
    this.size += chunk.length;
    done(null, chunk);
  }
}

export function createFirmwareStore(dataDir: string) {
  const dir = join(dataDir, 'firmware');
  const incoming = join(dir, '.incoming');
  const newName = () => randomBytes(16).toString('hex');

  return {
    dir,
    /** Makes the folders and removes what a crash mid-upload left (older than an hour: others may be receiving). */
    async prepare() {
      await mkdir(incoming, { recursive: true });
      const stale = Date.now() - 3_600_000;
      for (const f of await readdir(incoming)) {
        const info = await stat(join(incoming, f)).catch(() => null);
        if (info && info.mtimeMs < stale) await rm(join(incoming, f), { force: true });
      }
    },

    /** Streams one upload into the incoming folder; the partial file is removed when the stream fails. */
    async receive(file: Readable): Promise<IncomingFirmware> {
      const path = join(incoming, newName());
      const digest = new Digest();
      try {
        await pipeline(file, digest, createWriteStream(path, { flags: 'wx' }));
      } catch (err) {
        file.resume();
        await rm(path, { force: true });
        throw err;
      }
      return { path, size: digest.size, md5: digest.md5.digest('hex'), sha256: digest.sha256.digest('hex') };
    },

    /** Keeps a received file; returns its stored name. */
    async keep(received: IncomingFirmware): Promise<string> {
      const name = `${newName()}.bin`;
      await rename(received.path, join(dir, name));
      return name;
    },

    async discard(received: IncomingFirmware | undefined) {
      if (received) await rm(received.path, { force: true });
    },

    async remove(storedName: string) {
      await rm(this.pathOf(storedName), { force: true });
    },

    pathOf(storedName: string): string {
      if (!/^[0-9a-f]{32}\.bin$/.test(storedName)) throw new Error('not a firmware file name');
      return join(dir, storedName);
    },
  };
}
export type FirmwareStore = ReturnType<typeof createFirmwareStore>;
