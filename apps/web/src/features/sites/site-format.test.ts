// Money of every station the same way: the language's currency format (Intl) with the currency's sign, whether
// the station counts in yuan or in euros.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_STORAGE_KEY } from '../../i18n/languages.ts';
import { currencyUnit, formatMoney } from './site-format.ts';

const stored = new Map<string, string>();
beforeAll(() => {
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  });
});
afterEach(() => stored.clear());

describe('station money', () => {
  it('reads alike for CNY and EUR, in the reader’s language', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en-US');
    expect(formatMoney(1234.5, 'CNY')).toBe('¥1,234.50');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect([currencyUnit('CNY'), currencyUnit('EUR')]).toEqual(['¥', '€']);
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'ru-RU');
    expect(formatMoney(1234.5, 'EUR').replace(/\s/g, ' ')).toBe('1 234,50 €');
    expect(formatMoney(1234.5, 'CNY').replace(/\s/g, ' ')).toBe('1 234,50 ¥');
  });

  it('writes no currency word of its own and nothing for no value', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'zh-CN');
    expect(formatMoney(2, 'CNY')).toBe('¥2.00');
    expect(formatMoney(null, 'EUR')).toBe('—');
  });
});
