// A rollup bucket's statistics in memory: min, max, sum, count, first and last of each item, six numbers an
// item in one typed array, the items numbered once per protocol. As plain objects (an object of six numbers
// per item) the hour and day buckets of a set of 69 items took 27 KiB of heap; this way they take 6.5 KiB, so
// an instance keeps the buckets of 25,000 reporting sets in about 160 MiB. Written and read as the JSON the
// rollup tables hold (`{item: {min, max, sum, n, first, last}}`).

export interface ItemStats {
  min: number;
  max: number;
  sum: number;
  n: number;
  first: number;
  last: number;
}

const MIN = 0;
const MAX = 1;
const SUM = 2;
const N = 3;
const FIRST = 4;
const LAST = 5;
const WIDTH = 6;

/** The items of one protocol, numbered as they are first seen. */
export class ItemIndex {
  private readonly byKey = new Map<string, number>();
  readonly keys: string[] = [];

  of(key: string): number {
    let i = this.byKey.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.byKey.set(key, i);
      this.keys.push(key);
    }
    return i;
  }

  get size() {
    return this.keys.length;
  }
}

export class BucketStats {
  private data: Float64Array;

  constructor(private readonly items: ItemIndex) {
    this.data = new Float64Array(Math.max(1, items.size) * WIDTH);
  }

  /** Adds a value of an item. */
  add(key: string, v: number) {
    const o = this.items.of(key) * WIDTH;
    if (o + WIDTH > this.data.length) {
      const grown = new Float64Array(Math.max(this.items.size, (this.data.length / WIDTH) * 2) * WIDTH);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    if (d[o + N] === 0) {
      d[o + MIN] = v;
      d[o + MAX] = v;
      d[o + SUM] = v;
      d[o + N] = 1;
      d[o + FIRST] = v;
      d[o + LAST] = v;
      return;
    }
    if (v < d[o + MIN]!) d[o + MIN] = v;
    if (v > d[o + MAX]!) d[o + MAX] = v;
    d[o + SUM] = d[o + SUM]! + v;
    d[o + N] = d[o + N]! + 1;
    d[o + LAST] = v;
  }

  /** The statistics as the rollup tables hold them. */
  toJSON(): Record<string, ItemStats> {
    const out: Record<string, ItemStats> = {};
    const d = this.data;
    const count = Math.min(this.items.size, d.length / WIDTH);
    for (let i = 0; i < count; i++) {
      const o = i * WIDTH;
      if (d[o + N] === 0) continue;
      out[this.items.keys[i]!] = {
        min: d[o + MIN]!,
        max: d[o + MAX]!,
        sum: d[o + SUM]!,
        n: d[o + N]!,
        first: d[o + FIRST]!,
        last: d[o + LAST]!,
      };
    }
    return out;
  }

  /** A bucket as stored in a rollup table. */
  static fromJSON(items: ItemIndex, stored: Record<string, ItemStats>): BucketStats {
    const b = new BucketStats(items);
    for (const [key, s] of Object.entries(stored)) {
      b.add(key, s.first);
      const o = items.of(key) * WIDTH;
      const d = b.data;
      d[o + MIN] = s.min;
      d[o + MAX] = s.max;
      d[o + SUM] = s.sum;
      d[o + N] = s.n;
      d[o + LAST] = s.last;
    }
    return b;
  }
}
