// Session tokens and one-time codes: random, shown to the client once, stored only as hashes.
import { createHmac, hash, randomBytes, randomInt } from 'node:crypto';

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function newNumericCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Codes are only a million strong, so they are keyed with the server secret rather than hashed bare. */
export function hashCode(secret: string, target: string, purpose: string, code: string): string {
  return createHmac('sha256', secret).update(`${target}\n${purpose}\n${code}`).digest('hex');
}

export function newInviteCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let out = '';
  for (let i = 0; i < 8; i++) out += alphabet[randomInt(0, alphabet.length)];
  return out;
}
