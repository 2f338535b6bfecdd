// Alarm episodes, through a module on the real broker and the real ingestion: the same alarm sent twice 10 ms
// apart, and an alarm bit chattering 20 times in a minute, are each one alarm (one episode) and one notice per
// channel; the chattering one is flapping and counts its occurrences; its end is told once, after the hold time;
// one that comes back later is a new episode. An alarm is acknowledged with a comment by someone who may command
// its set, once; a viewer may not, nor a stranger, and a bad comment changes nothing. An active alarm is shelved
// for a while with a reason: it tells no one, a new episode of it inherits the shelf, and when the time is up (the
// clock moved) the round takes it off and tells it again once, if it is still active. Each step is in the set's
// operation log, in the reader's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login } from './helpers.ts';
import { moduleFor, newSet, RUNNING, serverWithStranger } from './support/history-data.ts';
import type { TestApp } from './helpers.ts';
import {
  ALARM_HOLD_MS,
  FLAP_CYCLES,
  returnShelvedAlarms,
  tellEndedEpisodes,
} from '../src/modules/devices/ingest/episodes.ts';

let t: TestApp;
let manager: string;
let stranger: string;
let companyId: number;

beforeAll(async () => {
  ({ t, manager, companyId, stranger } = await serverWithStranger());
  const saved = await call(t.app, 'POST', '/user/setMessage', {
    token: manager,
    body: { alarmEmail: true, alarmSms: true, phone: '13900000088', alarmLevel: 'all', alarmCleared: true },
  });
  expect(saved.code, saved.msg).toBe(200);
});
afterAll(async () => t.close());

const db = () => t.app.database.db;

async function alarmsOf(setId: number, code: string) {
  return db()
    .selectFrom('alarm')
    .select(['id', 'start_ts', 'end_ts', 'occurrences', 'flapping', 'end_pending_since'])
    .where('genset_id', '=', setId)
    .where('code', '=', code)
    .orderBy('id')
    .execute();
}

async function eventsOf(setId: number) {
  const rows = await db()
    .selectFrom('notification_event')
    .select(['kind'])
    .where('genset_id', '=', setId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.kind);
}

/** The messages made for the manager, by notice and channel (after a notification round). */
async function deliveriesOf(setId: number) {
  await t.app.notifications.engine.runOnce();
  const rows = await db()
    .selectFrom('notification_delivery as d')
    .innerJoin('notification_event as e', 'e.id', 'd.event_id')
    .select(['d.channel', 'e.kind'])
    .where('e.genset_id', '=', setId)
    .where('d.target', 'in', ['manager@example.com', '13900000088'])
    .execute();
  const count: Record<string, number> = {};
  for (const r of rows) count[`${r.kind} ${r.channel}`] = (count[`${r.kind} ${r.channel}`] ?? 0) + 1;
  return count;
}

describe('alarm episodes', () => {
  it('the same alarm sent twice 10 ms apart is one alarm and one notice per channel', async () => {
    const set = await newSet(t, { companyId, name: 'Episode twin' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 5_000;
    await m.send({ ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1 }, t0);
    await m.send({ ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1 }, t0 + 10);
    await m.close();
    const alarms = await alarmsOf(set.id, 'emergency_stop');
    expect(alarms).toEqual([
      { id: expect.any(Number), start_ts: t0, end_ts: null, occurrences: 1, flapping: 0, end_pending_since: null },
    ]);
    expect(await eventsOf(set.id)).toEqual(['alarm.raised']);
    const sent = await deliveriesOf(set.id);
    expect(sent['alarm.raised email']).toBe(1);
    expect(sent['alarm.raised sms']).toBe(1);
  });

  it('a bit chattering 20 times in a minute is one flapping episode, told once raised and once ended', async () => {
    const set = await newSet(t, { companyId, name: 'Episode chatter' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 70_000;
    // raised at t0, t0+3 s, … (20 times), cleared 1.5 s after each
    for (let i = 0; i < 20; i++) {
      await m.send({ ...RUNNING, alarm_low_fuel_warning: 1, common_warning: 1 }, t0 + i * 3000);
      await m.send({ ...RUNNING }, t0 + i * 3000 + 1500);
    }
    await m.close();
    const last = t0 + 19 * 3000 + 1500;
    const [episode, ...more] = await alarmsOf(set.id, 'low_fuel_warning');
    expect(more).toEqual([]);
    expect(episode).toEqual({
      id: expect.any(Number),
      start_ts: t0,
      end_ts: last,
      occurrences: 20,
      flapping: 1,
      end_pending_since: expect.any(Number),
    });
    expect(await eventsOf(set.id)).toEqual(['alarm.raised']);

    // the history shows the episode with its count and that it flapped
    const history = await call(t.app, 'POST', '/devicedata/getalarmhistory', {
      token: manager,
      body: { token: set.token, range: 'week' },
    });
    expect(history.data.total).toBe(1);
    expect(history.data.list[0]).toMatchObject({ start: t0, end: last, occurrences: 20, flapping: true, ack: null });

    // its end is told once the hold time has passed since it was recorded, and only once (whichever instance's round)
    const recorded = Number(episode!.end_pending_since);
    expect(recorded).toBeGreaterThanOrEqual(last);
    expect(await tellEndedEpisodes(db(), recorded + ALARM_HOLD_MS - 1)).toBe(0);
    expect(await tellEndedEpisodes(db(), recorded + ALARM_HOLD_MS)).toBe(1);
    expect(await tellEndedEpisodes(db(), recorded + ALARM_HOLD_MS + 1000)).toBe(0);
    expect(await eventsOf(set.id)).toEqual(['alarm.raised', 'alarm.cleared']);
    const sent = await deliveriesOf(set.id);
    expect(sent).toEqual({
      'alarm.raised email': 1,
      'alarm.raised sms': 1,
      'alarm.cleared email': 1,
      'alarm.cleared sms': 1,
    });
  });

  it('an alarm back after the hold time is a new episode; fewer returns than the flapping count is not flapping', async () => {
    const set = await newSet(t, { companyId, name: 'Episode return' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 10 * 60_000;
    const on = { ...RUNNING, alarm_low_fuel_warning: 1, common_warning: 1 };
    for (let i = 0; i < FLAP_CYCLES - 1; i++) {
      await m.send(on, t0 + i * 10_000);
      await m.send(RUNNING, t0 + i * 10_000 + 5000);
    }
    const end = t0 + (FLAP_CYCLES - 2) * 10_000 + 5000;
    // back exactly one hold time after: the same episode; a moment later: a new one
    await m.send(on, end + ALARM_HOLD_MS);
    await m.send(RUNNING, end + ALARM_HOLD_MS + 1000);
    await m.send(on, end + 2 * ALARM_HOLD_MS + 1001);
    await m.close();
    const alarms = await alarmsOf(set.id, 'low_fuel_warning');
    expect(alarms.map((a) => [a.start_ts, a.occurrences, a.flapping, a.end_ts])).toEqual([
      [t0, FLAP_CYCLES, 1, end + ALARM_HOLD_MS + 1000],
      [end + 2 * ALARM_HOLD_MS + 1001, 1, 0, null],
    ]);
    expect(await eventsOf(set.id)).toEqual(['alarm.raised', 'alarm.raised']);
  });
});

describe('acknowledging an alarm', () => {
  it('with a comment, once; by someone who may command the set; refused to a viewer and a stranger', async () => {
    const set = await newSet(t, { companyId, name: 'Episode acknowledged' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 60_000;
    await m.send({ ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1 }, t0);
    await m.close();
    const [alarm] = await alarmsOf(set.id, 'emergency_stop');
    const id = alarm!.id;

    // a comment is required, and not too long: nothing changes
    for (const comment of ['', '   ', 'x'.repeat(501)]) {
      const bad = await call(t.app, 'POST', '/alarm/ack', { token: manager, lang: 'ru-RU', body: { id, comment } });
      expect(bad.code).toBe(400);
      expect(bad.msg).toMatch(/^Комментарий: /);
    }
    // a subscriber with view rights sees the alarm but may not acknowledge it; a stranger does not see it at all
    const viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const info = await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: set.token } });
    const sub = await call(t.app, 'POST', '/sub/add', { token: viewer, body: { code: info.data.subscriptionCode } });
    expect(sub.code, sub.msg).toBe(200);
    const current = await call(t.app, 'POST', '/alarm/current', { token: viewer, body: { token: set.token } });
    expect(current.code, current.msg).toBe(200);
    expect(current.data.list.map((a: { id: number }) => a.id)).toEqual([id]);
    expect((await call(t.app, 'POST', '/alarm/ack', { token: viewer, body: { id, comment: 'Seen' } })).code).toBe(403);
    expect((await call(t.app, 'POST', '/alarm/ack', { token: stranger, body: { id, comment: 'Mine' } })).code).toBe(
      404,
    );
    expect((await alarmsOf(set.id, 'emergency_stop'))[0]).toMatchObject({ end_ts: null });
    const row = await db()
      .selectFrom('alarm')
      .select(['ack_at', 'acknowledged'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toEqual({ ack_at: null, acknowledged: 0 });

    const before = Date.now();
    const ok = await call(t.app, 'POST', '/alarm/ack', {
      token: manager,
      body: { id, comment: '  Crew on the way, ETA 20 min  ' },
    });
    expect(ok.code, ok.msg).toBe(200);
    expect(ok.data).toMatchObject({
      id,
      code: 'emergency_stop',
      end: null,
      occurrences: 1,
      flapping: false,
      ack: { by: 'Mia Manager', comment: 'Crew on the way, ETA 20 min' },
    });
    expect(ok.data.ack.at).toBeGreaterThanOrEqual(before);
    // the set's current alarms say who is on it
    const after = await call(t.app, 'POST', '/alarm/current', { token: viewer, body: { token: set.token } });
    expect(after.data.list[0].ack).toEqual(ok.data.ack);

    // once: a second acknowledgement is refused, in the caller's language, naming who did
    const again = await call(t.app, 'POST', '/alarm/ack', {
      token: manager,
      lang: 'es-ES',
      body: { id, comment: 'Again' },
    });
    expect(again.code).toBe(409);
    expect(again.msg).toBe('Mia Manager ya confirmó esta alarma.');
    const kept = await db().selectFrom('alarm').select(['ack_comment']).where('id', '=', id).executeTakeFirst();
    expect(kept?.ack_comment).toBe('Crew on the way, ETA 20 min');

    // the set's operation log says who acknowledged what, in the reader's language
    const log = await call(t.app, 'POST', '/genset/info', {
      token: manager,
      lang: 'zh-CN',
      body: { token: set.token },
    });
    expect(log.data.operations.map((o: { matter: string }) => o.matter)).toContain(
      '确认了“Episode acknowledged”的报警“紧急停机”：Crew on the way, ETA 20 min',
    );
  });
});

describe('shelving an alarm', () => {
  const LOW_FUEL = { ...RUNNING, alarm_low_fuel_warning: 1, common_warning: 1 };

  it('tells no one while shelved, a new episode included; back when the time is up, told once if still active', async () => {
    const set = await newSet(t, { companyId, name: 'Episode shelved' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 10 * 60_000;
    await m.send(LOW_FUEL, t0);
    const [first] = await alarmsOf(set.id, 'low_fuel_warning');
    expect(await eventsOf(set.id)).toEqual(['alarm.raised']);

    // a span not offered, or no reason: refused in the caller's language, nothing changes
    for (const [body, message] of [
      [{ id: first!.id, minutes: 7, reason: 'Part on order' }, /^Длительность: /],
      [{ id: first!.id, minutes: 60, reason: '  ' }, /^Причина: /],
    ] as const) {
      const bad = await call(t.app, 'POST', '/alarm/shelve', { token: manager, lang: 'ru-RU', body });
      expect(bad.code).toBe(400);
      expect(bad.msg).toMatch(message);
    }
    const viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    const info = await call(t.app, 'POST', '/genset/info', { token: manager, body: { token: set.token } });
    expect(
      (await call(t.app, 'POST', '/sub/add', { token: viewer, body: { code: info.data.subscriptionCode } })).code,
    ).toBe(200);
    const shelf = { id: first!.id, minutes: 60, reason: 'Fuel delivery booked for 14:00' };
    expect((await call(t.app, 'POST', '/alarm/shelve', { token: viewer, body: shelf })).code).toBe(403);
    expect((await call(t.app, 'POST', '/alarm/shelve', { token: stranger, body: shelf })).code).toBe(404);
    const untouched = await db()
      .selectFrom('alarm')
      .select('shelved_until')
      .where('id', '=', first!.id)
      .executeTakeFirst();
    expect(untouched).toEqual({ shelved_until: null });

    const before = Date.now();
    const ok = await call(t.app, 'POST', '/alarm/shelve', { token: manager, body: shelf });
    expect(ok.code, ok.msg).toBe(200);
    expect(ok.data.shelf).toEqual({
      by: 'Mia Manager',
      at: expect.any(Number),
      until: expect.any(Number),
      reason: 'Fuel delivery booked for 14:00',
    });
    const until = ok.data.shelf.until as number;
    expect(until - ok.data.shelf.at).toBe(60 * 60_000);
    expect(ok.data.shelf.at).toBeGreaterThanOrEqual(before);
    // the viewer sees it shelved, and a second shelf is refused naming who shelved it
    const seen = await call(t.app, 'POST', '/alarm/current', { token: viewer, body: { token: set.token } });
    expect(seen.data.list[0].shelf).toEqual(ok.data.shelf);
    const again = await call(t.app, 'POST', '/alarm/shelve', { token: manager, lang: 'es-ES', body: shelf });
    expect(again.code).toBe(409);
    expect(again.msg).toBe('Mia Manager ya aparcó esta alarma.');

    // while shelved: it clears (its end is not told) and comes back after the hold time as a new episode, on the shelf
    // too, told to no one
    await m.send(RUNNING, t0 + 1000);
    await m.send(LOW_FUEL, t0 + 1000 + ALARM_HOLD_MS + 1);
    await m.close();
    const episodes = await db()
      .selectFrom('alarm')
      .select(['id', 'end_ts', 'shelved_until', 'shelve_reason'])
      .where('genset_id', '=', set.id)
      .orderBy('id')
      .execute();
    expect(episodes).toEqual([
      { id: first!.id, end_ts: t0 + 1000, shelved_until: until, shelve_reason: shelf.reason },
      { id: expect.any(Number), end_ts: null, shelved_until: until, shelve_reason: shelf.reason },
    ]);
    expect(await tellEndedEpisodes(db(), Date.now() + ALARM_HOLD_MS)).toBeGreaterThanOrEqual(0);
    expect(await eventsOf(set.id)).toEqual(['alarm.raised']);

    // the time is up: both come off the shelf, and the one still active is told again, once whichever round
    expect(await returnShelvedAlarms(db(), until - 1)).toBe(0);
    await returnShelvedAlarms(db(), until);
    await returnShelvedAlarms(db(), until + 1000);
    const back = await db().selectFrom('alarm').select(['shelved_until']).where('genset_id', '=', set.id).execute();
    expect(back).toEqual([{ shelved_until: null }, { shelved_until: null }]);
    expect(await eventsOf(set.id)).toEqual(['alarm.raised', 'alarm.raised']);
    const sent = await deliveriesOf(set.id);
    expect(sent['alarm.raised email']).toBe(2);
    expect(sent['alarm.raised sms']).toBe(2);

    // the operation log, in Chinese
    const log = await call(t.app, 'POST', '/genset/info', {
      token: manager,
      lang: 'zh-CN',
      body: { token: set.token },
    });
    const shelved = log.data.operations.find((o: { matter: string }) => o.matter.startsWith('搁置了'));
    expect(shelved.matter).toMatch(
      /^搁置了“Episode shelved”的报警“低燃油位警告”，至 .+：Fuel delivery booked for 14:00$/,
    );
  });

  it('is taken off the shelf by hand; an alarm that ended cannot be shelved', async () => {
    const set = await newSet(t, { companyId, name: 'Episode unshelved' });
    const m = await moduleFor(t, set);
    const t0 = Date.now() - 5 * 60_000;
    await m.send(
      { ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1, alarm_low_fuel_warning: 1, common_warning: 1 },
      t0,
    );
    await m.send({ ...RUNNING, alarm_emergency_stop: 1, common_shutdown: 1 }, t0 + 1000);
    await m.close();
    const [stop] = await alarmsOf(set.id, 'emergency_stop');
    const [fuel] = await alarmsOf(set.id, 'low_fuel_warning');
    expect(fuel!.end_ts).toBe(t0 + 1000);

    const ended = await call(t.app, 'POST', '/alarm/shelve', {
      token: manager,
      lang: 'zh-CN',
      body: { id: fuel!.id, minutes: 15, reason: 'Known' },
    });
    expect(ended.code).toBe(409);
    expect(ended.msg).toBe('该报警已结束：只有活动的报警才能搁置。');

    const shelved = await call(t.app, 'POST', '/alarm/shelve', {
      token: manager,
      body: { id: stop!.id, minutes: 4320, reason: 'Button stuck, part on order' },
    });
    expect(shelved.code, shelved.msg).toBe(200);
    expect(shelved.data.shelf.until - shelved.data.shelf.at).toBe(3 * 24 * 3_600_000);
    const off = await call(t.app, 'POST', '/alarm/unshelve', { token: manager, body: { id: stop!.id } });
    expect(off.code, off.msg).toBe(200);
    expect(off.data).toMatchObject({ id: stop!.id, end: null, shelf: null });
    const twice = await call(t.app, 'POST', '/alarm/unshelve', {
      token: manager,
      lang: 'tr-TR',
      body: { id: stop!.id },
    });
    expect(twice.code).toBe(409);
    expect(twice.msg).toBe('Bu alarm ertelenmiş değil.');
    // nothing left on a shelf to come back: the round tells nothing more
    await returnShelvedAlarms(db(), Date.now() + 4 * 24 * 3_600_000);
    expect(await eventsOf(set.id)).toEqual(['alarm.raised', 'alarm.raised']);
  });
});
