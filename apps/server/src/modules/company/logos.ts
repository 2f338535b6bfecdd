// Company logos on disk (DATA_DIR/uploads/logos, served as /uploads/logos/<name>). What a file is comes from its
// bytes, never from its name or declared type: PNG and JPEG by their signatures (and they must decode), SVG by
// its root element. An SVG is a document that may run script in the browser that opens it, so one that is not
// made only of drawing elements and attributes (svg-check.ts: parsed, against an allow-list) is refused.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { LOGO_BYTES_MAX } from '@genset/protocol';
import { svgIsSafe } from './svg-check.ts';

export type LogoKind = 'png' | 'jpg' | 'svg';

/** Why a logo is refused: a message key of the company catalog. */
export class LogoRefused extends Error {
  constructor(readonly key: 'company.logoType' | 'company.logoTooLarge' | 'company.logoUnsafe') {
    super(key);
  }
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The kind the bytes announce, or null. */
export function sniffLogo(bytes: Buffer): LogoKind | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  // Optional XML declaration and comments, then the <svg> root.
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head)) return 'svg';
  return null;
}

export function createLogoStore(uploadsDir: string) {
  const dir = join(uploadsDir, 'logos');
  return {
    async prepare() {
      await mkdir(dir, { recursive: true });
    },
    /** Checks and keeps a logo; answers its address. Throws LogoRefused. */
    async keep(bytes: Buffer): Promise<string> {
      if (bytes.length > LOGO_BYTES_MAX) throw new LogoRefused('company.logoTooLarge');
      const kind = sniffLogo(bytes);
      if (!kind) throw new LogoRefused('company.logoType');
      if (kind === 'svg') {
        if (!svgIsSafe(bytes.toString('utf8'))) throw new LogoRefused('company.logoUnsafe');
      } else {
        // a picture that does not decode is not one
        try {
          const meta = await sharp(bytes).metadata();
          if ((kind === 'png' && meta.format !== 'png') || (kind === 'jpg' && meta.format !== 'jpeg'))
            throw new Error('format');
        } catch {
          throw new LogoRefused('company.logoType');
        }
      }
      const name = `${randomBytes(16).toString('hex')}.${kind}`;
      await writeFile(join(dir, name), bytes, { flag: 'wx' });
      return `/uploads/logos/${name}`;
    },
  };
}
export type LogoStore = ReturnType<typeof createLogoStore>;
