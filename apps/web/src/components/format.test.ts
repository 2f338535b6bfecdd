// The console's one formatter: numbers, units, sizes, scale marks, settings and moments in the interface language,
// and a set's own time always with its zone named.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConfigParamValue } from '@genset/protocol';
import { LANGUAGE_STORAGE_KEY } from '../i18n/languages.ts';
import { formatTime } from '../features/monitor/format.ts';
import { rangeText, valueText } from '../features/remote-config/outcome.ts';
import {
  decimalSeparator,
  formatBytes,
  formatDateTime,
  formatFixed,
  formatMoment,
  formatTick,
  formatValue,
  readerZone,
} from './format.ts';

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

// 28 November 2026, 06:05:09 UTC: 14:05 in Shanghai
const TS = Date.UTC(2026, 10, 28, 6, 5, 9);
const setting = {
  key: 'battery_low_warning_v',
  unit: 'V',
  decimals: 1,
  min: 8,
  max: 30.5,
} as unknown as ConfigParamValue;

describe('numbers and units in Russian', () => {
  it('comma decimals and Cyrillic units everywhere, remote configuration included', () => {
    speak('ru-RU');
    expect(formatValue(12.5, 'kW')).toBe('12,5 кВт');
    expect(formatFixed(23.4, 2)).toBe('23,40');
    expect(valueText(setting, 23.4, '—')).toBe('23,4 В');
    expect(rangeText(setting)).toBe('8 … 30,5 В');
    expect(formatValue(3133, 'h', 0)).toBe('3\u00a0133 ч');
    // the setting inputs take the decimal sign the rest of the page writes
    expect(decimalSeparator()).toBe(',');
    speak('en-US');
    expect(decimalSeparator()).toBe('.');
  });

  it('sizes in the language’s units, no "KB"', () => {
    speak('ru-RU');
    const size = formatBytes(1.5 * 1024 * 1024);
    expect(size).toMatch(/^1,5\sМБ$/);
    expect(formatBytes(2048)).not.toContain('KB');
    speak('en-US');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('dial marks in the language’s short form, never "1.5k"', () => {
    speak('ru-RU');
    expect(formatTick(1500)).toMatch(/^1,5\sтыс\.$/);
    expect(formatTick(900)).toBe('900');
    speak('en-US');
    expect(formatTick(1500)).toBe('1.5K');
    expect(formatTick(40)).toBe('40');
  });
});

describe('moments', () => {
  it('are written the language’s way, not as ISO text', () => {
    speak('ru-RU');
    expect(formatDateTime(TS, true, 'UTC')).toBe('28.11.2026, 6:05:09 UTC');
    speak('zh-CN');
    expect(formatDateTime(TS, false, 'Asia/Shanghai')).toBe('2026/11/28 GMT+8 14:05');
    expect(formatDateTime(TS)).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('a set’s time names its zone; the header and the alarms of the live page use it', () => {
    speak('en-US');
    expect(formatTime(TS, 'Asia/Shanghai')).toBe('11/28/2026, 2:05:09 PM GMT+8');
    expect(formatTime(TS, 'Europe/London')).toBe('11/28/2026, 6:05:09 AM GMT');
    // the reader's own clock names the reader's zone too
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: readerZone(), timeZoneName: 'short' })
      .formatToParts(TS)
      .find((p) => p.type === 'timeZoneName')!.value;
    expect(formatMoment(TS, { seconds: true, timeZone: readerZone() })).toContain(zone);
    // an unknown zone still names the zone the time is given in
    expect(formatTime(TS, 'Mars/Olympus')).toMatch(/(GMT|UTC)/);
  });
});
