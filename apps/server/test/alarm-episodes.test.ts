// Alarm episodes, through a module on the real broker and the real ingestion: the same alarm sent twice 10 ms
// apart, and an alarm bit chattering 20 times in a minute, are each one alarm (one episode) and one notice per
// channel; the chattering one is flapping and counts its occurrences; its end is told once, after the hold time;
// one that comes back later is a new episode. An alarm is acknowledged with a comment by someone who may command
// its set, once; a viewer may not, nor a stranger, and a bad comment changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login } from './helpers.ts';
import { moduleFor, newSet, RUNNING, serverWithStranger } from './support/history-data.ts';
import type { TestApp } from './helpers.ts';
import { ALARM_HOLD_MS, FLAP_CYCLES, tellEndedEpisodes } from '../src/modules/devices/ingest/episodes.ts';

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
  });
});
