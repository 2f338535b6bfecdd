// The runtime-data export: a set's history over a range as a real XLSX workbook (read back with exceljs)
// or a CSV file, with titles in the user's language and units, times in the user's time zone, samples up
// to two days and hourly averages beyond; errors stay envelopes (validation, 404 for other people's sets).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import type { TestApp } from './helpers.ts';
import {
  DAY,
  HOUR,
  insertRollups,
  moduleFor,
  newSet,
  RUNNING,
  stats,
  serverWithStranger,
} from './support/history-data.ts';

let t: TestApp;
let manager: string;
let stranger: string;
let companyId: number;
const name = (key: string, lang: 'en-US' | 'zh-CN' | 'ru-RU') => layoutS.items.find((i) => i.key === key)!.name[lang];

async function download(token: string, body: Record<string, unknown>, o: { lang?: string; tz?: string } = {}) {
  const time = String(Math.floor(Date.now() / 1000));
  const res = await t.app.inject({
    method: 'POST',
    url: '/yewu/genset/exportruntimedata',
    headers: {
      'x-time': time,
      'x-token': token,
      'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
      'accept-language': o.lang ?? 'en-US',
      'x-timezone': o.tz ?? 'UTC',
    },
    payload: body,
  });
  return res;
}

async function sheetOf(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

beforeAll(async () => ({ t, manager, companyId, stranger } = await serverWithStranger()));
afterAll(async () => t.close());

describe('runtime-data export', () => {
  let set: Awaited<ReturnType<typeof newSet>>;
  // Three samples at known instants of the last day: 2 h, 1 h and 30 min ago, whole seconds.
  const base = Math.floor(Date.now() / 1000) * 1000;
  const times = [base - 2 * HOUR, base - HOUR, base - HOUR / 2];

  beforeAll(async () => {
    set = await newSet(t, { companyId, name: 'Export/set' });
    const m = await moduleFor(t, set);
    for (const [i, ts] of times.entries()) await m.send({ ...RUNNING, gen_kw: 12.5 * (i + 1), fuel_level: 70 - i }, ts);
    await m.close();
  });

  it('writes an XLSX file of the samples with titles in the user’s language, units and local times', async () => {
    const res = await download(
      manager,
      { token: set.token, items: ['gen_kw', 'fuel_level'], range: 'custom', start: base - DAY, end: base },
      { lang: 'zh-CN', tz: 'Asia/Shanghai' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''Export-set_");
    const sheet = await sheetOf(res.rawPayload);
    expect(sheet.name).toBe('运行数据');
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '时间（Asia/Shanghai）',
      '状态',
      `${name('gen_kw', 'zh-CN')} (kW)`,
      `${name('fuel_level', 'zh-CN')} (%)`,
    ]);
    expect(sheet.rowCount).toBe(4);
    for (const [i, ts] of times.entries()) {
      const row = sheet.getRow(i + 2);
      // The cell holds the wall-clock time of Shanghai (UTC+8).
      expect((row.getCell(1).value as Date).getTime()).toBe(ts + 8 * HOUR);
      expect(row.getCell(2).value).toBe('运行');
      expect(row.getCell(3).value).toBe(12.5 * (i + 1));
      expect(row.getCell(4).value).toBe(70 - i);
    }
    expect(sheet.getColumn(3).numFmt).toBe('0.0');
  });

  it('writes the same rows as CSV with a byte order mark', async () => {
    const res = await download(
      manager,
      { token: set.token, items: ['gen_kw'], range: 'custom', start: base - DAY, end: base, format: 'csv' },
      { lang: 'ru-RU', tz: 'UTC' },
    );
    expect(res.headers['content-type']).toContain('text/csv');
    const text = res.body;
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    // Russian writes the unit in Cyrillic, as the rest of the console does
    expect(lines[0]).toBe(`Время (UTC),Состояние,${name('gen_kw', 'ru-RU')} (кВт)`);
    expect(lines.slice(1)).toEqual(
      times.map((ts, i) => `${new Date(ts).toISOString().slice(0, 19).replace('T', ' ')},Работает,${12.5 * (i + 1)}`),
    );
  });

  it('exports every measurement when no items are named', async () => {
    const res = await download(manager, { token: set.token, range: 'custom', start: base - DAY, end: base });
    const sheet = await sheetOf(res.rawPayload);
    const titles = (sheet.getRow(1).values as string[]).filter(Boolean);
    expect(titles).toContain(`${name('coolant_temp', 'en-US')} (°C)`);
    expect(titles).not.toContain(`${name('latitude', 'en-US')} (°)`);
  });

  it('a month is exported as hourly averages', async () => {
    const long = await newSet(t, { companyId });
    const h0 = Math.floor((Date.now() - 40 * DAY) / HOUR) * HOUR;
    await insertRollups(
      t,
      'rollup_hour',
      long.id,
      Array.from({ length: 30 * 24 }, (_, i) => ({ bucket: h0 + i * HOUR, stats: { gen_kw: stats(i % 24) } })),
    );
    const res = await download(manager, {
      token: long.token,
      items: ['gen_kw'],
      range: 'custom',
      start: h0,
      end: h0 + 30 * DAY,
    });
    const sheet = await sheetOf(res.rawPayload);
    expect(sheet.rowCount).toBe(1 + 30 * 24);
    // the hourly rows have a status column like the samples' (empty where no status change is known)
    expect(sheet.getRow(1).values).toEqual([undefined, 'Time (UTC)', 'Status', `${name('gen_kw', 'en-US')} (kW)`]);
    expect(sheet.getRow(12).getCell(3).value).toBe(10);
  });

  it('answers errors as envelopes: bad input, someone else’s set', async () => {
    const bad = await download(manager, { token: set.token, range: 'custom', start: base, end: base - DAY });
    expect(bad.json()).toMatchObject({ code: 400 });
    const fmt = await download(manager, { token: set.token, format: 'pdf' });
    expect(fmt.json().data.fields).toHaveProperty('format');
    const hidden = await download(stranger, { token: set.token, range: 'week' });
    expect(hidden.json()).toMatchObject({ code: 404 });
  });
});
