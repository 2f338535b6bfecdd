// The SQL pieces of history queries that differ between SQLite and PostgreSQL, and the way values are read
// out of the JSON text columns without parsing them whole.
//
// A rollup row holds the stats of every item of the set (about 11 KB of JSON for a layout-S set); parsing
// all of it to read one item made a three-month chart (2,200 rows) parse 25 MB. Ingestion writes these
// columns with JSON.stringify: no spaces, every key once, in quotes, and no braces inside an item's stats.
// So the text after `"key":` is found with a plain substring search, and only a short window of it is
// read: the item's stats object in a rollup ({"min":…,"last":…}), or the number in a sample's values.
// The history tests read rollups and samples that the real ingestion path wrote, which keeps this honest.
import { sql, type RawBuilder } from 'kysely';
import type { DbKind } from '../../db/database.ts';

/** Longest text an item's stats object takes ({"min":…,"max":…,"sum":…,"n":…,"first":…,"last":…}). */
const STATS_WINDOW = 400;
/** Longest text a number takes in JSON (sign, 17 digits, point, exponent) with its delimiter. */
const NUMBER_WINDOW = 32;

export interface HistorySql {
  /** Member `key` of JSON `expr` (a small object or a text column) as a number, null when absent. */
  num(expr: RawBuilder<unknown>, key: string): RawBuilder<number | null>;
  /** Member `key` of JSON `expr` as stored (text on PostgreSQL), for values that may not be numbers. */
  raw(expr: RawBuilder<unknown>, key: string): RawBuilder<unknown>;
  /**
   * The text after `"key":` in a rollup's stats column, long enough for the item's stats object (null when
   * absent). The one scan of the whole column: select it in a fenced subquery, then read it with statsObject.
   */
  statsWindow(stats: RawBuilder<unknown>, key: string): RawBuilder<string | null>;
  /** The item's stats object (JSON text) out of a statsWindow. */
  statsObject(window: RawBuilder<unknown>): RawBuilder<string | null>;
  /** The text after `"key":` in a sample's values column, long enough for a number. */
  valueWindow(values: RawBuilder<unknown>, key: string): RawBuilder<string | null>;
  /** The number at the start of a valueWindow (null for JSON null or an absent key). */
  valueNumber(window: RawBuilder<unknown>): RawBuilder<number | null>;
  /**
   * The column's value read once: PostgreSQL decompresses a large text on every function that reads it, so a
   * query reading several items selects it detoasted in a fenced subquery first.
   */
  detoasted(expr: RawBuilder<unknown>): RawBuilder<unknown>;
  /** floor((time - start) / step) as an integer. */
  bucketIndex(time: RawBuilder<unknown>, start: number, step: number): RawBuilder<number>;
  /** Ends a subquery so that the planner evaluates its columns once instead of inlining them per use. */
  fence: RawBuilder<unknown>;
}

export function historySql(kind: DbKind): HistorySql {
  if (kind === 'postgres') {
    // split_part works on bytes (strpos and substr count characters of UTF-8 text) and reads the column
    // once; a missing key gives '' and so null.
    const tail = (expr: RawBuilder<unknown>, key: string) => sql<string>`split_part(${expr}, ${`"${key}":`}::text, 2)`;
    return {
      num: (expr, key) => sql<number | null>`((${expr})::json ->> ${key}::text)::double precision`,
      raw: (expr, key) => sql`(${expr})::json ->> ${key}::text`,
      statsWindow: (stats, key) => sql<string | null>`nullif(split_part(${tail(stats, key)}, '}', 1), '')`,
      statsObject: (w) => sql<string | null>`(${w} || '}')`,
      valueWindow: (values, key) => sql<string | null>`left(${tail(values, key)}, ${NUMBER_WINDOW}::int)`,
      valueNumber: (w) =>
        sql<number | null>`nullif(nullif(rtrim(split_part(${w}, ',', 1), '}'), ''), 'null')::double precision`,
      detoasted: (expr) => sql`(${expr} || '')`,
      bucketIndex: (time, start, step) =>
        sql<number>`floor(((${time}) - ${start}::bigint)::double precision / ${step}::double precision)::bigint`,
      fence: sql`offset 0`,
    };
  }
  const after = (expr: RawBuilder<unknown>, key: string, length: number) =>
    sql<string | null>`substr(${expr}, nullif(instr(${expr}, ${`"${key}":`}), 0) + ${key.length + 3}, ${length})`;
  return {
    num: (expr, key) => sql<number | null>`json_extract(${expr}, ${`$.${key}`})`,
    raw: (expr, key) => sql`json_extract(${expr}, ${`$.${key}`})`,
    statsWindow: (stats, key) => after(stats, key, STATS_WINDOW),
    statsObject: (w) => sql<string | null>`substr(${w}, 1, instr(${w}, '}'))`,
    valueWindow: (values, key) => after(values, key, NUMBER_WINDOW),
    // CAST reads the number at the start of the text ("12.5,\"x\":…" → 12.5); JSON null starts with n.
    valueNumber: (w) => sql<number | null>`case when substr(${w}, 1, 1) = 'n' then null else cast(${w} as real) end`,
    detoasted: (expr) => expr,
    bucketIndex: (time, start, step) => sql<number>`cast(((${time}) - ${start}) / ${step} as integer)`,
    fence: sql`limit -1 offset 0`,
  };
}
