import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_SECRET, encryptionKeyBytes } from '@genset/protocol';
import { decryptText, encryptText } from './crypto.ts';

const key = Buffer.from(encryptionKeyBytes(DEFAULT_SIGN_SECRET));

describe('body encryption', () => {
  it('produces what an AES-256-CBC peer decrypts', async () => {
    const json = JSON.stringify({ username: 'operator@example.com', note: 'Ωμέγα 发电机 ✓' });
    const packed = Buffer.from(await encryptText(json, DEFAULT_SIGN_SECRET), 'base64');
    const decipher = createDecipheriv('aes-256-cbc', key, packed.subarray(0, 16));
    const plain = Buffer.concat([decipher.update(packed.subarray(16)), decipher.final()]).toString('utf8');
    expect(plain).toBe(json);
  });

  it('reads what an AES-256-CBC peer encrypts', async () => {
    const json = JSON.stringify({ code: 200, msg: 'ok', data: { list: [1, 2, 3] } });
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', key, iv);
    const packed = Buffer.concat([iv, cipher.update(json, 'utf8'), cipher.final()]).toString('base64');
    expect(await decryptText(packed, DEFAULT_SIGN_SECRET)).toBe(json);
  });

  it('uses a fresh IV each time', async () => {
    expect(await encryptText('{}', DEFAULT_SIGN_SECRET)).not.toBe(await encryptText('{}', DEFAULT_SIGN_SECRET));
  });
});
