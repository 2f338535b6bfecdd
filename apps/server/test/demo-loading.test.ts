// The demo's simulated controllers and cloud-module code are not part of the production server: nothing the
// server program loads at start (its static imports, followed from src/main.ts) reaches @genset/simulator or
// @genset/gateway; the demo's own files are imported only when the demo runs.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Static imports and re-exports of a file (`import type` and `export type` are erased, so they do not count). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const pattern = /^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gms;
  for (const match of text.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** Every file the entry reaches through static imports, and the packages it names on the way (by importer). */
function reach(entry: string) {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec));
      else if (!packages.has(spec)) packages.set(spec, file.slice(SRC.length + 1));
    }
  }
  return { files, packages };
}

describe('the production server', () => {
  const { files, packages } = reach(resolve(SRC, 'main.ts'));

  it('loads no simulator and no cloud-module code at start', () => {
    const demoPackages = [...packages].filter(([spec]) => /^@genset\/(simulator|gateway)\b/.test(spec));
    expect(demoPackages).toEqual([]);
    const demoFiles = [...files]
      .map((f) => f.slice(SRC.length + 1))
      .filter((f) => /demo-(fleet|stations|camera)|backfill|station-past/.test(f));
    expect(demoFiles).toEqual([]);
  });

  it('still reaches the whole server (the walk follows imports)', () => {
    const reached = [...files].map((f) => f.slice(SRC.length + 1));
    expect(reached).toEqual(
      expect.arrayContaining(['main.ts', 'app.ts', 'plugins/devices.ts', 'plugins/sites.ts', 'plugins/video.ts']),
    );
    expect(packages.has('fastify')).toBe(true);
  });
});
