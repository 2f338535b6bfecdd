// A command to a whole group, run by the server: one call records the job and the server sends it set by set
// (a multi-set group's one after the other) through each set's command path, with bare MQTT clients in the
// modules' place; each set's outcome is in the job and in the operation log with the set's name, plus one entry
// for the group; a set the caller may not control is refused while the others run; a job outlives a restart of
// the server and is taken up by the instance holding the job lease.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_S_MODES, layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule, type FakeModule } from './support/fake-module.ts';

let t: TestApp;
let manager: string;
let viewer: string;
let companyId: number;
const modules: FakeModule[] = [];

beforeAll(async () => {
  t = await createTestApp({ COMMAND_TIMEOUT_MS: '1500' });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => {
  for (const m of modules) await m.close().catch(() => undefined);
  await t.close();
});

const brokerUrl = () => `mqtt://127.0.0.1:${t.app.devices.transport.port}`;

let n = 0;
interface TestSet {
  id: number;
  token: string;
  name: string;
  modemKey: string;
  secret: string;
}

async function newSet(name: string): Promise<TestSet> {
  const modemKey = `GCMD${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  t.app.devices.ingest.invalidate();
  return { id: set.id, token: set.token, name, modemKey, secret: modem.secret };
}

/**
 * The set's module: reports the controller in `mode` and answers each request once `answer` lets it (at once
 * by default), keeping the requests it got.
 */
async function moduleOf(set: TestSet, mode: number) {
  const module = await connectFakeModule(brokerUrl(), set.modemKey, set.secret);
  modules.push(module);
  const requests: string[] = [];
  let hold: Promise<void> = Promise.resolve();
  module.client.on('message', (topic, payload) => {
    if (!topic.endsWith('/request')) return;
    const id = JSON.parse(payload.toString()).id as string;
    requests.push(id);
    void hold.then(() => module.publish('reply', { id, ok: true }));
  });
  await module.publish('data', {
    seq: 1,
    ts: Date.now(),
    port: 'port1',
    address: 1,
    blocks: encodeBlocks(layoutS, { mode, engine_state: 0, engine_rpm: 0, gen_on_load: 0 }),
  });
  await module.waitFor('ack');
  return {
    module,
    requests,
    /** Answers nothing until the returned function is called. */
    holdAnswers() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
  };
}

async function newGroup(name: string, kind: 'multi' | 'parallel', sets: TestSet[]) {
  // (a name of its own on a retry)
  await t.app.database.db.deleteFrom('genset_group').where('name', '=', name).execute();
  const saved = await call(t.app, 'POST', '/genset/savedevxml', {
    token: manager,
    body: { name, kind, members: sets.map((s) => s.token) },
  });
  expect(saved.code, saved.msg).toBe(200);
  return saved.data.token as string;
}

const jobOf = async (token: string, group: string, lang = 'en-US') =>
  (await call(t.app, 'POST', '/genset/groupCommandJob', { token, body: { token: group }, lang })).data;

const states = async (token: string, group: string) =>
  ((await jobOf(token, group)).sets as { state: string }[]).map((s) => s.state);

async function logOf(jobId: number) {
  const rows = await t.app.database.db
    .selectFrom('operation_log')
    .select(['matter', 'feedback', 'target'])
    .where('matter', 'in', ['log.groupCommandSet', 'log.groupCommand'])
    .orderBy('id')
    .execute();
  return rows
    .map((r) => ({ ...r, feedback: JSON.parse(r.feedback) as Record<string, unknown> }))
    .filter((r) => r.feedback.job === jobId);
}

describe('a command to a whole group', () => {
  it('runs set by set on the server: each outcome stored and logged with the set’s name; a set without rights is refused, the others run', async () => {
    const a = await newSet('Site set A');
    const b = await newSet('Site set B');
    const c = await newSet('Site set C');
    const d = await newSet('Site set D');
    const ma = await moduleOf(a, LAYOUT_S_MODES.manual);
    const mb = await moduleOf(b, LAYOUT_S_MODES.manual);
    const mc = await moduleOf(c, LAYOUT_S_MODES.manual);
    // D's controller is in AUTO: its start is refused by the protocol's precondition
    const md = await moduleOf(d, LAYOUT_S_MODES.auto);
    const group = await newGroup('Site of four', 'multi', [a, b, c, d]);
    // The viewer controls A, B and D and only sees C.
    const viewerId = (await call(t.app, 'GET', '/user/info', { token: viewer })).data.info.id;
    for (const [set, rights] of [
      [a, 'control'],
      [b, 'control'],
      [c, 'view'],
      [d, 'control'],
    ] as const)
      await t.app.devices.fleet.subscribe(set.id, viewerId, rights);

    // A risky command takes the password; a wrong one changes nothing.
    const wrong = await call(t.app, 'POST', '/genset/groupCommand', {
      token: viewer,
      body: { token: group, action: 'start', password: 'Wrong#2026' },
    });
    expect(wrong).toMatchObject({ code: 400, msg: 'The password is wrong.' });
    expect(await jobOf(viewer, group)).toBeNull();

    // A holds its answer: the group waits on it before B is sent anything.
    const releaseA = ma.holdAnswers();
    const started = await call(t.app, 'POST', '/genset/groupCommand', {
      token: viewer,
      body: { token: group, action: 'start', password: 'Demo#2026' },
    });
    expect(started.code, started.msg).toBe(200);
    expect(started.data).toMatchObject({ group, groupName: 'Site of four', kind: 'multi', command: 'start' });
    expect(started.data.title).toBe('Start');
    expect(started.data.sets.map((s: any) => s.name)).toEqual([a.name, b.name, c.name, d.name]);
    // C is refused at once, with the reason in the caller's language
    expect(started.data.sets[2]).toMatchObject({
      state: 'refused',
      text: 'You do not have control rights on Site set C.',
    });
    await expect.poll(() => ma.requests.length).toBe(1);
    expect(await states(viewer, group)).toEqual(['sending', 'pending', 'refused', 'pending']);
    expect(mb.requests).toHaveLength(0);
    // a second command while this one runs is refused
    const busy = await call(t.app, 'POST', '/genset/groupCommand', {
      token: manager,
      body: { token: group, action: 'stop', password: 'Demo#2026' },
    });
    expect(busy).toMatchObject({
      code: 409,
      msg: 'A command to Site of four is still running. Wait for it to finish.',
    });
    releaseA();

    await expect.poll(async () => (await jobOf(viewer, group)).state, { timeout: 15_000 }).toBe('done');
    const done = await jobOf(viewer, group, 'ru-RU');
    expect(done.sets.map((s: any) => s.state)).toEqual(['ok', 'ok', 'refused', 'refused']);
    expect(done.sets[0].text).toBe('Операция выполнена.');
    expect(done.sets[2].text).toBe('У вас нет прав на управление установкой Site set C.');
    expect(done.sets[3].text).toMatch(/^Отклонено: /);
    expect(done.title).toBe('Пуск');
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.createdAt);
    expect(mb.requests).toHaveLength(1);
    expect(mc.requests).toHaveLength(0);
    expect(md.requests).toHaveLength(0);

    // The log: an entry per set with its name and outcome, then one for the group with the counts.
    const log = await logOf(done.id);
    const perSet = log.filter((r) => r.matter === 'log.groupCommandSet');
    expect(perSet.map((r) => [r.target, r.feedback.set, r.feedback.outcome]).sort()).toEqual(
      [
        [a.token, a.name, 'ok'],
        [b.token, b.name, 'ok'],
        [c.token, c.name, 'refused'],
        [d.token, d.name, 'refused'],
      ].sort(),
    );
    for (const r of perSet) expect(r.feedback).toMatchObject({ command: 'start', group: 'Site of four' });
    const whole = log.filter((r) => r.matter === 'log.groupCommand');
    expect(whole).toHaveLength(1);
    expect(whole[0]!.target).toBe(`group:${group}`);
    expect(whole[0]!.feedback).toMatchObject({
      command: 'start',
      group: 'Site of four',
      sets: 4,
      ok: 2,
      failed: 0,
      refused: 2,
    });
  }, 60_000);

  it('sends a parallel group’s sets their command at once, as they start together onto their bus', async () => {
    const p = await newSet('Bus set P');
    const q = await newSet('Bus set Q');
    const mp = await moduleOf(p, LAYOUT_S_MODES.manual);
    const mq = await moduleOf(q, LAYOUT_S_MODES.manual);
    const group = await newGroup('Bus of two', 'parallel', [p, q]);
    // neither answers until both have their request: both were sent before either outcome came back
    const releaseP = mp.holdAnswers();
    const releaseQ = mq.holdAnswers();
    const started = await call(t.app, 'POST', '/genset/groupCommand', {
      token: manager,
      body: { token: group, action: 'start', password: 'Demo#2026' },
    });
    expect(started.code, started.msg).toBe(200);
    await expect.poll(() => [mp.requests.length, mq.requests.length]).toEqual([1, 1]);
    expect(await states(manager, group)).toEqual(['sending', 'sending']);
    releaseP();
    releaseQ();
    await expect.poll(() => states(manager, group), { timeout: 15_000 }).toEqual(['ok', 'ok']);
  }, 60_000);

  it('outlives a restart: the instance holding the job lease takes up the sets still waiting', async () => {
    const d = await newSet('Yard set D');
    const e = await newSet('Yard set E');
    const md = await moduleOf(d, LAYOUT_S_MODES.manual);
    await moduleOf(e, LAYOUT_S_MODES.manual);
    const group = await newGroup('Yard', 'multi', [d, e]);
    // D's module never answers: its command times out while the server goes down
    md.holdAnswers();
    const started = await call(t.app, 'POST', '/genset/groupCommand', {
      token: manager,
      body: { token: group, action: 'start', password: 'Demo#2026' },
    });
    expect(started.code, started.msg).toBe(200);
    await expect.poll(() => md.requests.length).toBe(1);
    // Another instance holds the job lease meanwhile, as in a cluster whose runner is elsewhere.
    await t.app.database.db
      .updateTable('job_lease')
      .set({ holder: 'elsewhere', expires_at: Date.now() + 600_000 })
      .where('name', '=', 'group-commands')
      .execute();

    await t.restart();
    manager = await login(t.app, 'manager@example.com', 'Demo#2026');
    let job = await jobOf(manager, group);
    expect(job.state).toBe('running');
    expect(job.sets.map((s: any) => s.state)).toEqual(['failed', 'pending']);
    expect(job.sets[0].text).toMatch(/did not answer/);

    // The modules come back to the restarted server; the lease frees up and this instance takes the job up.
    const ee = await moduleOf(e, LAYOUT_S_MODES.manual);
    await t.app.database.db
      .updateTable('job_lease')
      .set({ expires_at: 0 })
      .where('name', '=', 'group-commands')
      .execute();
    await expect.poll(async () => (await jobOf(manager, group)).state, { timeout: 15_000 }).toBe('done');
    job = await jobOf(manager, group);
    expect(job.sets.map((s: any) => s.state)).toEqual(['failed', 'ok']);
    expect(ee.requests).toHaveLength(1);
    const log = await logOf(job.id);
    expect(log.map((r) => [r.matter, r.feedback.set ?? null, r.feedback.outcome ?? null])).toEqual([
      ['log.groupCommandSet', d.name, 'timeout'],
      ['log.groupCommandSet', e.name, 'ok'],
      ['log.groupCommand', null, null],
    ]);
  }, 60_000);

  it('fails a set whose command was on its way when its server stopped, without sending it twice', async () => {
    const f = await newSet('Dock set F');
    const g = await newSet('Dock set G');
    const mf = await moduleOf(f, LAYOUT_S_MODES.manual);
    const mg = await moduleOf(g, LAYOUT_S_MODES.manual);
    const group = await newGroup('Dock', 'parallel', [f, g]);
    const groupId = (await t.app.database.db
      .selectFrom('genset_group')
      .select('id')
      .where('token', '=', group)
      .executeTakeFirstOrThrow())!.id;
    const userId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.id;
    // What an instance that stopped dead leaves: F's command on its way, G's waiting.
    const now = Date.now();
    const row = await t.app.database.db
      .insertInto('group_command')
      .values({
        group_id: groupId,
        company_id: companyId,
        user_id: userId,
        group_name: 'Dock',
        kind: 'parallel',
        command: 'start',
        ip: '',
        lang: 'en-US',
        state: 'running',
        created_at: now,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.database.db
      .insertInto('group_command_set')
      .values([
        {
          job_id: row.id,
          position: 0,
          genset_id: f.id,
          set_name: f.name,
          state: 'sending',
          code: null,
          message: null,
          params: '{}',
          updated_at: now,
        },
        {
          job_id: row.id,
          position: 1,
          genset_id: g.id,
          set_name: g.name,
          state: 'pending',
          code: null,
          message: null,
          params: '{}',
          updated_at: now,
        },
      ])
      .execute();
    await t.app.groupCommands.tick();
    await expect.poll(async () => (await jobOf(manager, group)).state, { timeout: 15_000 }).toBe('done');
    const job = await jobOf(manager, group);
    expect(job.sets.map((s: any) => s.state)).toEqual(['failed', 'ok']);
    expect(job.sets[0].text).toMatch(/^The server restarted while the command to Dock set F was on its way/);
    expect(mf.requests).toHaveLength(0);
    expect(mg.requests).toHaveLength(1);
  }, 60_000);
});
