// Queries built and compiled once. Kysely builds a query's syntax tree and compiles it to SQL on every call,
// which costs tens of microseconds: on the calls every signed request makes, that was a tenth of the work.
// A prepared query is built once with placeholders for its parameters and run with each call's values in
// their places; the database keeps the statement prepared (see node-sqlite-dialect.ts), so nothing is parsed
// again either.
import type { Compilable } from 'kysely';
import type { Db } from './database.ts';

/** Stands for the call's i-th argument while the query is built. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * `build` receives one placeholder per parameter and must use each only as a plain value (`where(col, '=', p)`),
 * never in an expression Kysely would look into. Returns the rows of the query for the given arguments.
 */
export function prepareQuery<A extends unknown[], R>(
  db: Db,
  arity: A['length'],
  build: (...params: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i));
  const compiled = build(...(placeholders as unknown as A)).compile();
  const slots = compiled.parameters.map((p) => (p instanceof Placeholder ? p.index : -1));
  if (placeholders.some((p) => !slots.includes(p.index)))
    throw new Error('a prepared query must use every one of its parameters');
  return async (...args: A) => {
    const parameters = compiled.parameters.map((p, i) => (slots[i]! >= 0 ? args[slots[i]!] : p));
    return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}
