import { describe, expect, it } from 'vitest';
import { keepRecent, memoize } from './memo.ts';

describe('memoize', () => {
  it('computes each argument once, and starts afresh past its size', () => {
    const seen: string[] = [];
    const upper = memoize((text: string) => {
      seen.push(text);
      return text.toUpperCase();
    }, 2);
    expect([upper('a'), upper('b'), upper('a')]).toEqual(['A', 'B', 'A']);
    expect(seen).toEqual(['a', 'b']);
    upper('c'); // full: forgets a and b
    upper('a');
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('keepRecent', () => {
  it('drops the least recently used entry past its size', () => {
    const map = new Map<string, number>();
    keepRecent(map, 'a', 1, 2);
    keepRecent(map, 'b', 2, 2);
    keepRecent(map, 'a', 1, 2); // a used again
    keepRecent(map, 'c', 3, 2); // b goes
    expect([...map.keys()]).toEqual(['a', 'c']);
  });
});
