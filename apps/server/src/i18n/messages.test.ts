// Every server message exists, non-empty, in all six languages, with the same placeholders as English.
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@genset/protocol';
import { catalogs } from './messages.ts';

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
});
