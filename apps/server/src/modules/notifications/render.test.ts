// A notice's time is the set's, and names the set's zone, so that it is never read as the reader's own.
import { describe, expect, it } from 'vitest';
import { renderNotice } from './render.ts';

const facts = {
  set: 'Harbour set 2',
  title: { 'en-US': 'Low oil pressure', 'ru-RU': 'Низкое давление масла' },
  level: 'shutdown',
  ts: Date.UTC(2026, 10, 28, 6, 5),
  timeZone: 'Asia/Shanghai',
};

describe('the time in a notice', () => {
  it('is the set’s local time with its zone named, in the reader’s language', () => {
    expect(renderNotice('alarm.raised', facts, 'en-US').text).toContain('Nov 28, 2026, 2:05 PM GMT+8');
    expect(renderNotice('alarm.raised', facts, 'ru-RU').text).toContain('28 нояб. 2026 г., 14:05 GMT+8');
  });
});
