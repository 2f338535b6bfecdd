// Maintenance plans against a real server: items are added, changed, disabled and deleted, and bad input is
// refused in the caller's language with nothing changed; the next service is due by days and by run hours;
// an item due in 3 days with a reminder of 5 raises its reminder once on every channel its person chose, even
// with two schedulers on one database, and an overdue notice once past its due date; marking it done records
// the work and makes the next task due from the actual date; templates add their items to several sets,
// leaving out names a set has; a maintenance link shows the plan read-only until it expires or is revoked;
// other companies see none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createCompany,
  createTestApp,
  freshUser,
  login,
  outbox,
  signInManager,
  type TestApp,
} from './helpers.ts';
import { newSet } from './support/history-data.ts';
import { createMaintenanceScheduler } from '../src/modules/maintenance/scheduler.ts';
import { addDays, dateIn, nextDue, stateOf } from '../src/modules/maintenance/schedule.ts';

let t: TestApp;
let manager: string;
let managerId: number;
let companyId: number;
let seq = 0;
const uid = () => `${Date.now().toString(36)}${seq++}`;
const DAY = 86_400_000;

const api = (token: string, url: string, body: Record<string, unknown>, lang?: string) =>
  call(t.app, 'POST', url, { token, body, ...(lang ? { lang } : {}) });

async function setWithHours(runHours: number | null, details: Record<string, unknown> = {}, owner = managerId) {
  const name = `Maint set ${uid()}`;
  const set = { ...(await newSet(t, { companyId, ownerUserId: owner, name, details })), name };
  if (runHours !== null) {
    await t.app.database.db
      .insertInto('set_latest')
      .values({
        genset_id: set.id,
        status: 1,
        alarm_count: 0,
        values: JSON.stringify({ run_hours: runHours }),
        device_ts: Date.now(),
        updated_at: Date.now(),
        merged_id: null,
      })
      .execute();
  }
  t.app.gensets.directory.invalidate();
  return set;
}

const plan = async (token: string, setToken: string) => {
  const res = await api(token, '/maintain/plan', { token: setToken });
  expect(res.code, res.msg).toBe(200);
  return res.data as {
    items: {
      id: number;
      name: string;
      taskId: number;
      dueDate: string | null;
      dueHours: number | null;
      state: string;
      enabled: boolean;
    }[];
    today: string;
    canEdit: boolean;
    canMarkDone: boolean;
    links: { id: number }[];
  };
};
const itemCount = async () =>
  Number(
    (
      await t.app.database.db
        .selectFrom('maintenance_item')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const logOf = (setToken: string) =>
  t.app.database.db.selectFrom('operation_log').select('matter').where('target', '=', setToken).orderBy('id').execute();

beforeAll(async () => {
  t = await createTestApp();
  ({ token: manager, id: managerId, companyId } = await signInManager(t));
});
afterAll(async () => t.close());

describe('the arithmetic of due dates', () => {
  it('counts days from the latest service or takes the planned date, and hours from the latest hours', () => {
    expect(
      nextDue({ cycle_days: 30, cycle_hours: null, latest_date: '2026-01-15', latest_hours: null, planned_date: null }),
    ).toEqual({ dueDate: '2026-02-14', dueHours: null });
    expect(
      nextDue({
        cycle_days: 30,
        cycle_hours: 250,
        latest_date: '2026-01-15',
        latest_hours: 1000,
        planned_date: '2026-02-01',
      }),
    ).toEqual({ dueDate: '2026-02-01', dueHours: 1250 });
    const task = { due_date: '2026-02-14', due_hours: 1250, remind_days: 5, remind_hours: 50 };
    expect(stateOf(task, '2026-02-08', 1000)).toBe('ok');
    expect(stateOf(task, '2026-02-09', 1000)).toBe('due');
    expect(stateOf(task, '2026-02-14', 1000)).toBe('due');
    expect(stateOf(task, '2026-02-15', 1000)).toBe('overdue');
    expect(stateOf(task, '2026-02-01', 1200)).toBe('due');
    expect(stateOf(task, '2026-02-01', 1250)).toBe('overdue');
    expect(dateIn('Asia/Shanghai', Date.parse('2026-03-01T20:00:00Z'))).toBe('2026-03-02');
  });
});

describe('items of a plan', () => {
  it('adds, changes, disables and deletes items, each in the operation log', async () => {
    const set = await setWithHours(1000);
    const add = await api(manager, '/maintain/item/save', {
      token: set.token,
      name: 'Oil filter',
      cycleDays: 90,
      cycleHours: 250,
      remindDays: 7,
      remindHours: 20,
      replacedModel: 'LF-3000',
    });
    expect(add.code, add.msg).toBe(200);
    let p = await plan(manager, set.token);
    expect(p.canEdit).toBe(true);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({
      name: 'Oil filter',
      dueDate: addDays(p.today, 90),
      dueHours: 1250,
      state: 'ok',
    });

    const change = await api(manager, '/maintain/item/save', {
      token: set.token,
      id: add.data.id,
      name: 'Oil and filter',
      cycleDays: 30,
      latestDate: addDays(p.today, -10),
      remindDays: 15,
    });
    expect(change.code, change.msg).toBe(200);
    p = await plan(manager, set.token);
    expect(p.items[0]).toMatchObject({
      name: 'Oil and filter',
      dueDate: addDays(p.today, 20),
      dueHours: null,
      state: 'ok',
    });

    expect(
      (await api(manager, '/maintain/item/toggle', { token: set.token, id: add.data.id, enabled: false })).code,
    ).toBe(200);
    expect((await plan(manager, set.token)).items[0]!.enabled).toBe(false);
    expect((await api(manager, '/maintain/item/delete', { token: set.token, id: add.data.id })).code).toBe(200);
    expect((await plan(manager, set.token)).items).toHaveLength(0);
    expect((await logOf(set.token)).map((l) => l.matter)).toEqual([
      'log.maintItemAdded',
      'log.maintItemChanged',
      'log.maintItemDisabled',
      'log.maintItemDeleted',
    ]);
  });

  it('refuses bad input in the caller’s language and changes nothing', async () => {
    const set = await setWithHours(500);
    const before = await itemCount();
    const base = { token: set.token, name: 'Coolant' };
    const noCycle = await api(manager, '/maintain/item/save', { ...base, cycleDays: 0 }, 'en-US');
    expect(noCycle.code).toBe(400);
    expect(noCycle.msg).toBe('Cycle (days): give a cycle in days or in run hours');
    const longReminder = await api(manager, '/maintain/item/save', { ...base, cycleDays: 10, remindDays: 11 }, 'zh-CN');
    expect(longReminder.code).toBe(400);
    expect(longReminder.msg).toBe('提前提醒（天）：不能长于周期');
    const unknown = await api(manager, '/maintain/item/save', { ...base, token: 'no-such-set', cycleDays: 10 });
    expect(unknown.code).toBe(404);
    const negative = await api(manager, '/maintain/item/save', { ...base, cycleDays: 10, latestHours: -1 });
    expect(negative.code).toBe(400);
    const future = await api(manager, '/maintain/item/save', {
      ...base,
      cycleDays: 10,
      latestDate: addDays(dateIn('UTC', Date.now()), 2),
    });
    expect(future.code).toBe(400);
    expect(await itemCount()).toBe(before);

    // a done date in the future, and negative run hours, are refused too
    const ok = await api(manager, '/maintain/item/save', { ...base, cycleDays: 10 });
    const taskId = (await plan(manager, set.token)).items[0]!.taskId;
    const today = dateIn('UTC', Date.now());
    const ahead = await api(
      manager,
      '/maintain/task/done',
      { token: set.token, id: taskId, actualDate: addDays(today, 1) },
      'ru-RU',
    );
    expect(ahead.code).toBe(400);
    expect(ahead.msg).toBe('Фактическая дата: не может быть в будущем');
    const minus = await api(manager, '/maintain/task/done', {
      token: set.token,
      id: taskId,
      actualDate: today,
      runHours: -5,
    });
    expect(minus.code).toBe(400);
    const p = await plan(manager, set.token);
    expect(p.items[0]!.taskId).toBe(taskId);
    expect(ok.code).toBe(200);
  });
});

describe('reminders, overdue notices and marking done', () => {
  it('reminds once on every chosen channel with two schedulers, then tells it is overdue, and done makes the next', async () => {
    const owner = await freshUser(t, { companyId, role: 'personal' });
    const ownerToken = await login(t.app, owner.account, owner.password);
    await api(ownerToken, '/user/setMessage', {
      alarmEmail: true,
      alarmSms: true,
      maintenanceReminder: true,
      phone: '+8613800138000',
    });
    const set = await setWithHours(2000, {}, owner.id);
    const today = dateIn('UTC', Date.now());
    // a 30-day cycle whose latest service was 27 days ago: due in 3 days, with a reminder 5 days ahead
    const saved = await api(ownerToken, '/maintain/item/save', {
      token: set.token,
      name: 'Air filter',
      cycleDays: 30,
      remindDays: 5,
      latestDate: addDays(today, -27),
    });
    expect(saved.code, saved.msg).toBe(200);
    let item = (await plan(ownerToken, set.token)).items[0]!;
    expect(item).toMatchObject({ dueDate: addDays(today, 3), state: 'due' });

    let clock = Date.now() + 200_000; // past any lease the server's own scheduler holds
    const db = t.app.database.db;
    const a = createMaintenanceScheduler({ db, holder: 'maint-a', now: () => clock });
    const b = createMaintenanceScheduler({ db, holder: 'maint-b', now: () => clock });
    await Promise.all([a.runOnce(), b.runOnce()]);
    // a lease taken over (the first holder gone): the other scheduler finds nothing more to say
    clock += 200_000;
    await Promise.all([b.runOnce(), a.runOnce()]);
    await t.app.notifications.engine.runOnce();

    const deliveries = async (kind: string) => {
      const events = await db
        .selectFrom('notification_event')
        .select('id')
        .where('genset_id', '=', set.id)
        .where('kind', '=', kind)
        .execute();
      const ids = events.map((e) => e.id);
      const rows = ids.length
        ? await db
            .selectFrom('notification_delivery')
            .select('channel')
            .where('event_id', 'in', ids)
            .where('user_id', '=', owner.id)
            .execute()
        : [];
      const notices = ids.length
        ? await db
            .selectFrom('notification')
            .select('id')
            .where('event_id', 'in', ids)
            .where('user_id', '=', owner.id)
            .execute()
        : [];
      return { events: ids.length, channels: rows.map((r) => r.channel).sort(), notices: notices.length };
    };
    expect(await deliveries('maintenance.due')).toEqual({ events: 1, channels: ['email', 'sms'], notices: 1 });
    expect((await deliveries('maintenance.overdue')).events).toBe(0);
    const centre = await api(ownerToken, '/notice/list', {}, 'en-US');
    expect(centre.code).toBe(200);
    expect(JSON.stringify(centre.data)).toContain(`“Air filter” on ${set.name} is due on ${addDays(today, 3)}.`);
    // and it went out: one e-mail and one SMS (the development outbox)
    const sentTo = () => {
      const mine = outbox(t).filter((m) => m.purpose === 'notice' && m.text.includes('Air filter'));
      return {
        email: mine.filter((m) => m.channel === 'email' && m.to === owner.account).length,
        sms: mine.filter((m) => m.channel === 'sms' && m.to.endsWith('13800138000')).length,
      };
    };
    expect(sentTo()).toEqual({ email: 1, sms: 1 });

    // two instances racing: a round that read the task before the other one's round marked it reminded (its
    // mark undone here) records the reminder again, and the notice's key keeps it to the one already told
    await db.updateTable('maintenance_task').set({ reminded_at: null }).where('id', '=', item.taskId).execute();
    clock += 200_000;
    await b.runOnce();
    await t.app.notifications.engine.runOnce();
    expect(await deliveries('maintenance.due')).toEqual({ events: 1, channels: ['email', 'sms'], notices: 1 });
    expect(sentTo()).toEqual({ email: 1, sms: 1 });

    // past the due date: overdue, once
    clock += 4 * DAY;
    await Promise.all([a.runOnce(), b.runOnce()]);
    clock += 200_000;
    await Promise.all([a.runOnce(), b.runOnce()]);
    await t.app.notifications.engine.runOnce();
    expect(await deliveries('maintenance.overdue')).toEqual({ events: 1, channels: ['email', 'sms'], notices: 1 });
    expect((await deliveries('maintenance.due')).events).toBe(1);

    // done: the next is due from the actual date; the history has who, when and at how many run hours
    const done = await api(ownerToken, '/maintain/task/done', {
      token: set.token,
      id: item.taskId,
      actualDate: addDays(today, -1),
      replacedModel: 'AF-25',
      remark: 'Changed',
    });
    expect(done.code, done.msg).toBe(200);
    expect(done.data.next.dueDate).toBe(addDays(today, 29));
    const again = await api(ownerToken, '/maintain/task/done', {
      token: set.token,
      id: item.taskId,
      actualDate: today,
    });
    expect(again.code).toBe(409);
    item = (await plan(ownerToken, set.token)).items[0]!;
    expect(item).toMatchObject({ dueDate: addDays(today, 29), state: 'ok' });
    const history = await api(ownerToken, '/maintain/history', { token: set.token });
    expect(history.data.list).toHaveLength(1);
    expect(history.data.list[0]).toMatchObject({
      name: 'Air filter',
      status: 'done',
      actualDate: addDays(today, -1),
      runHours: 2000,
      replacedModel: 'AF-25',
      remark: 'Changed',
    });
    expect(history.data.list[0].doneBy).not.toBe('');
    expect((await logOf(set.token)).map((l) => l.matter)).toContain('log.maintTaskDone');
  });

  it('counts due and overdue by run hours, and a control subscriber marks done with the hours then', async () => {
    const set = await setWithHours(1190);
    await api(manager, '/maintain/item/save', {
      token: set.token,
      name: 'Valve clearance',
      cycleHours: 200,
      remindHours: 20,
      latestHours: 1000,
    });
    await api(manager, '/maintain/item/save', {
      token: set.token,
      name: 'Belt',
      cycleHours: 100,
      latestHours: 1000,
    });
    const items = (await plan(manager, set.token)).items;
    expect(items.map((i) => [i.name, i.dueHours, i.state])).toEqual([
      ['Belt', 1100, 'overdue'],
      ['Valve clearance', 1200, 'due'],
    ]);
    const tasks = await api(manager, '/maintain/tasks', { state: 'due', size: 50 });
    const mine = tasks.data.list.filter((x: { token: string }) => x.token === set.token);
    expect(mine.map((x: { state: string }) => x.state)).toEqual(['overdue', 'due']);
    const counts = await api(manager, '/maintain/counts', {});
    expect(counts.data.due).toBeGreaterThanOrEqual(1);
    expect(counts.data.overdue).toBeGreaterThanOrEqual(1);

    // a technician subscribed with control rights marks done, but does not edit the plan
    const tech = await freshUser(t, { companyId, role: 'personal' });
    await t.app.database.db
      .insertInto('subscription')
      .values({ genset_id: set.id, user_id: tech.id, rights: 'control', created_at: Date.now() })
      .execute();
    const techToken = await login(t.app, tech.account, tech.password);
    const p = await plan(techToken, set.token);
    expect([p.canEdit, p.canMarkDone]).toEqual([false, true]);
    const edit = await api(techToken, '/maintain/item/save', { token: set.token, name: 'X', cycleDays: 5 }, 'en-US');
    expect(edit.code).toBe(403);
    expect(edit.msg).toBe('Only someone who manages this set can change its maintenance plan.');
    const belt = items.find((i) => i.name === 'Belt')!;
    const done = await api(techToken, '/maintain/task/done', {
      token: set.token,
      id: belt.taskId,
      actualDate: dateIn('UTC', Date.now()),
    });
    expect(done.code, done.msg).toBe(200);
    expect(done.data.next.dueHours).toBe(1290);

    // a viewer reads but marks nothing done
    const viewer = await freshUser(t, { companyId, role: 'personal' });
    await t.app.database.db
      .insertInto('subscription')
      .values({ genset_id: set.id, user_id: viewer.id, rights: 'view', created_at: Date.now() })
      .execute();
    const viewerToken = await login(t.app, viewer.account, viewer.password);
    const valve = items.find((i) => i.name === 'Valve clearance')!;
    const refused = await api(viewerToken, '/maintain/task/done', {
      token: set.token,
      id: valve.taskId,
      actualDate: dateIn('UTC', Date.now()),
    });
    expect(refused.code).toBe(403);
  });
});

describe('templates', () => {
  it('applies a model’s items to several sets at once, leaving out names a set already has', async () => {
    const model = `C${uid()}`;
    const s1 = await setWithHours(100, { model });
    const s2 = await setWithHours(null, { model });
    const other = await setWithHours(100, { model: 'Other' });
    await api(manager, '/maintain/item/save', { token: s1.token, name: 'oil change', cycleDays: 60 });
    const saved = await api(manager, '/maintain/template/save', {
      name: 'Standard',
      model,
      items: [
        { name: 'Oil change', cycleDays: 180, cycleHours: 250, remindDays: 14 },
        { name: 'Battery check', cycleDays: 30, remindDays: 3 },
      ],
    });
    expect(saved.code, saved.msg).toBe(200);
    const bad = await api(manager, '/maintain/template/save', {
      name: 'Broken',
      model,
      items: [{ name: 'No cycle' }],
    });
    expect(bad.code).toBe(400);
    const list = await api(manager, '/maintain/template/list', {});
    expect(list.data.list.find((x: { id: number }) => x.id === saved.data.id)).toMatchObject({ sets: 2, model });

    const applied = await api(manager, '/maintain/template/apply', { id: saved.data.id, all: true });
    expect(applied.code, applied.msg).toBe(200);
    expect(applied.data).toEqual({ sets: 2, added: 3, skipped: 1 });
    expect((await plan(manager, s1.token)).items.map((i) => i.name)).toEqual(['Battery check', 'oil change']);
    expect((await plan(manager, s2.token)).items.map((i) => i.name)).toEqual(['Battery check', 'Oil change']);
    expect((await plan(manager, other.token)).items).toHaveLength(0);
    // named sets: the other model's set too; applying again adds nothing
    const named = await api(manager, '/maintain/template/apply', {
      id: saved.data.id,
      tokens: [other.token, s2.token],
    });
    expect(named.data).toEqual({ sets: 2, added: 2, skipped: 2 });
    // an unknown set refuses the whole call
    const before = await itemCount();
    const unknown = await api(manager, '/maintain/template/apply', { id: saved.data.id, tokens: [s1.token, 'nope'] });
    expect(unknown.code).toBe(404);
    expect(await itemCount()).toBe(before);
    expect((await api(manager, '/maintain/template/delete', { id: saved.data.id })).code).toBe(200);
  });
});

describe('maintenance links', () => {
  it('shows the plan read-only without an account until revoked or expired', async () => {
    const set = await setWithHours(300);
    await api(manager, '/maintain/item/save', { token: set.token, name: 'Coolant', cycleDays: 365 });
    const made = await api(manager, '/maintain/mtoken/create', { token: set.token, days: 7 });
    expect(made.code, made.msg).toBe(200);
    const stored = await t.app.database.db
      .selectFrom('maintenance_link')
      .select('token_hash')
      .where('id', '=', made.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toBe(made.data.mtoken);
    expect((await plan(manager, set.token)).links.map((l) => l.id)).toContain(made.data.id);

    const open = await call(t.app, 'POST', '/maintain/public', { body: { mtoken: made.data.mtoken } });
    expect(open.code, open.msg).toBe(200);
    expect(open.data.name).toBe(set.name);
    expect(open.data.items.map((i: { name: string }) => i.name)).toEqual(['Coolant']);
    // the link opens nothing else: no signed-in call accepts it
    const other = await call(t.app, 'POST', '/maintain/plan', { token: made.data.mtoken, body: { token: set.token } });
    expect(other.code).not.toBe(200);

    // expired
    await t.app.database.db
      .updateTable('maintenance_link')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', made.data.id)
      .execute();
    const expired = await call(t.app, 'POST', '/maintain/public', {
      body: { mtoken: made.data.mtoken },
      lang: 'es-ES',
    });
    expect(expired.code).toBe(403);
    expect(expired.msg).toBe('Este enlace de mantenimiento ha caducado.');

    // revoked
    const second = await api(manager, '/maintain/mtoken/create', { token: set.token, days: 1 });
    expect((await api(manager, '/maintain/mtoken/revoke', { token: set.token, id: second.data.id })).code).toBe(200);
    const revoked = await call(t.app, 'POST', '/maintain/public', {
      body: { mtoken: second.data.mtoken },
      lang: 'en-US',
    });
    expect(revoked.code).toBe(403);
    expect(revoked.msg).toBe('This maintenance link has been revoked.');
    const unknown = await call(t.app, 'POST', '/maintain/public', { body: { mtoken: 'x'.repeat(43) }, lang: 'en-US' });
    expect(unknown.msg).toBe('This maintenance link is not valid.');
  });
});

describe('other companies', () => {
  it('see no plan, templates or tasks of another company and change nothing', async () => {
    const set = await setWithHours(100, { model: 'Shared' });
    await api(manager, '/maintain/item/save', { token: set.token, name: 'Belt', cycleDays: 1, remindDays: 1 });
    const saved = await api(manager, '/maintain/template/save', {
      name: 'Ours',
      model: 'Shared',
      items: [{ name: 'Belt', cycleDays: 30 }],
    });
    const elsewhere = await createCompany(t, `Rival ${uid()}`);
    const admin = await freshUser(t, { companyId: elsewhere, role: 'companyAdmin' });
    const rival = await login(t.app, admin.account, admin.password);
    const before = await itemCount();
    expect((await api(rival, '/maintain/plan', { token: set.token })).code).toBe(404);
    expect((await api(rival, '/maintain/item/save', { token: set.token, name: 'X', cycleDays: 5 })).code).toBe(404);
    expect((await api(rival, '/maintain/mtoken/create', { token: set.token })).code).toBe(404);
    const templates = await api(rival, '/maintain/template/list', {});
    expect(templates.code).toBe(200);
    expect(templates.data.list).toHaveLength(0);
    const apply = await api(rival, '/maintain/template/apply', { id: saved.data.id, all: true });
    expect([403, 404]).toContain(apply.code);
    const tasks = await api(rival, '/maintain/tasks', { state: 'all' });
    expect(tasks.data.list.filter((x: { token: string }) => x.token === set.token)).toHaveLength(0);
    expect(await itemCount()).toBe(before);
  });
});
