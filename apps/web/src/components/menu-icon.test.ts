// Every icon the server's menu seeds name is bundled, so no menu entry falls back to the neutral icon.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasMenuIcon } from './menu-icon.tsx';

const seedDir = new URL('../../../server/src/seed/', import.meta.url);

describe('menu icons', () => {
  it('bundles every icon a seeded menu entry names', () => {
    const names = new Set<string>();
    for (const file of readdirSync(seedDir).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(new URL(file, seedDir), 'utf8').matchAll(/'([A-Za-z]+Outlined)'/g)) names.add(m[1]!);
    }
    expect(names.size).toBeGreaterThan(20);
    expect([...names].filter((name) => !hasMenuIcon(name))).toEqual([]);
  });
});
