// Searching text as people type it: a LIKE pattern matching the text anywhere, case ignored, its wildcards (% and
// _) and backslashes matched as themselves. The escape character is named: SQLite's LIKE has none by default.
import { sql, type RawBuilder } from 'kysely';

/** What a person typed as a LIKE pattern matching it anywhere (lower case, wildcards escaped with a backslash). */
export function likePattern(text: string): string {
  return `%${text
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Whether the text expression holds what the person typed, on SQLite and PostgreSQL alike. */
export function contains(expr: RawBuilder<unknown>, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${expr}) like ${likePattern(text)} escape '\\'`;
}
