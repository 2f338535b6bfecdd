// Argon2id password hashing (OWASP's first choice); a fixed dummy hash keeps the timing of a sign-in for an
// unknown account the same as for a known one.
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id (a const enum that cannot be imported under verbatimModuleSyntax).
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('not-a-real-password-1!');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
