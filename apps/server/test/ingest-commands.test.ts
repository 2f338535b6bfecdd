// The realtime channel and commands with a bare MQTT client in the module's place: pushes for watched sets, rates
// that follow watchers, commands and their outcomes (never a false success), rights and preconditions.
import { describe, expect, it } from 'vitest';
import { call } from './helpers.ts';
import { connectFakeModule } from './support/fake-module.ts';
import { connectWs } from './support/ws-client.ts';
import {
  brokerUrl,
  data,
  manager,
  newSet,
  RUNNING,
  STOPPED,
  t,
  useIngestWorld,
  viewer,
  baseUrl,
} from './support/ingest-world.ts';

useIngestWorld();

describe('realtime', () => {
  it('pushes monitor messages for the watched set only, and switches the module to its online rate', async () => {
    const watched = await newSet('Watched');
    const other = await newSet('Other');
    const m1 = await connectFakeModule(brokerUrl, watched.modemKey, watched.secret);
    const m2 = await connectFakeModule(brokerUrl, other.modemKey, other.secret);
    await m1.publish('hello', {
      model: 'X1',
      firmware: '1.0',
      imei: '1',
      iccid: '2',
      controllers: [{ port: 'port1', address: 1 }],
    });
    await m1.waitFor('plan', (p) => p.controllers[0]?.online === false);

    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat(watched.token);
    await m1.waitFor('plan', (p) => p.controllers[0]?.online === true);
    await m1.publish('data', data(1, { ...RUNNING, gen_kw: 77 }));
    await m2.publish('data', data(1, { ...RUNNING, gen_kw: 99 }));
    const push = await ws.waitFor((m) => m.method === 'monitor' && m.data.values.gen_kw === 77);
    expect(push).toMatchObject({ token: watched.token, data: { status: 3, alarmnum: 0 } });
    await m1.publish('data', data(2, { ...STOPPED, alarm_emergency_stop: 1, common_shutdown: 1 }));
    const alarm = await ws.waitFor((m) => m.method === 'alarm' && m.alarmnum === 1);
    expect(alarm.list[0]).toMatchObject({ code: 'emergency_stop', level: 'shutdown' });
    expect(typeof alarm.list[0].title).toBe('string');
    await m2.waitFor('ack');
    expect(ws.messages.filter((m) => m.token === other.token)).toHaveLength(0);

    ws.heartbeat('');
    await m1.waitFor('plan', (p) => p.controllers[0]?.online === false);
    ws.close();
    await m1.close();
    await m2.close();
  });

  it('refuses a set the user may not see, and closes the socket for a bad user token', async () => {
    const set = await newSet();
    await t.app.database.db.updateTable('genset').set({ company_id: 1 }).where('id', '=', set.id).execute();
    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat(set.token);
    expect(await ws.waitFor((m) => m.method === 'error')).toMatchObject({ code: 404 });
    ws.close();
    const bad = await connectWs(baseUrl, 'A'.repeat(43), 'zh-CN');
    bad.heartbeat('');
    expect(await bad.waitFor((m) => m.method === 'error')).toMatchObject({ code: 101, msg: '请先登录。' });
    expect((await bad.closed).code).toBe(4001);
  });
});

describe('commands', () => {
  it('returns the controller’s answer, a failure, or a timeout — never a false success', async () => {
    const set = await newSet();
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    await module.publish('data', data(1, { ...STOPPED, mode: 1 }));
    await module.waitFor('ack');

    let answer: 'ok' | 'fail' | 'silent' = 'ok';
    module.client.on('message', (topic, payload) => {
      if (!topic.endsWith('/request') || answer === 'silent') return;
      const req = JSON.parse(payload.toString());
      void module.publish(
        'reply',
        answer === 'ok' ? { id: req.id, ok: true } : { id: req.id, ok: false, error: 'illegal data address' },
      );
    });

    const ok = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'start', password: 'Demo#2026' },
    });
    expect(ok).toMatchObject({ code: 200, data: { state: 'ok' } });
    const request = await module.waitFor('request');
    expect(request).toMatchObject({
      kind: 'write',
      port: 'port1',
      address: 1,
      writes: [{ fc: 5, address: 256, value: true }],
    });

    answer = 'fail';
    const failed = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'stop', password: 'Demo#2026' },
    });
    expect(failed).toMatchObject({ code: 502, data: { state: 'error' } });
    expect(failed.msg).toContain('illegal data address');

    answer = 'silent';
    const silent = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      lang: 'zh-CN',
      body: { token: set.token, action: 'auto' },
    });
    expect(silent.code).toBe(504);
    expect(silent.msg).toContain('秒内没有应答');

    const log = await t.app.database.db
      .selectFrom('operation_log')
      .select(['matter', 'feedback', 'account'])
      .where('target', '=', set.token)
      .orderBy('id')
      .execute();
    expect(log.map((l) => JSON.parse(l.feedback).outcome)).toEqual(['ok', 'failed', 'timeout']);
    expect(log[0]).toMatchObject({ matter: 'log.command', account: 'manager@example.com' });
    const commands = await t.app.database.db
      .selectFrom('command')
      .select(['name', 'status'])
      .where('genset_id', '=', set.id)
      .orderBy('id')
      .execute();
    expect(commands).toEqual([
      { name: 'start', status: 'ok' },
      { name: 'stop', status: 'failed' },
      { name: 'auto', status: 'timeout' },
    ]);

    await module.close();
    await expect.poll(() => t.app.devices.transport.connected(set.modemKey)).toBe(false);
    const offline = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'auto' },
    });
    expect(offline).toMatchObject({
      code: 504,
      msg: 'The cloud module of this set is offline, so the command was not sent.',
    });
  });

  it('checks rights, unknown commands, risky passwords and preconditions', async () => {
    const set = await newSet();
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    module.client.on('message', (topic, payload) => {
      if (topic.endsWith('/request')) void module.publish('reply', { id: JSON.parse(payload.toString()).id, ok: true });
    });
    await module.publish('data', data(1, { ...STOPPED, mode: 2 }));
    await module.waitFor('ack');

    // The viewer does not see company sets at all; once subscribed with view rights it sees but cannot control.
    expect(
      (await call(t.app, 'POST', '/devicedata/getstatus', { token: viewer, body: { token: set.token } })).code,
    ).toBe(404);
    const viewerId = (await call(t.app, 'GET', '/user/info', { token: viewer })).data.info.id;
    await t.app.devices.fleet.subscribe(set.id, viewerId, 'view');
    expect(
      (
        await call(t.app, 'POST', '/devicedata/sendaction', {
          token: viewer,
          body: { token: set.token, action: 'auto' },
        })
      ).code,
    ).toBe(403);
    expect(
      (await call(t.app, 'POST', '/devicedata/getstatus', { token: viewer, body: { token: set.token } })).code,
    ).toBe(200);
    expect(
      (
        await call(t.app, 'POST', '/devicedata/sendaction', {
          token: manager,
          body: { token: set.token, action: 'explode' },
        })
      ).msg,
    ).toBe('This set has no command “explode”.');
    expect(
      (
        await call(t.app, 'POST', '/devicedata/sendaction', {
          token: manager,
          body: { token: 'nope', action: 'start' },
        })
      ).code,
    ).toBe(404);
    expect(
      (await call(t.app, 'POST', '/devicedata/sendaction', { token: manager, body: { token: set.token } })).data.fields
        .action,
    ).toBe('Command: cannot be empty');

    const commands = (await call(t.app, 'POST', '/devicedata/commands', { token: manager, body: { token: set.token } }))
      .data;
    const risky = commands.find((c: any) => c.risky);
    expect(risky).toBeTruthy();
    const noPassword = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: risky.key },
    });
    expect(noPassword.data.fields.password).toBe('Password: This operation needs your account password.');
    const wrong = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: risky.key, password: 'Wrong#2026' },
    });
    expect(wrong.msg).toBe('The password is wrong.');

    // Start is refused in STOP mode by the protocol's precondition, before anything is sent.
    const before = module.received.filter((r) => r.channel === 'request').length;
    const refused = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: set.token, action: 'start', password: 'Demo#2026' },
    });
    expect(refused.code).toBe(409);
    expect(refused.msg).toMatch(/^Refused: /);
    expect(module.received.filter((r) => r.channel === 'request').length).toBe(before);
    await module.close();
  });

  it('restarts the module from form data with token and utoken', async () => {
    const set = await newSet();
    const module = await connectFakeModule(brokerUrl, set.modemKey, set.secret);
    module.client.on('message', (topic, payload) => {
      if (topic.endsWith('/request')) void module.publish('reply', { id: JSON.parse(payload.toString()).id, ok: true });
    });
    const { computeSign, DEFAULT_SIGN_SECRET } = await import('@genset/protocol');
    const time = String(Math.floor(Date.now() / 1000));
    const res = await t.app.inject({
      method: 'POST',
      url: '/yewu/devicedata/restartmodem',
      headers: {
        'x-time': time,
        'x-sign': computeSign('', time, DEFAULT_SIGN_SECRET),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `token=${set.token}&utoken=${manager}`,
    });
    expect(res.json()).toMatchObject({ code: 200, msg: 'Operation successful.', data: { state: 'ok' } });
    expect(await module.waitFor('request')).toMatchObject({ kind: 'restart' });
    await module.close();
  });
});
