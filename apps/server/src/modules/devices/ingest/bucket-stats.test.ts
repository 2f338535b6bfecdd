import { describe, expect, it } from 'vitest';
import { BucketStats, ItemIndex } from './bucket-stats.ts';

describe('a rollup bucket in memory', () => {
  it('keeps min, max, sum, count, first and last of each item and writes them as the tables hold them', () => {
    const items = new ItemIndex();
    const b = new BucketStats(items);
    for (const [kw, hz] of [
      [10, 50],
      [30, 49.9],
      [20, 50.1],
    ] as const) {
      b.add('gen_kw', kw);
      b.add('frequency', hz);
    }
    b.add('oil_pressure', 3.5);
    expect(b.toJSON()).toEqual({
      gen_kw: { min: 10, max: 30, sum: 60, n: 3, first: 10, last: 20 },
      frequency: { min: 49.9, max: 50.1, sum: 150, n: 3, first: 50, last: 50.1 },
      oil_pressure: { min: 3.5, max: 3.5, sum: 3.5, n: 1, first: 3.5, last: 3.5 },
    });
  });

  it('reads a stored bucket back and goes on from it; items new to the protocol grow every bucket', () => {
    const items = new ItemIndex();
    const other = new BucketStats(items);
    other.add('gen_kw', 5);
    const stored = { gen_kw: { min: 1, max: 9, sum: 20, n: 4, first: 2, last: 9 } };
    const b = BucketStats.fromJSON(items, stored);
    b.add('gen_kw', 12);
    for (let i = 0; i < 100; i++) b.add(`item_${i}`, i);
    expect(b.toJSON().gen_kw).toEqual({ min: 1, max: 12, sum: 32, n: 5, first: 2, last: 12 });
    expect(b.toJSON().item_99).toEqual({ min: 99, max: 99, sum: 99, n: 1, first: 99, last: 99 });
    // a bucket made before the items grew says only what it holds
    expect(other.toJSON()).toEqual({ gen_kw: { min: 5, max: 5, sum: 5, n: 1, first: 5, last: 5 } });
    other.add('item_50', 1);
    expect(Object.keys(other.toJSON())).toEqual(['gen_kw', 'item_50']);
  });
});
