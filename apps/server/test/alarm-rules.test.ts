// Threshold rules, through a module on the real broker and the real ingestion, with values stepped in the set's own
// time: a rule raises its alarm only once the value has stayed past the threshold for the whole delay (a reading
// back on the right side starts the delay again), keeps it while the value is inside the hysteresis, and clears it
// once the value is back past the threshold by the hysteresis. Its alarm is an alarm like the controller's (one
// notice, the history, its count on the rule). A rule watches only the sets it names (chosen sets, controller
// models, every set of its company); deleted, its open alarm ends with the set's next reading. Only those who manage
// the company keep rules, of their own company, and a bad rule is refused with a localised message, changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, freshUser, login } from './helpers.ts';
import { moduleFor, newSet, RUNNING, serverWithStranger } from './support/history-data.ts';
import type { TestApp } from './helpers.ts';
import { escalateAlarms } from '../src/modules/devices/ingest/episodes.ts';

let t: TestApp;
let manager: string;
let stranger: string;
let companyId: number;

beforeAll(async () => {
  ({ t, manager, companyId, stranger } = await serverWithStranger());
});
afterAll(async () => t.close());

const db = () => t.app.database.db;
const S = 1000;

async function alarmsOf(setId: number, code: string) {
  return db()
    .selectFrom('alarm')
    .select(['start_ts', 'end_ts', 'level', 'title'])
    .where('genset_id', '=', setId)
    .where('code', '=', code)
    .orderBy('id')
    .execute();
}

async function saveRule(body: Record<string, unknown>, token = manager) {
  const res = await call(t.app, 'POST', '/alarm/rule/save', { token, body });
  expect(res.code, res.msg).toBe(200);
  return res.data.id as number;
}

async function rules() {
  return (await call(t.app, 'POST', '/alarm/rule/list', { token: manager })).data;
}

describe('threshold rules', () => {
  it('raise after the delay, hold within the hysteresis, clear past it; a reading back starts the delay again', async () => {
    const set = await newSet(t, { companyId, name: 'Rule fuel' });
    const other = await newSet(t, { companyId, name: 'Rule fuel, not chosen' });
    const id = await saveRule({
      name: 'Fuel low',
      item: 'fuel_level',
      op: 'below',
      threshold: 20,
      hysteresis: 5,
      delaySeconds: 60,
      level: 'warning',
      scope: 'sets',
      sets: [set.token],
    });
    const listed = (await rules()).list.find((r: { id: number }) => r.id === id);
    expect(listed).toEqual({
      id,
      name: 'Fuel low',
      item: 'fuel_level',
      op: 'below',
      threshold: 20,
      hysteresis: 5,
      delaySeconds: 60,
      level: 'warning',
      scope: 'sets',
      protocols: [],
      sets: [{ token: set.token, name: 'Rule fuel' }],
      enabled: true,
      active: 0,
      updatedAt: expect.any(Number),
    });

    const m = await moduleFor(t, set);
    const o = await moduleFor(t, other);
    const code = `rule:${id}`;
    const t0 = Date.now() - 600 * S;
    const fuel = (v: number, at: number) => m.send({ ...RUNNING, fuel_level: v }, t0 + at * S);

    await fuel(25, 0);
    await fuel(15, 10); // below from 10 s
    await fuel(18, 40);
    await fuel(19, 69); // 59 s below: not yet
    expect(await alarmsOf(set.id, code)).toEqual([]);
    await fuel(19, 70); // 60 s below
    expect(await alarmsOf(set.id, code)).toEqual([
      { start_ts: t0 + 70 * S, end_ts: null, level: 'warning', title: JSON.stringify({ 'en-US': 'Fuel low' }) },
    ]);
    expect((await rules()).list.find((r: { id: number }) => r.id === id).active).toBe(1);
    // the set not chosen reads the same and raises nothing
    for (const at of [10, 70, 90]) await o.send({ ...RUNNING, fuel_level: 10 }, t0 + at * S);
    expect(await alarmsOf(other.id, code)).toEqual([]);

    await fuel(22, 80); // above the threshold, inside the hysteresis: still active
    await fuel(24, 90);
    expect((await alarmsOf(set.id, code))[0]!.end_ts).toBeNull();
    await fuel(25, 100); // threshold + hysteresis: cleared
    expect((await alarmsOf(set.id, code))[0]!.end_ts).toBe(t0 + 100 * S);

    // below again, back above for a reading, below again: the delay starts from the last crossing
    await fuel(15, 200);
    await fuel(21, 230);
    await fuel(15, 250);
    await fuel(15, 309); // 59 s since 250
    expect(await alarmsOf(set.id, code)).toHaveLength(1);
    await fuel(15, 310);
    const episodes = await alarmsOf(set.id, code);
    expect(episodes).toHaveLength(2);
    expect(episodes[1]).toMatchObject({ start_ts: t0 + 310 * S, end_ts: null });

    // the alarm is told once, as any alarm
    const raised = await db()
      .selectFrom('notification_event')
      .select('payload')
      .where('genset_id', '=', set.id)
      .where('kind', '=', 'alarm.raised')
      .execute();
    expect(raised.map((r) => JSON.parse(r.payload).facts.code)).toEqual([code, code]);

    // and listed with the set's alarms under the rule's name
    const current = await call(t.app, 'POST', '/alarm/current', { token: manager, body: { token: set.token } });
    expect(current.code, current.msg).toBe(200);
    expect(JSON.stringify(current.data)).toContain('Fuel low');

    // deleted: its open alarm ends with the set's next reading
    expect((await call(t.app, 'POST', '/alarm/rule/delete', { token: manager, body: { id } })).code).toBe(200);
    await fuel(15, 320);
    expect((await alarmsOf(set.id, code))[1]!.end_ts).toBe(t0 + 320 * S);
    await m.close();
    await o.close();
  });

  it('an "above" rule of a controller model watches every set of that model, with no delay', async () => {
    const a = await newSet(t, { companyId, name: 'Rule coolant A' });
    const b = await newSet(t, { companyId, name: 'Rule coolant B' });
    const id = await saveRule({
      name: 'Coolant hot',
      item: 'coolant_temp',
      op: 'above',
      threshold: 95,
      hysteresis: 3,
      level: 'shutdown',
      scope: 'protocols',
      protocols: [layoutS.key],
      delaySeconds: 0,
    });
    const code = `rule:${id}`;
    const t0 = Date.now() - 100 * S;
    const ma = await moduleFor(t, a);
    const mb = await moduleFor(t, b);
    await ma.send({ ...RUNNING, coolant_temp: 96 }, t0);
    await mb.send({ ...RUNNING, coolant_temp: 95 }, t0); // at the threshold, not above
    expect(await alarmsOf(a.id, code)).toMatchObject([{ start_ts: t0, end_ts: null, level: 'shutdown' }]);
    expect(await alarmsOf(b.id, code)).toEqual([]);
    await ma.send({ ...RUNNING, coolant_temp: 93 }, t0 + 10 * S); // above 95 − 3
    expect((await alarmsOf(a.id, code))[0]!.end_ts).toBeNull();
    await ma.send({ ...RUNNING, coolant_temp: 92 }, t0 + 20 * S);
    expect((await alarmsOf(a.id, code))[0]!.end_ts).toBe(t0 + 20 * S);
    // disabled, it raises nothing
    await saveRule({
      id,
      name: 'Coolant hot',
      item: 'coolant_temp',
      op: 'above',
      threshold: 95,
      level: 'shutdown',
      scope: 'protocols',
      protocols: [layoutS.key],
      enabled: false,
    });
    await mb.send({ ...RUNNING, coolant_temp: 110 }, t0 + 30 * S);
    expect(await alarmsOf(b.id, code)).toEqual([]);
    await ma.close();
    await mb.close();
  });

  it('refuses a bad rule with a localised message and changes nothing; only the company’s managers keep rules', async () => {
    const before = (await rules()).list.length;
    const bad: [Record<string, unknown>, string, string][] = [
      [{ item: 'no_such_value' }, 'item', '所监视的机组没有数值数据项“no_such_value”'],
      [{ item: 'mode' }, 'item', '所监视的机组没有数值数据项“mode”'],
      [
        { scope: 'protocols', protocols: ['no-such-model'] },
        'protocols',
        '本公司没有控制器型号为“no-such-model”的机组',
      ],
      [{ scope: 'sets', sets: ['nosuchtoken'] }, 'sets', '所选机组中有不属于本公司的机组'],
    ];
    const good = { name: 'x', item: 'fuel_level', op: 'below', threshold: 10, level: 'warning' };
    for (const [change, field, msg] of bad) {
      const res = await call(t.app, 'POST', '/alarm/rule/save', {
        token: manager,
        lang: 'zh-CN',
        body: { ...good, ...change },
      });
      expect(res.code, JSON.stringify(change)).toBe(400);
      expect(res.data.fields[field], JSON.stringify(res.data)).toContain(msg);
    }
    for (const change of [
      { threshold: 'ten' },
      { delaySeconds: -1 },
      { hysteresis: -1 },
      { op: 'equals' },
      { level: 'info' },
      { scope: 'sets' },
    ]) {
      const res = await call(t.app, 'POST', '/alarm/rule/save', { token: manager, body: { ...good, ...change } });
      expect(res.code, JSON.stringify(change)).toBe(400);
    }
    // another company's set cannot be chosen
    const foreign = await newSet(t, {
      companyId: (await call(t.app, 'GET', '/user/info', { token: stranger })).data.info.companyId,
    });
    const res = await call(t.app, 'POST', '/alarm/rule/save', {
      token: manager,
      body: { ...good, scope: 'sets', sets: [foreign.token] },
    });
    expect(res.code).toBe(400);
    expect((await rules()).list.length).toBe(before);

    // a viewer may not; another company's administrator sees none of them and edits none
    const viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    expect((await call(t.app, 'POST', '/alarm/rule/list', { token: viewer })).code).toBe(403);
    expect((await call(t.app, 'POST', '/alarm/rule/save', { token: viewer, body: good })).code).toBe(403);
    const id = await saveRule(good);
    expect((await call(t.app, 'POST', '/alarm/rule/list', { token: stranger })).data.list).toEqual([]);
    const edit = await call(t.app, 'POST', '/alarm/rule/save', {
      token: stranger,
      body: { ...good, id, name: 'taken' },
    });
    expect(edit.code).toBe(404);
    expect((await call(t.app, 'POST', '/alarm/rule/delete', { token: stranger, body: { id } })).code).toBe(404);
    expect((await rules()).list.find((r: { id: number }) => r.id === id).name).toBe('x');
    // the choices offered: the numeric items of the company's models, in the reader's language
    const list = (await call(t.app, 'POST', '/alarm/rule/list', { token: manager, lang: 'zh-CN' })).data;
    const fuel = list.items.find((i: { key: string }) => i.key === 'fuel_level');
    expect(fuel.unit).toBe('%');
    expect(fuel.name).toMatch(/燃油/);
    expect(list.items.some((i: { key: string }) => i.key === 'mode')).toBe(false);
    expect(list.protocols.map((p: { key: string }) => p.key)).toContain(layoutS.key);
  });
});

describe('alarm policy: hold time and escalation', () => {
  const policy = async (body?: Record<string, unknown>, token = manager) =>
    body === undefined
      ? call(t.app, 'POST', '/alarm/policy', { token })
      : call(t.app, 'POST', '/alarm/policy/save', { token, lang: 'zh-CN', body });

  it('the company’s hold time decides whether an alarm back after clearing continues its episode', async () => {
    const before = (await policy()).data;
    expect(before).toMatchObject({ holdSeconds: 60, escalateAfterMinutes: null, escalateTo: [] });
    expect(before.people.map((p: { name: string }) => p.name)).toContain('Mia Manager');
    expect((await policy({ holdSeconds: 5, escalateAfterMinutes: null })).code).toBe(200);

    const set = await newSet(t, { companyId, name: 'Policy hold' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 100 * S;
    const stop = { ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1 };
    await m.send(stop, t0);
    await m.send(RUNNING, t0 + 1 * S);
    await m.send(stop, t0 + 4 * S); // back within 5 s: the same episode
    await m.send(RUNNING, t0 + 5 * S);
    await m.send(stop, t0 + 20 * S); // 15 s later: a new one (within the default 60 s it would continue)
    await m.send(RUNNING, t0 + 21 * S);
    await m.close();
    const episodes = await db()
      .selectFrom('alarm')
      .select(['start_ts', 'occurrences'])
      .where('genset_id', '=', set.id)
      .where('code', '=', 'emergency_stop')
      .orderBy('id')
      .execute();
    expect(episodes).toEqual([
      { start_ts: t0, occurrences: 2 },
      { start_ts: t0 + 20 * S, occurrences: 1 },
    ]);
    expect((await policy({ holdSeconds: 60, escalateAfterMinutes: null })).code).toBe(200);
  });

  it('an episode nobody acknowledges is escalated once, after the company’s time, to the people it named', async () => {
    // the one escalated to wants only alarms that stop a set: a warning reaches them only escalated
    const chief = await freshUser(t, { companyId, role: 'companyAdmin' });
    const chiefToken = await login(t.app, chief.account, chief.password);
    const settings = await call(t.app, 'POST', '/user/setMessage', {
      token: chiefToken,
      body: { alarmEmail: true, alarmLevel: 'shutdown', alarmCleared: false },
    });
    expect(settings.code, settings.msg).toBe(200);
    expect((await policy({ holdSeconds: 60, escalateAfterMinutes: 10, escalateTo: [chief.id] })).code).toBe(200);
    expect((await policy()).data).toMatchObject({ holdSeconds: 60, escalateAfterMinutes: 10, escalateTo: [chief.id] });

    const set = await newSet(t, { companyId, name: 'Policy escalation' });
    const acked = await newSet(t, { companyId, name: 'Policy acknowledged' });
    const now = Date.now();
    for (const s of [set, acked]) {
      const m = await moduleFor(t, s);
      await m.send({ ...RUNNING, alarm_low_fuel_warning: 1, common_warning: 1 }, now - 60 * S);
      await m.close();
    }
    const ackedId = (
      await db().selectFrom('alarm').select('id').where('genset_id', '=', acked.id).executeTakeFirstOrThrow()
    ).id;
    expect(
      (await call(t.app, 'POST', '/alarm/ack', { token: manager, body: { id: ackedId, comment: 'On it' } })).code,
    ).toBe(200);

    expect(await escalateAlarms(db(), now + 5 * 60 * S)).toBe(0); // 6 minutes: not yet
    expect(await escalateAlarms(db(), now + 10 * 60 * S)).toBe(1); // 11 minutes: the one nobody acknowledged
    expect(await escalateAlarms(db(), now + 12 * 60 * S)).toBe(0); // once
    await t.app.notifications.engine.runOnce();
    const delivered = await db()
      .selectFrom('notification_delivery as d')
      .innerJoin('notification_event as e', 'e.id', 'd.event_id')
      .select(['e.kind', 'e.genset_id', 'd.channel'])
      .where('d.user_id', '=', chief.id)
      .where('e.genset_id', 'in', [set.id, acked.id])
      .execute();
    expect(delivered).toEqual([{ kind: 'alarm.escalated', genset_id: set.id, channel: 'email' }]);
    // told in the message centre in the reader's language, with how long nobody acknowledged it
    const notices = await call(t.app, 'POST', '/notice/list', {
      token: chiefToken,
      lang: 'zh-CN',
      body: { page: 1, size: 10 },
    });
    expect(notices.data.list[0].title).toBe('Policy escalation：低燃油位警告 已 10 分钟无人确认');
  });

  it('refuses a policy that names no one or someone outside the company, and those who do not manage it', async () => {
    const other = await freshUser(t, {
      companyId: (await call(t.app, 'GET', '/user/info', { token: stranger })).data.info.companyId,
    });
    const none = await policy({ holdSeconds: 60, escalateAfterMinutes: 30, escalateTo: [] });
    expect(none.code).toBe(400);
    expect(none.data.fields.escalateTo).toContain('升级通知人');
    const outside = await policy({ holdSeconds: 60, escalateAfterMinutes: 30, escalateTo: [other.id] });
    expect(outside.code).toBe(400);
    expect(outside.data.fields.escalateTo).toContain('所选人员中有不是本公司在职成员的人');
    expect((await policy({ holdSeconds: 3601, escalateAfterMinutes: null })).code).toBe(400);
    const viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    expect((await policy(undefined, viewer)).code).toBe(403);
    expect((await policy({ holdSeconds: 1, escalateAfterMinutes: null }, viewer)).code).toBe(403);
    // nothing changed
    expect((await policy()).data).toMatchObject({ holdSeconds: 60, escalateAfterMinutes: 10 });
  });
});
