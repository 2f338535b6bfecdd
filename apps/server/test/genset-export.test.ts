// The set list export: the answer is the file itself (XLSX read back with exceljs, CSV as text) with headers
// in the caller's language and units, the rows of the filtered list, times in the caller's zone; errors
// stay envelopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { computeSign, DEFAULT_SIGN_SECRET, layoutS } from '@genset/protocol';
import { call, createTestApp, freshUser, login, type TestApp } from './helpers.ts';

let t: TestApp;
let owner: string;
let companyId: number;

async function download(token: string, body: Record<string, unknown>, lang = 'en-US', timeZone = 'Europe/Berlin') {
  const time = String(Math.floor(Date.now() / 1000));
  const res = await t.app.inject({
    method: 'POST',
    url: '/yewu/genset/export',
    headers: {
      'x-time': time,
      'x-token': token,
      'x-sign': computeSign(token, time, DEFAULT_SIGN_SECRET),
      'accept-language': lang,
      'x-timezone': timeZone,
    },
    payload: body,
  });
  return res;
}

async function readXlsx(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { sheet, rows };
}

const DEVICE_TS = Date.UTC(2026, 0, 15, 10, 30, 0);

beforeAll(async () => {
  t = await createTestApp();
  const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  const user = await freshUser(t, { companyId, role: 'companyAdmin' });
  owner = await login(t.app, user.account, user.password);
  const sets: [string, string | null, number | null, number][] = [
    ['Alpha running', 'A-1', 3, 0],
    ['Bravo standby', 'B-2', 2, 1],
    ['=HYPERLINK("x")', null, null, 0],
    ['Comma, "quoted" name', 'C-3', 1, 0],
  ];
  for (const [name, number, status, alarms] of sets) {
    const res = await call(t.app, 'POST', '/genset/add', {
      token: owner,
      body: {
        name,
        number,
        protocolKey: layoutS.key,
        ratedPowerKw: 250,
        controllerModel: 'HGM6120',
        latitude: 31.5,
        longitude: 121.25,
      },
    });
    expect(res.code, res.msg).toBe(200);
    if (status === null) continue;
    const row = await t.app.database.db
      .selectFrom('genset')
      .select('id')
      .where('token', '=', res.data.token)
      .executeTakeFirstOrThrow();
    await t.app.database.db
      .insertInto('set_latest')
      .values({
        genset_id: row.id,
        status,
        alarm_count: alarms,
        values: JSON.stringify({ gen_kw: 123.4, fuel_level: 66, battery_voltage: 26.1, run_hours: 1520 }),
        device_ts: DEVICE_TS,
        updated_at: Date.now(),
      })
      .execute();
  }
  // ingestion announces every change; rows written behind its back are picked up at the next reload
  t.app.gensets.directory.invalidate();
});
afterAll(async () => t.close());

describe('genset list export', () => {
  it('answers an XLSX file with headers in the caller’s language and the rows of the filtered list', async () => {
    const res = await download(owner, { status: 'all', sort: 'name' }, 'zh-CN', 'Asia/Shanghai');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="gensets-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const { sheet, rows } = await readXlsx(res.rawPayload);
    expect(sheet.name).toBe('机组');
    expect(rows[0]).toEqual([
      '名称',
      '编号',
      '状态',
      '报警数',
      '有功功率（kW）',
      '额定功率（kW）',
      '燃油液位（%）',
      '电池电压（V）',
      '运行时间（h）',
      '最后数据时间（Asia/Shanghai）',
      '云模块 ID',
      '控制器型号',
      '所有者',
      '权限',
      '纬度（°）',
      '经度（°）',
      '添加时间（Asia/Shanghai）',
    ]);
    expect(rows).toHaveLength(5);
    const alpha = rows.find((r) => r[0] === 'Alpha running')!;
    expect(alpha.slice(0, 10)).toEqual([
      'Alpha running',
      'A-1',
      '运行',
      0,
      123.4,
      250,
      66,
      26.1,
      1520,
      '2026-01-15 18:30:00',
    ]);
    expect(alpha.slice(11, 16)).toEqual(['HGM6120', expect.stringMatching(/^Tester \d+$/), '管理', 31.5, 121.25]);
    const unknown = rows.find((r) => r[0] === '=HYPERLINK("x")')!;
    expect(unknown[2]).toBe('离线');
    expect(unknown[4]).toBeUndefined();
  });

  it('exports only what the filters select', async () => {
    const res = await download(owner, { status: 'alarm' });
    const { rows } = await readXlsx(res.rawPayload);
    expect(rows.map((r) => r[0])).toEqual(['Name', 'Bravo standby']);
    expect(rows[1]![2]).toBe('Standby');
    const searched = await readXlsx((await download(owner, { search: 'alpha' }, 'ru-RU')).rawPayload);
    expect(searched.rows[0]![4]).toBe('Активная мощность, кВт');
    expect(searched.rows.map((r) => r[0])).toEqual(['Название', 'Alpha running']);
  });

  it('answers CSV with a byte-order mark, quoting, and formulas defused', async () => {
    const res = await download(owner, { format: 'csv', sort: 'name' }, 'es-ES', 'UTC');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('.csv');
    const text = res.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]!.split(',').slice(0, 5)).toEqual(['Nombre', 'Número', 'Estado', 'Alarmas', 'Potencia activa (kW)']);
    expect(lines).toHaveLength(5);
    expect(lines.some((l) => l.startsWith('"Comma, ""quoted"" name",C-3,Parado,0,123.4'))).toBe(true);
    expect(lines.some((l) => l.startsWith(`"'=HYPERLINK(""x"")",,Sin conexión,0,`))).toBe(true);
    expect(lines.find((l) => l.startsWith('Alpha running'))).toContain('2026-01-15 10:30:00');
  });

  it('the company list export needs genset:manage; errors answer envelopes', async () => {
    const operator = await login(t.app, 'operator@example.com', 'Demo#2026');
    const denied = await download(operator, { scope: 'list' });
    expect(denied.headers['content-type']).toContain('application/json');
    expect(denied.json()).toMatchObject({ code: 403 });
    const company = await download(owner, { scope: 'list', search: 'bravo' });
    expect((await readXlsx(company.rawPayload)).rows.map((r) => r[0])).toEqual(['Name', 'Bravo standby']);
    const bad = await download(owner, { format: 'pdf' });
    expect(bad.json()).toMatchObject({ code: 400, msg: 'File format: is not valid' });
    const empty = await download(operator, {});
    const { rows } = await readXlsx(empty.rawPayload);
    expect(rows).toHaveLength(1);
  });
});
