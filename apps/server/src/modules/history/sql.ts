// The few SQL pieces that differ between SQLite and PostgreSQL in history queries: reading a number or an
// object out of a JSON text column, and the index of the fixed-width time bucket a row falls in. Keys and
// paths are bound as parameters, so each query shape is prepared once.
import { sql, type RawBuilder } from 'kysely';
import type { DbKind } from '../../db/database.ts';

export interface HistorySql {
  /** Member `key` of JSON `expr` (text column or object) as a number, null when absent. */
  num(expr: RawBuilder<unknown>, key: string): RawBuilder<number | null>;
  /** Member `key` of JSON `expr` as it is stored (text on PostgreSQL), for values that may not be numbers. */
  raw(expr: RawBuilder<unknown>, key: string): RawBuilder<unknown>;
  /** Member `key` of JSON text column `expr` as a JSON object (read once, then `num` on the small object). */
  obj(expr: RawBuilder<unknown>, key: string): RawBuilder<unknown>;
  /** floor((time - start) / step) as an integer. */
  bucketIndex(time: RawBuilder<unknown>, start: number, step: number): RawBuilder<number>;
  /** Ends a subquery so that the planner evaluates its columns once instead of inlining them per use. */
  fence: RawBuilder<unknown>;
}

export function historySql(kind: DbKind): HistorySql {
  if (kind === 'postgres') {
    return {
      num: (expr, key) => sql<number | null>`((${expr})::json ->> ${key}::text)::double precision`,
      raw: (expr, key) => sql`(${expr})::json ->> ${key}::text`,
      obj: (expr, key) => sql`(${expr})::json -> ${key}::text`,
      bucketIndex: (time, start, step) =>
        sql<number>`floor(((${time}) - ${start}::bigint)::double precision / ${step}::double precision)::bigint`,
      fence: sql`offset 0`,
    };
  }
  return {
    num: (expr, key) => sql<number | null>`json_extract(${expr}, ${`$.${key}`})`,
    raw: (expr, key) => sql`json_extract(${expr}, ${`$.${key}`})`,
    obj: (expr, key) => sql`json_extract(${expr}, ${`$.${key}`})`,
    bucketIndex: (time, start, step) => sql<number>`cast(((${time}) - ${start}) / ${step} as integer)`,
    fence: sql`limit -1 offset 0`,
  };
}
