import { describe, expect, it } from 'vitest';
import { formatElapsed, formatLastData } from './last-data.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the last data of an offline set', () => {
  // 28 November 2026, 10:41 in London (GMT in winter), 18:41 in Shanghai
  const now = Date.UTC(2026, 10, 28, 10, 41);

  it('names the day and the zone when the last data is from another day of the set', () => {
    const last = formatLastData(now - 2 * DAY, now, { language: 'en-US', timeZone: 'Europe/London' });
    expect(last.time).toBe('Nov 26, 10:41 AM GMT');
    expect(last.ago).toBe('2 days ago');
  });

  it('gives the time alone on the set’s today, in the set’s zone rather than the reader’s', () => {
    const ts = now - 30 * MINUTE;
    const london = formatLastData(ts, now, { language: 'en-US', timeZone: 'Europe/London' });
    expect(london.time).toBe('10:11 AM GMT');
    expect(london.ago).toBe('30 minutes ago');
    expect(formatLastData(ts, now, { language: 'en-US', timeZone: 'Asia/Shanghai' }).time).toBe('6:11 PM GMT+8');
  });

  it('tells the day apart by the set’s calendar: just before its midnight is another day', () => {
    // 23:50 on the 27th in London is 07:50 on the 28th in Shanghai
    const ts = Date.UTC(2026, 10, 27, 23, 50);
    expect(formatLastData(ts, now, { language: 'en-US', timeZone: 'Europe/London' }).time).toBe('Nov 27, 11:50 PM GMT');
    expect(formatLastData(ts, now, { language: 'en-US', timeZone: 'Asia/Shanghai' }).time).toBe('7:50 AM GMT+8');
  });

  it('adds the year when it is not this one', () => {
    const ts = Date.UTC(2025, 11, 31, 12, 0);
    expect(formatLastData(ts, now, { language: 'en-US', timeZone: 'UTC' }).time).toBe('Dec 31, 2025, 12:00 PM UTC');
  });

  it('speaks the reader’s language', () => {
    const ts = now - 2 * DAY;
    expect(formatLastData(ts, now, { language: 'ru-RU', timeZone: 'Europe/London' }).ago).toBe('2 дня назад');
    expect(formatLastData(ts, now, { language: 'zh-CN', timeZone: 'Europe/London' }).ago).toBe('2天前');
    expect(formatLastData(ts, now, { language: 'es-ES', timeZone: 'Europe/London' }).ago).toBe('hace 2 días');
  });

  it('falls back to the reader’s zone for a zone it does not know', () => {
    const ts = now - 5 * MINUTE;
    expect(formatLastData(ts, now, { language: 'en-US', timeZone: 'Mars/Olympus' }).ago).toBe('5 minutes ago');
  });

  it('counts whole units, seconds under a minute and days from one day on', () => {
    expect(formatElapsed(45_000, 'en-US')).toBe('45 seconds ago');
    expect(formatElapsed(59 * MINUTE, 'en-US')).toBe('59 minutes ago');
    expect(formatElapsed(23 * HOUR + 59 * MINUTE, 'en-US')).toBe('23 hours ago');
    expect(formatElapsed(DAY, 'en-US')).toBe('1 day ago');
    expect(formatElapsed(-5000, 'en-US')).toBe('0 seconds ago');
  });
});
