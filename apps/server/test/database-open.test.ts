// A server starting on PostgreSQL while other schemas of the same database come and go (another instance's, a
// test's): its migration looks at its own schema only, so a schema dropped meanwhile elsewhere does not fail it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { PG_URL } from './helpers.ts';

const name = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!PG_URL)('opening the database on PostgreSQL', () => {
  it('migrates a fresh schema while other schemas with tables are created and dropped beside it', async () => {
    let stop = false;
    let churned = 0;
    const churn = withClient(async (c) => {
      while (!stop) {
        const other = name('churn');
        await c.query(`create schema ${other}; create table ${other}.a (id serial primary key, v text)`);
        await c.query(`drop schema ${other} cascade`);
        churned++;
      }
    });
    const failures: string[] = [];
    const tables: string[][] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const schema = name('t');
        await withClient((c) => c.query(`create schema ${schema}`));
        try {
          const opened = await openDatabase(PG_URL!, { schema });
          try {
            tables.push((await opened.db.introspection.getTables()).map((t) => `${t.schema}.${t.name}`));
          } finally {
            await opened.close();
          }
        } catch (err) {
          failures.push(String(err));
        } finally {
          await withClient((c) => c.query(`drop schema ${schema} cascade`));
        }
      }
    } finally {
      stop = true;
      await churn;
    }
    expect(failures).toEqual([]);
    expect(churned).toBeGreaterThan(8);
    // what the migrator sees is the server's own schema, every table of it
    for (const list of tables) {
      const schemas = new Set(list.map((t) => t.split('.')[0]));
      expect(schemas.size).toBe(1);
      expect(list.map((t) => t.split('.')[1])).toEqual(
        expect.arrayContaining(['genset', 'sample', 'kysely_migration']),
      );
    }
  }, 120000);
});
