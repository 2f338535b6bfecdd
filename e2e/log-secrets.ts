// What the browser tests' server log must never hold: a session token, an embedding code, a video lease or the
// value of a key-like query parameter. The server stores tokens and codes only as hashes, so every 43-character
// token-shaped word of the log is hashed and looked for among the sessions and codes of the run; leases (held in
// memory only) and query parameters are recognised by where they stand.
import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.ts';

/** A word of the session tokens' alphabet and length (newToken: 32 random bytes, base64url). */
const TOKEN_WORD = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
/** A video lease in a player's address, unless redacted. */
const LEASE = /\/video\/live\/(?!\[redacted\])[^/?#"\s]+/g;
/** A key-like query parameter with its value (the request log writes `[redacted]` instead). */
const KEY_PARAM =
  /[?&]([A-Za-z_]*(?:token|code|lease|sign|secret|password|api_?key)[A-Za-z_]*)=(?!\[redacted\])([^&"\s]+)/gi;

export interface Finding {
  /** What was found, its middle masked. */
  what: string;
  /** The log line (1-based) it is on. */
  line: number;
}

const mask = (s: string) => (s.length > 12 ? `${s.slice(0, 4)}…${s.slice(-4)}` : '…');

/** Every secret of the run the log text holds. */
export async function secretsInLog(text: string, db: Kysely<Database>): Promise<Finding[]> {
  const found: Finding[] = [];
  const lines = text.split('\n');
  const words = new Map<string, number>();
  lines.forEach((line, i) => {
    for (const m of line.matchAll(TOKEN_WORD)) if (!words.has(m[0])) words.set(m[0], i + 1);
    for (const m of line.matchAll(LEASE)) found.push({ what: `video lease ${mask(m[0])}`, line: i + 1 });
    for (const m of line.matchAll(KEY_PARAM))
      found.push({ what: `query parameter ${m[1]}=${mask(m[2]!)}`, line: i + 1 });
  });
  const byHash = new Map([...words].map(([word, line]) => [hash('sha256', word, 'hex'), { word, line }]));
  const hashes = [...byHash.keys()];
  for (let i = 0; i < hashes.length; i += 500) {
    const batch = hashes.slice(i, i + 500);
    const sessions = await db.selectFrom('session').select('token_hash').where('token_hash', 'in', batch).execute();
    for (const s of sessions) {
      const { word, line } = byHash.get(s.token_hash)!;
      found.push({ what: `session token ${mask(word)}`, line });
    }
    const codes = await db
      .selectFrom('sms_code')
      .select('target')
      .where(
        'target',
        'in',
        batch.map((h) => `embed:${h}`),
      )
      .execute();
    for (const c of codes) {
      const { word, line } = byHash.get(c.target.slice('embed:'.length))!;
      found.push({ what: `embedding code ${mask(word)}`, line });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}
