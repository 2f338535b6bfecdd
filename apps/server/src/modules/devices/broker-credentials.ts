// A module's secret as an external Mosquitto broker checks it: PBKDF2-SHA512 in mosquitto_passwd's format
// (`$7$<iterations>$<salt base64>$<hash base64>`), which Mosquitto's password file and its dynamic-security
// plugin both use. Secrets are 144 random bits, so the iteration count only has to keep a broker quick when a
// whole fleet reconnects at once: mosquitto_passwd's own 101.
import { pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export const BROKER_HASH_ITERATIONS = 101;
const SALT_BYTES = 12;
const HASH_BYTES = 64;

export interface BrokerHash {
  iterations: number;
  salt: Buffer;
  hash: Buffer;
}

export function brokerHash(secret: string, salt: Buffer = randomBytes(SALT_BYTES)): string {
  const hash = pbkdf2Sync(secret, salt, BROKER_HASH_ITERATIONS, HASH_BYTES, 'sha512');
  return `$7$${BROKER_HASH_ITERATIONS}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** The parts of a `$7$` hash (null for anything else). */
export function parseBrokerHash(stored: string): BrokerHash | null {
  const m = /^\$7\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!m) return null;
  return { iterations: Number(m[1]), salt: Buffer.from(m[2]!, 'base64'), hash: Buffer.from(m[3]!, 'base64') };
}

export function verifyBrokerHash(stored: string, secret: string): boolean {
  const parsed = parseBrokerHash(stored);
  if (!parsed) return false;
  const actual = pbkdf2Sync(secret, parsed.salt, parsed.iterations, parsed.hash.length, 'sha512');
  return timingSafeEqual(actual, parsed.hash);
}
