// Firmware files on disk. An upload is streamed into DATA_DIR/firmware/.incoming under a random name while its
// size, MD5 and SHA-256 are computed; it stops being read at the size limit. Only a valid upload is moved beside
// the others under a new random name; any refusal removes what was written. The folder is never served as
// static files: modules fetch a file through its upgrade's download address.
import { createHash } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { incomingFolder, randomName } from '../../lib/incoming-files.ts';
import { Transform, type Readable, type TransformCallback } from 'node:stream';

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
  const incoming = incomingFolder(join(dir, '.incoming'));

  return {
    dir,
    /** Makes the folders and removes what a crash mid-upload left. */
    prepare: () => incoming.prepare(),

    /** Streams one upload into the incoming folder; the partial file is removed when the stream fails. */
    async receive(file: Readable): Promise<IncomingFirmware> {
      const digest = new Digest();
      const path = await incoming.receive(file, digest);
      return { path, size: digest.size, md5: digest.md5.digest('hex'), sha256: digest.sha256.digest('hex') };
    },

    /** Keeps a received file; returns its stored name. */
    async keep(received: IncomingFirmware): Promise<string> {
      const name = `${randomName()}.bin`;
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
