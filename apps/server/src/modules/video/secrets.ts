// The key camera sign-ins are encrypted with, and the encryption itself. The key comes from VIDEO_SECRET,
// else from a random secret written once to <DATA_DIR>/video.key (the embedded setup needs no setting; several
// instances must share VIDEO_SECRET). AES-256-GCM: a sign-in altered in the database fails to decrypt instead
// of reaching a camera changed.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const VERSION = 'v1';

export interface CameraLogin {
  username: string;
  password: string;
}

export interface LoginCipher {
  seal(login: CameraLogin): string;
  /** The sign-in, or null when the stored text was not made with this key (or was altered). */
  open(sealed: string): CameraLogin | null;
}

/** The secret the key is derived from: VIDEO_SECRET, else the installation's key file (made on first use). */
export function videoSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, 'video.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  // 'wx': two processes starting together on one data directory keep the first one's key
  try {
    writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}

export function createLoginCipher(secret: string): LoginCipher {
  const key = Buffer.from(hkdfSync('sha256', secret, 'genset-console', 'camera-login-v1', 32));
  return {
    seal(login) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([
        cipher.update(JSON.stringify([login.username, login.password]), 'utf8'),
        cipher.final(),
      ]);
      return [
        VERSION,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
        const [username, password] = JSON.parse(text) as [string, string];
        return { username, password };
      } catch {
        return null;
      }
    },
  };
}
