// Every call that needs a session answers 101 without a token, 50008 for a bad signature or a stale
// time, and 50014 for an expired session; every public call checks the signature too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { ONE_PRICE_TEMPLATE } from './support/access-rows.ts';
import { hashToken } from '../src/modules/auth/tokens.ts';

let t: TestApp;
let expired: string;

const SIGNED_IN: ['GET' | 'POST', string, unknown?][] = [
  ['POST', '/logout'],
  ['GET', '/user/info'],
  ['GET', '/getRoute'],
  ['POST', '/user/password', { password: 'a', newPassword: 'Next#2026', newPasswords: 'Next#2026' }],
  ['POST', '/user/delUser', { password: 'a' }],
  ['POST', '/user/setMessage', { alarmSms: true }],
  ['POST', '/user/updateProfile', { nickname: 'x' }],
  ['GET', '/company/getinfo/1'],
  ['GET', '/help/list'],
  ['POST', '/devicedata/getstatus', { token: 'abc' }],
  ['POST', '/realTimeData/monitorList', { token: 'abc' }],
  ['POST', '/devicedata/commands', { token: 'abc' }],
  ['POST', '/devicedata/sendaction', { token: 'abc', action: 'start' }],
  ['POST', '/baoxiu/add', { token: 'abc' }],
  ['GET', '/baoxiu/my'],
  ['GET', '/baoxiu/list'],
  ['GET', '/baoxiu/detail?token=abc'],
  ['POST', '/baoxiu/update', { token: 'abc', state: 'accepted' }],
  ['GET', `/baoxiu/picture?token=abc&name=${'a'.repeat(32)}`],
  ['POST', '/genset/transferdevice', { token: 'abc', account: 'operator@example.com' }],
  ['POST', '/genset/transfer/list', { box: 'pending' }],
  ['POST', '/genset/transfer/accept', { id: 1 }],
  ['POST', '/genset/transfer/reject', { id: 1 }],
  ['POST', '/genset/transfer/revoke', { id: 1 }],
  ['POST', '/maintain/plan', { token: 'abc' }],
  ['POST', '/maintain/item/save', { token: 'abc', name: 'Oil', cycleDays: 30 }],
  ['POST', '/maintain/item/delete', { token: 'abc', id: 1 }],
  ['POST', '/maintain/item/toggle', { token: 'abc', id: 1, enabled: false }],
  ['POST', '/maintain/task/done', { token: 'abc', id: 1, actualDate: '2026-01-01' }],
  ['POST', '/maintain/history', { token: 'abc' }],
  ['POST', '/maintain/tasks', {}],
  ['POST', '/maintain/counts', {}],
  ['POST', '/maintain/template/list', {}],
  ['POST', '/maintain/template/save', { name: 'T', model: 'M', items: [{ name: 'Oil', cycleDays: 30 }] }],
  ['POST', '/maintain/template/delete', { id: 1 }],
  ['POST', '/maintain/template/apply', { id: 1, all: true }],
  ['POST', '/maintain/mtoken/create', { token: 'abc' }],
  ['POST', '/maintain/mtoken/revoke', { token: 'abc', id: 1 }],
  ['POST', '/ota/file/upload'],
  ['GET', '/ota/file/list'],
  ['POST', '/ota/file/delete', { id: 1 }],
  ['POST', '/ota/job/assign', { fileId: 1, tokens: ['abc'] }],
  ['GET', '/ota/job/list?fileId=1'],
  ['POST', '/ota/job/cancel', { id: 1 }],
  ['POST', '/iotcard/getinfo', { token: 'abc' }],
  ['POST', '/iotcard/setPlan', { token: 'abc', sizeMb: 100 }],
  ['POST', '/genset/fence', { token: 'abc' }],
  ['POST', '/genset/updateFence', { token: 'abc', fence: null }],
  ['POST', '/genset/guiji', { token: 'abc', start: 0, end: 1000 }],
  ['GET', '/site/list'],
  ['GET', '/site/getInfo/abc'],
  ['POST', '/site/add', { name: 'S', timeZone: 'UTC', capacityKwh: 100, ratingKw: 50 }],
  ['POST', '/site/edit', { token: 'abc', name: 'S', timeZone: 'UTC', capacityKwh: 100, ratingKw: 50 }],
  ['POST', '/site/del', { token: 'abc' }],
  ['GET', '/site/devices?token=abc'],
  ['GET', '/site/log?token=abc'],
  ['GET', '/site/logInfo?token=abc&id=1'],
  ['GET', '/site/logRunRecord?token=abc'],
  ['POST', '/ems/template/list', {}],
  ['POST', '/ems/template/save', { name: 'T', ...ONE_PRICE_TEMPLATE }],
  ['POST', '/ems/template/info', { id: 1 }],
  ['POST', '/ems/template/delete', { id: 1 }],
  ['POST', '/ems/sendTactic', { token: 'abc', strategy: 'idle', templateId: 1, password: 'a' }],
  ['POST', '/ems/demandResponse', { token: 'abc', start: 0, end: 1000, kw: 10 }],
  ['POST', '/ems/stats', { token: 'abc', granularity: 'day', date: '2026-01-01' }],
  ['POST', '/ems/stats/export', { token: 'abc', granularity: 'day', date: '2026-01-01' }],
  ['POST', '/ems/alarm/current', { token: 'abc' }],
  ['POST', '/ems/alarm/history', { token: 'abc' }],
];
const PUBLIC: ['GET' | 'POST', string, unknown?][] = [
  ['POST', '/user/login', { username: 'viewer@example.com', password: 'Demo#2026' }],
  ['POST', '/user/codelogin', { username: 'viewer@example.com', code: '123456' }],
  ['POST', '/sendMessage', { username: 'viewer@example.com' }],
  [
    'POST',
    '/user/register',
    { username: 'a@example.com', code: '123456', newPassword: 'Next#2026', newPasswords: 'Next#2026' },
  ],
  [
    'POST',
    '/user/forgetPassword',
    { username: 'a@example.com', code: '123456', newPassword: 'Next#2026', newPasswords: 'Next#2026' },
  ],
  ['GET', '/company/getName'],
  ['GET', '/company/getlogo'],
  ['POST', '/maintain/public', { mtoken: 'abc' }],
];

beforeAll(async () => {
  t = await createTestApp();
  expired = await login(t.app, 'viewer@example.com', 'Demo#2026');
  await t.app.database.db
    .updateTable('session')
    .set({ expires_at: Date.now() - 1 })
    .where('token_hash', '=', hashToken(expired))
    .execute();
});
afterAll(async () => t.close());

describe.each(SIGNED_IN)('%s %s', (method, url, body) => {
  const o = body === undefined ? {} : { body };
  it('needs a token (101)', async () => {
    expect((await call(t.app, method, url, o)).code).toBe(101);
  });
  it('refuses a bad signature and a stale time (50008)', async () => {
    const token = await login(t.app, 'viewer@example.com', 'Demo#2026');
    expect((await call(t.app, method, url, { ...o, token, sign: 'f'.repeat(64) })).code).toBe(50008);
    expect((await call(t.app, method, url, { ...o, token, skew: -600 })).code).toBe(50008);
  });
  it('refuses an expired session (50014)', async () => {
    expect((await call(t.app, method, url, { ...o, token: expired })).code).toBe(50014);
  });
});

describe.each(PUBLIC)('%s %s (public)', (method, url, body) => {
  it('refuses a bad signature and a stale time (50008)', async () => {
    const o = body === undefined ? {} : { body };
    expect((await call(t.app, method, url, { ...o, sign: 'f'.repeat(64) })).code).toBe(50008);
    expect((await call(t.app, method, url, { ...o, skew: 600 })).code).toBe(50008);
  });
});
