// A set's recent operation log in its info: managers see who did what, newest first, in their language;
// users with lesser rights see none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let manager: string;
let viewer: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
});
afterAll(async () => t.close());

describe('operation log in the set info', () => {
  it('lists the latest changes with their operator for managers, and nothing for a subscriber with view rights', async () => {
    const added = await call(t.app, 'POST', '/genset/add', {
      token: manager,
      body: { name: 'Logged set', protocolKey: layoutS.key },
    });
    expect(added.code, added.msg).toBe(200);
    const token = added.data.token as string;
    const updated = await call(t.app, 'POST', '/genset/update', {
      token: manager,
      body: { token, name: 'Logged set 2' },
    });
    expect(updated.code, updated.msg).toBe(200);

    const info = await call(t.app, 'POST', '/genset/info', { token: manager, body: { token } });
    expect(info.code).toBe(200);
    const operations = info.data.operations as {
      matter: string;
      account: string;
      outcome: string | null;
      time: number;
    }[];
    expect(operations.length).toBe(2);
    expect(operations[0]).toMatchObject({ account: 'manager@example.com', outcome: null });
    expect(operations[0]!.matter).toContain('Logged set 2');
    expect(operations[0]!.matter).toContain('edited');
    expect(operations[1]!.matter).toContain('added');
    expect(operations[0]!.time).toBeGreaterThanOrEqual(operations[1]!.time);

    const zh = await call(t.app, 'POST', '/genset/info', { token: manager, body: { token }, lang: 'zh-CN' });
    expect(zh.data.operations[0].matter).toContain('编辑机组');

    const sub = await call(t.app, 'POST', '/sub/add', { token: viewer, body: { code: added.data.subscriptionCode } });
    expect(sub.code, sub.msg).toBe(200);
    const seen = await call(t.app, 'POST', '/genset/info', { token: viewer, body: { token } });
    expect(seen.code).toBe(200);
    expect(seen.data.rights).toBe('view');
    expect(seen.data.operations).toEqual([]);
  });
});
