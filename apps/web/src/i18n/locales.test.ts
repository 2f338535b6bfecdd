// Every language has every key, none empty, with the same placeholders; every key the code uses exists.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, V } from '@genset/protocol';

const LOCALES = join(import.meta.dirname, 'locales');
const SRC = join(import.meta.dirname, '..');

type Tree = { [key: string]: unknown };

function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Tree)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

function loadLanguage(lang: string): Tree {
  const dir = join(LOCALES, lang);
  const tree: Tree = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    tree[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  }
  return tree;
}

const trees = Object.fromEntries(LANGUAGES.map((lang) => [lang, loadLanguage(lang)]));
const flat = Object.fromEntries(LANGUAGES.map((lang) => [lang, flatten(trees[lang])]));
const reference = flat['en-US']!;

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((m) => m[1] ?? `<${m[2]}>`).sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'locales' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('locale files', () => {
  it('exist for all six languages with the same files', () => {
    const files = (lang: string) => readdirSync(join(LOCALES, lang)).sort();
    for (const lang of LANGUAGES) expect(files(lang), lang).toEqual(files('en-US'));
  });

  for (const lang of LANGUAGES) {
    it(`${lang} has every key, none empty, with the same placeholders`, () => {
      const keys = flat[lang]!;
      const missing = [...reference.keys()].filter((k) => !keys.has(k));
      const extra = [...keys.keys()].filter((k) => !reference.has(k));
      const empty = [...keys].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
      const mismatched = [...reference]
        .filter(([k, v]) => keys.has(k) && typeof v === 'string')
        .filter(([k, v]) => placeholders(String(keys.get(k))).join() !== placeholders(v as string).join())
        .map(([k]) => k);
      expect({ missing, extra, empty, mismatched }).toEqual({ missing: [], extra: [], empty: [], mismatched: [] });
    });
  }

  it('translate the shared validation keys', () => {
    for (const key of Object.values(V)) expect(reference.has(key), key).toBe(true);
  });

  it('hold every key the code asks for', () => {
    const unknown: string[] = [];
    const hasPrefix = (prefix: string) => [...reference.keys()].some((k) => k.startsWith(prefix));
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      const where = relative(SRC, file);
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z][\w.]*)'|i18nKey="([\w.]+)"|titleKey: '([\w.]+)'/g)) {
        const key = m[1] ?? m[2] ?? m[3]!;
        if (!reference.has(key) && !hasPrefix(`${key}.`)) unknown.push(`${where}: ${key}`);
      }
      for (const m of text.matchAll(/\bt\(\s*`([a-zA-Z][\w.]*)\.\$\{/g)) {
        if (!hasPrefix(`${m[1]}.`)) unknown.push(`${where}: ${m[1]}.*`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
