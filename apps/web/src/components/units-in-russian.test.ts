// Units in Russian are written in Cyrillic wherever the console shows them (кВт, В, Гц, ч, мм): the units of the
// set form and its details, the dimensions typed as on a plate, and the translated texts; the other languages keep
// the international symbols.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from '@genset/protocol';
import { LANGUAGE_STORAGE_KEY } from '../i18n/languages.ts';
import { FIELD_GROUPS } from '../features/gensets/form-fields.ts';
import { hoursText } from '../features/maintenance/plan-view.tsx';
import { formatWithUnit } from '../features/monitor/format.ts';
import { localUnit, localUnitsInText, withUnit } from './format.ts';

const stored = new Map<string, string>();
beforeAll(() => {
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  });
});
const speak = (lang: string) => localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
afterEach(() => stored.clear());

/** The unit symbols a genset page shows (those the page audit found in Latin letters among them). */
const SYMBOLS = [
  'mm',
  'bit',
  'bit/s',
  'mV',
  'hPa',
  'kWh',
  'kW',
  'kPa',
  'Hz',
  'V',
  'A',
  'h',
  'km',
  'kg',
  'r/min',
  'kVA',
];
const LATIN = /[A-Za-z]/;

describe('units in Russian', () => {
  it('every unit symbol of a set’s pages has a Cyrillic form', () => {
    speak('ru-RU');
    expect(SYMBOLS.filter((u) => LATIN.test(localUnit(u)))).toEqual([]);
    expect(localUnit('bit')).toBe('бит');
    expect(withUnit('Мощность', 'kW')).toBe('Мощность (кВт)');
    // run hours of the maintenance pages and the maintain tab
    expect(hoursText(1234.5)).toBe('1\u00a0234,5 ч');
    expect(formatWithUnit(3133, 0, 'h')).toBe('3\u00a0133 ч');
  });

  it('every unit of the set form and its details is written in Cyrillic', () => {
    speak('ru-RU');
    const units = FIELD_GROUPS.flatMap((g) => g.fields.map((f) => f.unit ?? '')).filter(Boolean);
    expect(units.length).toBeGreaterThan(5);
    expect(units.filter((u) => LATIN.test(localUnit(u)))).toEqual([]);
  });

  it('dimensions typed as on the plate show their unit the reader’s way, the rest as typed', () => {
    speak('ru-RU');
    expect(localUnitsInText('3500 × 1500 × 2000 mm')).toBe('3500 × 1500 × 2000 мм');
    expect(localUnitsInText('3.2 m x 1.4 m x 1.9 m')).toBe('3.2 м x 1.4 м x 1.9 м');
    expect(localUnitsInText('1900x950x1300mm')).toBe('1900x950x1300мм');
    // not a unit after a number, or a symbol the table does not know: as typed
    expect(localUnitsInText('mm 3500 Stamford 12 pcs')).toBe('mm 3500 Stamford 12 pcs');
    expect(localUnitsInText('C150D5')).toBe('C150D5');
    const size = FIELD_GROUPS.flatMap((g) => g.fields).find((f) => f.name === 'size');
    expect(size?.measures).toBe(true);
  });

  it('the other languages keep the international symbols', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'ru-RU')) {
      speak(lang);
      expect(SYMBOLS.map(localUnit)).toEqual(SYMBOLS);
      expect(hoursText(12)).toBe('12 h');
      expect(localUnitsInText('3500 × 1500 × 2000 mm')).toBe('3500 × 1500 × 2000 mm');
    }
  });

  it('no Russian text writes a unit in Latin letters', () => {
    const dir = join(import.meta.dirname, '..', 'i18n', 'locales', 'ru-RU');
    const unit = new RegExp(
      `(?<![\\p{L}\\d_])(${SYMBOLS.map((u) => u.replace('/', '\\/')).join('|')})(?![\\p{L}\\d_])`,
      'u',
    );
    const found: string[] = [];
    const walk = (path: string, node: unknown) => {
      if (node && typeof node === 'object')
        for (const [k, v] of Object.entries(node as Record<string, unknown>)) walk(`${path}.${k}`, v);
      else if (typeof node === 'string' && unit.test(node.replace(/\{\{[^}]*\}\}|<\/?\w+>/g, ' ')))
        found.push(`${path}: ${node}`);
    };
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
      walk(file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
