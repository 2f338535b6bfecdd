// A query prepared once answers each call with that call's values, as the same query built afresh would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareQuery } from '../src/db/prepared.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('prepared queries', () => {
  it('put each call’s values in their places, whatever the order they appear in', async () => {
    const db = t.app.database.db;
    const built = (account: string, limit: number) =>
      db
        .selectFrom('users')
        .select(['id', 'account'])
        .where('status', '=', 'active')
        .where('account', 'like', account)
        .orderBy('id')
        .limit(limit);
    // the parameters are given in another order than they appear in the SQL
    const prepared = prepareQuery(db, 2, (limit: number, account: string) => built(account, limit));
    for (const [account, limit] of [
      ['%@example.com', 2],
      ['%@example.com', 10],
      ['viewer%', 5],
      ['nobody%', 5],
    ] as const) {
      expect(await prepared(limit, account)).toEqual(await built(account, limit).execute());
    }
    expect((await prepared(10, '%@example.com')).length).toBeGreaterThan(2);
  });

  it('refuses a query that leaves a parameter out', () => {
    const db = t.app.database.db;
    const leftOut = (id: number, _unused: string) => db.selectFrom('users').select('id').where('id', '=', id);
    expect(() => prepareQuery(db, 2, leftOut)).toThrow(/every one of its parameters/);
  });
});
