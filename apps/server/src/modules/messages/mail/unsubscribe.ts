// The token in a notice's one-click unsubscribe address (RFC 8058): it names the person and proves the server made
// it, so a mail client can unsubscribe without a session. It does not expire, since a notice read a month later
// must still let its reader stop them.
import { createHmac, timingSafeEqual } from 'node:crypto';

// A label of its own, so that no other HMAC made with the same secret (one-time code hashes) is ever a valid token.
const LABEL = 'list-unsubscribe';

const mac = (secret: string, id: string) => createHmac('sha256', secret).update(`${LABEL}\n${id}`).digest('base64url');

/** `<userId>.<mac>`: URL-safe as it is. */
export function unsubscribeToken(secret: string, userId: number): string {
  if (!Number.isSafeInteger(userId) || userId < 0) throw new RangeError(`not a user id: ${userId}`);
  const id = String(userId);
  return `${id}.${mac(secret, id)}`;
}

/** The user id the token was made for, or null when it was not made with this secret. */
export function verifyUnsubscribeToken(secret: string, token: string): number | null {
  const match = /^(0|[1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, id = '', given = ''] = match;
  const userId = Number(id);
  if (!Number.isSafeInteger(userId)) return null;
  const expected = Buffer.from(mac(secret, id));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? userId : null;
}
