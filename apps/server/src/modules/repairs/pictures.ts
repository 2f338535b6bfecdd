// The pictures of repair requests on disk. An upload is streamed into DATA_DIR/uploads/repairs/.incoming
// under a random name while its first bytes are checked against the JPEG, PNG and WebP signatures (a file's
// name and declared type say nothing); a picture over the size limit stops being read at the limit. Only when
// the whole request is valid are thumbnails made (~320 px JPEG, which also proves the picture decodes) and the
// files moved beside them under new random names; any refusal removes everything written for the request.
// The folder is never served as static files: pictures go out through /baoxiu/picture to those who may see
// their request.
import { readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { incomingFolder, randomName } from '../../lib/incoming-files.ts';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import sharp from 'sharp';
import type { RepairPicture } from '@genset/protocol';

export type PictureType = RepairPicture['type'];

/** Longest side of a thumbnail, in pixels. */
export const THUMB_SIZE = 320;

const EXTENSION: Record<PictureType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/** The picture type the first bytes of a file announce, or null for anything else. */
export function sniffPicture(head: Buffer): PictureType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}

/** The upload is not a picture of a taken type. */
export class NotAPicture extends Error {
  constructor() {
    super('not a JPEG, PNG or WebP picture');
  }
}

/** Passes the bytes through, failing as soon as the first 12 show that they are not a taken picture. */
class Sniffer extends Transform {
  type: PictureType | null = null;
  private head = Buffer.alloc(0);
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    if (this.type === null) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 12) return done();
      this.type = sniffPicture(this.head);
      if (!this.type) return done(new NotAPicture());
      const held = this.head;
      this.head = Buffer.alloc(0);
      return done(null, held);
    }
    done(null, chunk);
  }
  override _flush(done: TransformCallback) {
    if (this.type === null) {
      this.type = sniffPicture(this.head);
      if (!this.type) return done(new NotAPicture());
      this.push(this.head);
    }
    done();
  }
}

/** A picture received into the incoming folder, not yet kept. */
export interface IncomingPicture {
  path: string;
  type: PictureType;
  size: number;
}

export interface KeptPicture {
  name: string;
  type: PictureType;
  size: number;
}

export function createPictureStore(uploadsDir: string) {
  const dir = join(uploadsDir, 'repairs');
  const incoming = incomingFolder(join(dir, '.incoming'));
  const fileOf = (name: string, type: PictureType) => join(dir, `${name}.${EXTENSION[type]}`);
  const thumbOf = (name: string) => join(dir, `${name}.thumb.jpg`);

  return {
    dir,
    incoming: incoming.dir,

    /**
     * Makes the folders and removes what a crash mid-upload left in the incoming one (files older than an hour:
     * other instances sharing DATA_DIR may be receiving right now).
     */
    prepare: () => incoming.prepare(),

    /**
     * Streams one upload into the incoming folder. Throws NotAPicture for anything but JPEG, PNG and WebP, and
     * passes on the stream's own error when it was cut at the size limit; the partial file is removed either way.
     */
    async receive(file: Readable): Promise<IncomingPicture> {
      const sniffer = new Sniffer();
      const path = await incoming.receive(file, sniffer);
      const size = (await stat(path)).size;
      return { path, type: sniffer.type!, size };
    },

    /** Removes files of the incoming folder. */
    async discard(pictures: IncomingPicture[]) {
      await Promise.all(pictures.map((p) => rm(p.path, { force: true })));
    },

    /**
     * Makes each picture's thumbnail and moves both under a new name. A picture that does not decode throws
     * (and nothing of this request stays); the incoming files are gone afterwards in every case.
     */
    async keep(pictures: IncomingPicture[]): Promise<KeptPicture[]> {
      const kept: KeptPicture[] = [];
      const made: string[] = [];
      try {
        for (const p of pictures) {
          const name = randomName();
          const thumb = `${join(incoming.dir, name)}.thumb.jpg`;
          made.push(thumb);
          await sharp(p.path, { failOn: 'error', limitInputPixels: 100_000_000 })
            .rotate()
            .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
            .jpeg({ quality: 80 })
            .toFile(thumb);
          kept.push({ name, type: p.type, size: p.size });
        }
        for (const [i, p] of pictures.entries()) {
          const k = kept[i]!;
          await rename(made[i]!, thumbOf(k.name));
          made[i] = thumbOf(k.name);
          await rename(p.path, fileOf(k.name, k.type));
          made.push(fileOf(k.name, k.type));
        }
        return kept;
      } catch (err) {
        await Promise.all(made.map((f) => rm(f, { force: true })));
        throw err;
      } finally {
        await this.discard(pictures);
      }
    },

    /** Removes kept pictures and their thumbnails. */
    async remove(pictures: { name: string; type: PictureType }[]) {
      await Promise.all(
        pictures.flatMap((p) => [
          unlink(fileOf(p.name, p.type)).catch(() => {}),
          unlink(thumbOf(p.name)).catch(() => {}),
        ]),
      );
    },

    /** Where a kept picture (or its thumbnail) is. */
    pathOf(picture: { name: string; type: PictureType }, thumb: boolean): { path: string; type: string } {
      return thumb
        ? { path: thumbOf(picture.name), type: 'image/jpeg' }
        : { path: fileOf(picture.name, picture.type), type: picture.type };
    },

    /** The names of the files in the folders (tests: nothing is left behind by a refusal). */
    async files(): Promise<{ kept: string[]; incoming: string[] }> {
      const list = async (d: string) => (await readdir(d).catch(() => [] as string[])).filter((f) => f !== '.incoming');
      return { kept: await list(dir), incoming: await list(incoming.dir) };
    },
  };
}
export type PictureStore = ReturnType<typeof createPictureStore>;
