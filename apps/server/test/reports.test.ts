// Set reports: a report prefilled for last month says what the history pages say for the same set and period
// (readings sent through the real ingestion path, alarms as ingestion stores them); saving makes numbered
// versions, a refused form names its field in the reader's language and saves nothing; exports as PDF and
// XLSX; genset:report and the right to see the set are needed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { computeSign, DEFAULT_SIGN_SECRET, LANGUAGES, REPORT_COLUMNS, type ReportType } from '@genset/protocol';
import { catalogs } from '../src/i18n/messages.ts';
import { dayLabel } from '../src/modules/history/range.ts';
import { reportFonts } from '../src/modules/reports/fonts.ts';
import { reportParts } from '../src/modules/reports/periods.ts';
import { call, createCompany, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { DAY, HOUR, insertAlarm, moduleFor, newSet, RUNNING } from './support/history-data.ts';

const TZ = 'Europe/Istanbul';
let t: TestApp;
let manager: string;
let operator: string;
let stranger: string;
let companyId: number;
let set: Awaited<ReturnType<typeof newSet>>;

/** Last month as days of the set's time zone. */
function lastMonth(): { from: string; to: string } {
  const today = dayLabel(Date.now(), TZ);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 2, 1));
  const last = new Date(Date.UTC(y, m - 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/** Readings of sample i (every six hours): counters that grow, a countdown reset once, peaks that vary. */
function reading(i: number) {
  return {
    ...RUNNING,
    run_hours: 1000 + 3 * i,
    starts: 50 + Math.floor(i / 2),
    kwh_total: 20_000 + 37 * i,
    gen_kw: ((i * 13) % 90) + 5.5,
    coolant_temp: 70 + ((i * 7) % 25),
    fuel_level: 90 - (i % 60),
    battery_voltage: 24 + ((i * 3) % 10) / 10,
    maintenance_hours: i < 60 ? 250 - 3 * i : 250 - 3 * (i - 60),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  const op = await freshUser(t, { companyId, role: 'operator' });
  operator = await login(t.app, op.account, op.password);
  const other = await createCompany(t, 'Other Service Ltd');
  const u = await freshUser(t, { companyId: other, role: 'companyAdmin' });
  stranger = await login(t.app, u.account, u.password);

  set = await newSet(t, { companyId, name: 'Report set', timeZone: TZ });
  const { from, to } = lastMonth();
  const parts = reportParts(from, to, TZ);
  const start = parts[0]!.start;
  const end = parts[5]!.end;
  const m = await moduleFor(t, set);
  for (let i = 0, ts = start + 2 * HOUR; ts < end; i++, ts += 6 * HOUR) await m.send(reading(i), ts);
  await m.close();
  await insertAlarm(t, set.id, { code: 'low_fuel_warning', level: 'warning', start: start + 3 * DAY, end: null });
  await insertAlarm(t, set.id, {
    code: 'over_speed',
    level: 'shutdown',
    start: start + 10 * DAY,
    end: start + 11 * DAY,
  });
  await insertAlarm(t, set.id, { code: 'overload', level: 'trip', start: start + 20 * DAY + HOUR, end: null });
  await insertAlarm(t, set.id, { code: 'battery_low', level: 'warning', start: end + HOUR, end: null });
});
afterAll(async () => t.close());

const prefillPath = (type: ReportType) => (type === 1 ? '/data/dieselGeneratorReport' : '/data/airCompressorReport');
const field = (type: ReportType, key: string) => REPORT_COLUMNS[type].find((c) => c.key === key)!.field;

describe('prefill', () => {
  it('a diesel generator report of last month equals the figures of the history pages, row by row', async () => {
    const { from, to } = lastMonth();
    const res = await call(t.app, 'POST', prefillPath(1), { token: manager, body: { token: set.token, from, to } });
    expect(res.code).toBe(200);
    const { form, parts } = res.data;
    expect(res.data.timeZone).toBe(TZ);
    expect(parts).toHaveLength(6);
    expect(form.one1).toBe('Report set');
    expect(form.rows).toHaveLength(6);

    const counters = ['run_hours', 'starts', 'kwh_total'];
    let before: Record<string, number> | null = null;
    const totals = { runHours: 0, alarms: 0, services: 0 };
    for (const [k, part] of parts.entries()) {
      const range = { range: 'custom', start: part.start, end: part.end };
      const chart = await call(t.app, 'POST', '/history/chart', {
        token: manager,
        body: { token: set.token, items: ['gen_kw', 'coolant_temp', 'fuel_level', ...counters], ...range },
      });
      const series = Object.fromEntries(chart.data.series.map((s: { key: string }) => [s.key, s]));
      const points = (key: string): number[][] => series[key].points;
      const table = await call(t.app, 'POST', '/devicedata/gethistory', {
        token: manager,
        body: { token: set.token, items: counters, ...range, order: 'desc', size: 10 },
      });
      const lastRow = table.data.list[0].values as Record<string, number>;
      const first = Object.fromEntries(counters.map((c) => [c, points(c)[0]![2]!]));
      const gained = (c: string) => lastRow[c]! - (before ?? first)[c]!;
      const alarms = await call(t.app, 'POST', '/devicedata/getalarmhistory', {
        token: manager,
        body: { token: set.token, ...range },
      });
      const row = form.rows[k];
      expect(row.six1).toBe(part.label);
      expect(row[field(1, 'runHours')]).toBe(gained('run_hours'));
      expect(row[field(1, 'starts')]).toBe(gained('starts'));
      expect(row[field(1, 'energy')]).toBe(gained('kwh_total'));
      expect(row[field(1, 'peakLoad')]).toBe(Math.max(...points('gen_kw').map((p) => p[3]!)));
      expect(row[field(1, 'maxCoolantTemp')]).toBe(Math.max(...points('coolant_temp').map((p) => p[3]!)));
      expect(row[field(1, 'fuelLevelEnd')]).toBe(Math.round(points('fuel_level').at(-1)![1]!));
      expect(row[field(1, 'alarms')]).toBe(alarms.data.total);
      before = lastRow;
      totals.runHours += row[field(1, 'runHours')];
      totals.alarms += row[field(1, 'alarms')];
      totals.services += row[field(1, 'services')];
    }

    // The whole month, as the history page shows it over the same period.
    const { start } = parts[0];
    const { end } = parts[5];
    const month = await call(t.app, 'POST', '/history/chart', {
      token: manager,
      body: { token: set.token, items: ['run_hours'], range: 'custom', start, end },
    });
    const hours = month.data.series[0].points as number[][];
    expect(totals.runHours).toBe(hours.at(-1)![1]! - hours[0]![2]!);
    const alarms = await call(t.app, 'POST', '/devicedata/getalarmhistory', {
      token: manager,
      body: { token: set.token, range: 'custom', start, end },
    });
    expect(totals.alarms).toBe(alarms.data.total);
    expect(totals.alarms).toBe(3);
    // The countdown was reset once (sample 60).
    expect(totals.services).toBe(1);
  });

  it('an air compressor report takes the engine’s figures and leaves the compressor’s blank without its items', async () => {
    const { from, to } = lastMonth();
    const res = await call(t.app, 'POST', prefillPath(2), { token: manager, body: { token: set.token, from, to } });
    expect(res.code).toBe(200);
    const rows = res.data.form.rows;
    expect(Object.keys(rows[0])).toHaveLength(15);
    expect(rows.every((r: Record<string, unknown>) => r[field(2, 'maxDischargePressure')] === null)).toBe(true);
    expect(rows.every((r: Record<string, unknown>) => r[field(2, 'loadHours')] === null)).toBe(true);
    expect(rows[0][field(2, 'maxEngineSpeed')]).toBe(1500);
    expect(rows[0][field(2, 'fuelLevelStart')]).toBe(90);
    const shutdowns = rows.reduce((n: number, r: Record<string, number>) => n + r[field(2, 'shutdownAlarms')]!, 0);
    expect(shutdowns).toBe(2);
  });

  it('a period of under six days is cut into whole hours', () => {
    const parts = reportParts('2026-03-10', '2026-03-10', TZ);
    expect(parts.map((p) => (p.end - p.start) / HOUR)).toEqual([4, 4, 4, 4, 4, 4]);
    expect(parts[0]!.label).toBe('2026-03-10 00:00 – 04:00');
    expect(parts[5]!.label).toBe('2026-03-10 20:00 – 24:00');
    const week = reportParts('2026-03-01', '2026-03-08', TZ);
    expect(week.map((p) => (p.end - p.start) / DAY)).toEqual([2, 2, 1, 1, 1, 1]);
    expect(week[0]!.label).toBe('2026-03-01 – 2026-03-02');
  });

  it('refuses a period that ends before it starts or is longer than a year', async () => {
    const reversed = await call(t.app, 'POST', prefillPath(1), {
      token: manager,
      body: { token: set.token, from: '2026-03-10', to: '2026-03-01' },
    });
    expect(reversed.code).toBe(400);
    expect(reversed.msg).toBe('Period end: must be after the start');
    const long = await call(t.app, 'POST', prefillPath(1), {
      token: manager,
      body: { token: set.token, from: '2024-01-01', to: '2025-06-01' },
    });
    expect(long.code).toBe(400);
    const bad = await call(t.app, 'POST', prefillPath(1), {
      token: manager,
      lang: 'tr-TR',
      body: { token: set.token, from: '2026-02-30', to: '2026-03-01' },
    });
    expect(bad.msg).toBe('Dönem başlangıcı: YYYY-AA-GG biçiminde bir tarih olmalıdır');
  });
});

describe('saving and versions', () => {
  async function prefilled(type: ReportType = 1) {
    const { from, to } = lastMonth();
    const res = await call(t.app, 'POST', prefillPath(type), { token: manager, body: { token: set.token, from, to } });
    return { from, to, form: res.data.form };
  }

  it('each save makes a new version; the latest is shown and earlier ones stay readable', async () => {
    const { from, to, form } = await prefilled();
    form.two3 = 'First visit';
    form.rows[0].six10 = 'Oil topped up';
    const first = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      body: { token: set.token, type: 1, from, to, form },
    });
    expect(first.code).toBe(200);
    expect(first.msg).toBe('Saved.');
    expect(first.data.version).toBe(1);

    form.two3 = 'Second visit';
    form.rows[1].six4 = 123;
    const second = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      body: { token: set.token, type: 1, from, to, form },
    });
    expect(second.data.version).toBe(2);

    const info = await call(t.app, 'POST', '/baobiao/info', { token: manager, body: { token: set.token, type: 1 } });
    expect(info.code).toBe(200);
    expect(info.data.report).toMatchObject({ version: 2, type: 1, from, to });
    expect(info.data.report.form.two3).toBe('Second visit');
    expect(info.data.report.form.rows[1].six4).toBe(123);
    expect(info.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(info.data.versions[0].author).toBeTruthy();

    const older = await call(t.app, 'POST', '/baobiao/info', {
      token: manager,
      body: { token: set.token, type: 1, version: 1 },
    });
    expect(older.data.report.form.two3).toBe('First visit');
    expect(older.data.report.form.rows[0].six10).toBe('Oil topped up');

    const missing = await call(t.app, 'POST', '/baobiao/info', {
      token: manager,
      body: { token: set.token, type: 1, version: 9 },
    });
    expect(missing.code).toBe(404);

    // The other type has its own versions.
    const compressor = await call(t.app, 'POST', '/baobiao/info', {
      token: manager,
      body: { token: set.token, type: 2 },
    });
    expect(compressor.data).toEqual({ report: null, versions: [] });
    const one = await call(t.app, 'POST', '/genset/reportone', { token: manager, body: { token: set.token } });
    expect(one.data).toMatchObject({ name: 'Report set', timeZone: TZ, weatherConfigured: false });
    expect(one.data.latest).toEqual([expect.objectContaining({ type: 1, version: 2 })]);
    // a generator is offered the generator's report only; the first day of its data opens the right month
    expect(one.data.types).toEqual([1]);
    expect(one.data.dataFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('a missing or out-of-range field is refused with a localised message naming it, and nothing is saved', async () => {
    const { from, to, form } = await prefilled();
    const versions = async () =>
      (await call(t.app, 'POST', '/baobiao/info', { token: manager, body: { token: set.token, type: 1 } })).data
        .versions.length;
    const count = await versions();

    const missing = structuredClone(form);
    delete missing.rows[2].six4;
    const a = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      body: { token: set.token, type: 1, from, to, form: missing },
    });
    expect(a.code).toBe(400);
    expect(a.msg).toBe('Row 3 · Energy (kWh): cannot be empty');
    expect(a.data.fields['rows.2.six4']).toBe(a.msg);

    const high = structuredClone(form);
    high.rows[4].six7 = 150;
    const b = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      lang: 'zh-CN',
      body: { token: set.token, type: 1, from, to, form: high },
    });
    expect(b.code).toBe(400);
    expect(b.msg).toBe('第 5 行 · 期末燃油液位 (%)：必须在 0 到 100 之间');

    const ru = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      lang: 'ru-RU',
      body: { token: set.token, type: 1, from, to, form: { ...form, one1: '  ' } },
    });
    expect(ru.msg).toBe('Оборудование: не может быть пустым');

    const fewRows = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      body: { token: set.token, type: 1, from, to, form: { ...form, rows: form.rows.slice(0, 5) } },
    });
    expect(fewRows.code).toBe(400);
    // A type-2 form has columns a type-1 report does not.
    const wrongType = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      body: { token: set.token, type: 2, from, to, form },
    });
    expect(wrongType.code).toBe(400);
    expect(wrongType.msg).toContain('Row 1');
    const badPeriod = await call(t.app, 'POST', '/baobiao/add', {
      token: manager,
      body: { token: set.token, type: 1, from: to, to: from, form },
    });
    expect(badPeriod.code).toBe(400);
    expect(badPeriod.msg).toBe('Period end: must be after the start');

    expect(await versions()).toBe(count);
  });
});

describe('exports', () => {
  it('exports the saved version as XLSX with the figures and the titles in the reader’s language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/baobiao/export',
      headers: signed(manager, 'ru-RU'),
      payload: { token: set.token, type: 1, format: 'xlsx' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const cells: unknown[] = [];
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(cell.value)));
    expect(cells[0]).toBe('Отчёт по дизель-генератору — Report set');
    expect(cells).toContain('Выработка (кВт·ч)');
    expect(cells).toContain('Second visit');
    expect(cells).toContain(123);
  });

  it('exports a PDF with a font for Chinese, Cyrillic and Turkish text embedded', async () => {
    for (const lang of ['zh-CN', 'tr-TR']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/yewu/baobiao/export',
        headers: signed(manager, lang),
        payload: { token: set.token, type: 1, version: 1, format: 'pdf' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const body = res.rawPayload.toString('latin1');
      expect(body.startsWith('%PDF-')).toBe(true);
      expect(body).toMatch(/\/FontFile[23]?/);
      expect(body).not.toContain('/Helvetica');
      if (lang === 'zh-CN') expect(body).toContain('NotoSansHans');
      expect(decodeURIComponent(res.headers['content-disposition']!.split("''")[1]!)).toMatch(/_v1\.pdf$/);
    }
  });

  it('the report fonts have a glyph for every character the reports write in the six languages', () => {
    const fonts = reportFonts();
    expect(fonts.missing).toEqual([]);
    for (const lang of LANGUAGES) {
      const texts = Object.entries(catalogs[lang])
        .filter(([key]) => key.startsWith('reports.') || key.startsWith('validation.report'))
        .map(([, text]) => text)
        .join('');
      const unseen = [...new Set(texts)].filter((ch) => !fonts.regular.some((f) => f.has(ch.codePointAt(0)!)));
      expect(unseen, lang).toEqual([]);
    }
  });

  it('a set without a saved report has nothing to export', async () => {
    const res = await call(t.app, 'POST', '/baobiao/export', {
      token: manager,
      body: { token: set.token, type: 2, format: 'pdf' },
    });
    expect(res.code).toBe(404);
  });
});

describe('who may', () => {
  it('needs genset:report (the operator role has not) and the right to see the set', async () => {
    const { from, to } = lastMonth();
    const body = { token: set.token, from, to };
    expect((await call(t.app, 'POST', prefillPath(1), { token: operator, body })).code).toBe(403);
    expect(
      (await call(t.app, 'POST', '/baobiao/info', { token: operator, body: { token: set.token, type: 1 } })).code,
    ).toBe(403);
    expect((await call(t.app, 'GET', '/getWeather', { token: operator, query: { token: set.token } })).code).toBe(403);
    expect((await call(t.app, 'POST', prefillPath(1), { token: stranger, body })).code).toBe(404);
    expect(
      (await call(t.app, 'POST', '/baobiao/info', { token: stranger, body: { token: set.token, type: 1 } })).code,
    ).toBe(404);
    expect((await call(t.app, 'POST', prefillPath(1), { body })).code).toBe(101);
  });
});

function signed(token: string, lang: string): Record<string, string> {
  const time = String(Math.floor(Date.now() / 1000));
  return {
    'x-time': time,
    'x-token': token,
    'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
    'accept-language': lang,
    'content-type': 'application/json',
  };
}
