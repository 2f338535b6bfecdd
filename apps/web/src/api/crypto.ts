// Optional body encryption (API_ENCRYPTION=aes): base64(iv(16) || AES-256-CBC-PKCS7(json)) with the key
// derived from the sign secret, done with WebCrypto.
import { encryptionKeyBytes } from '@genset/protocol';

const IV_BYTES = 16;
const keys = new Map<string, Promise<CryptoKey>>();

function aesKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new Uint8Array(encryptionKeyBytes(secret)), { name: 'AES-CBC' }, false, [
      'encrypt',
      'decrypt',
    ]);
    keys.set(secret, key);
  }
  return key;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function encryptText(plain: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const cipher = await crypto.subtle.encrypt(
    { name: 'AES-CBC', iv },
    await aesKey(secret),
    new TextEncoder().encode(plain),
  );
  const out = new Uint8Array(IV_BYTES + cipher.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(cipher), IV_BYTES);
  return bytesToBase64(out);
}

export async function decryptText(paramStr: string, secret: string): Promise<string> {
  const bytes = base64ToBytes(paramStr);
  if (bytes.length <= IV_BYTES) throw new Error('Encrypted body too short');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-CBC', iv: bytes.slice(0, IV_BYTES) },
    await aesKey(secret),
    bytes.slice(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}
