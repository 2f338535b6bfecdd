// X-Sign: SHA-256 hex of token + time + secret (without a token: time + secret). Guards against casual
// tampering and replay; it is not a secret from a determined user, HTTPS protects the traffic.
import { sha256 } from 'js-sha256';

export function computeSign(token: string | undefined | null, time: string | number, secret: string): string {
  return sha256(`${token ?? ''}${time}${secret}`);
}

/** Default sign secret for the embedded setup; deployments set API_SIGN_SECRET for server and console build. */
export const DEFAULT_SIGN_SECRET = 'genset-console-sign-v1';

/** AES-256-CBC key of the optional body-encryption mode, derived from the sign secret. */
export function encryptionKeyBytes(secret: string): Uint8Array {
  return new Uint8Array(sha256.array(`${secret}:aes`));
}
