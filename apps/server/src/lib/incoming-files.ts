// A folder that receives uploads: each is streamed under a random name through a checking stream (a digest, a
// signature sniffer) and removed again when the stream fails; what a crash mid-upload left is cleared at start.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A new random file name (32 hex digits). */
export const randomName = () => randomBytes(16).toString('hex');

/** Files older than this in an incoming folder are a crash's leftovers (other instances may be receiving). */
const STALE_MS = 3_600_000;

export function incomingFolder(dir: string) {
  return {
    dir,
    /** Makes the folder and removes what a crash mid-upload left in it. */
    async prepare() {
      await mkdir(dir, { recursive: true });
      const stale = Date.now() - STALE_MS;
      for (const f of await readdir(dir)) {
        const info = await stat(join(dir, f)).catch(() => null);
        if (info && info.mtimeMs < stale) await rm(join(dir, f), { force: true });
      }
    },
    /**
     * Streams one upload through `check` into a new file of the folder and answers its path; on any error (the
     * check's, the size limit's) the partial file is removed and the error passed on.
     */
    async receive(file: Readable, check: Transform): Promise<string> {
      const path = join(dir, randomName());
      try {
        await pipeline(file, check, createWriteStream(path, { flags: 'wx' }));
      } catch (err) {
        file.resume();
        await rm(path, { force: true });
        throw err;
      }
      return path;
    },
  };
}
