// Every server message exists, non-empty, in all six languages, with the same placeholders as English.
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@genset/protocol';
import { catalogs, core } from './messages.ts';
import { domains } from './catalogs/index.ts';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('server message catalogs', () => {
  const en = catalogs['en-US'];
  it.each(LANGUAGES.filter((l) => l !== 'en-US'))(
    '%s has every key, translated, with the same placeholders',
    (lang) => {
      const catalog = catalogs[lang];
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(catalog)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(en[key]!));
        if (!/^(fields\.(id|token)|errors\.validation)$/.test(key) && en[key]!.length > 4) {
          expect(text, `${lang} ${key} is an English copy`).not.toBe(en[key]);
        }
      }
    },
  );

  it('no domain catalog redefines a key of another catalog (the merge would silently replace it)', () => {
    const owners = new Map<string, number>();
    const twice: string[] = [];
    [core, ...domains].forEach((catalog, index) => {
      for (const key of Object.keys(catalog['en-US'])) {
        if (owners.has(key)) twice.push(`${key} (catalogs ${owners.get(key)} and ${index})`);
        else owners.set(key, index);
      }
    });
    expect(twice).toEqual([]);
  });
});
