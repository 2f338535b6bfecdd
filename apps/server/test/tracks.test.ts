// Where a set is and has been, through real ingestion of its module's events: fixes stored at a bounded rate
// and on movement; leaving the fence raises one alarm and one notice, GPS wander at the edge none, coming back
// clears it, and the controller's snapshots leave it alone; the demo trailer on its road leaves its fence once
// a lap, one alarm and one notice each time; the track of a range, simplified for the zoom; a fence drawn as a
// circle or a polygon, and bad fences and ranges refused in the caller's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FENCE_ALARM_CODE } from '@genset/protocol';
import { GensetModel } from '@genset/simulator';
import { call, createTestApp, freshUser, login, type TestApp } from './helpers.ts';
import { moduleFor, newSet, RUNNING } from './support/history-data.ts';
import { DEMO_SETS, demoDetails, TRAILER_KMH, TRAILER_PATH } from '../src/modules/devices/demo-fleet.ts';
import { metresBetween } from '../src/modules/tracks/geo.ts';
import { TRAILER_HOLD_MIN, TrailerDuty } from '../src/modules/devices/demo-trailer.ts';

let t: TestApp;
let manager: string;
let managerId: number;
let companyId: number;

/** Metres per degree of latitude on Turf's sphere. */
const M_PER_DEG = 111_194.93;
const CENTRE = { lat: 41.0, lon: 29.0 };
/** A point `m` metres north of the centre. */
const north = (m: number) => ({ lat: CENTRE.lat + m / M_PER_DEG, lon: CENTRE.lon });

async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A set of the manager's with its module connected, its fence a 1 km circle around CENTRE. */
async function trackedSet(name: string) {
  const set = await newSet(t, {
    companyId,
    ownerUserId: managerId,
    name,
    details: { latitude: CENTRE.lat, longitude: CENTRE.lon, fenceRadiusM: 1000 },
  });
  const m = await moduleFor(t, set);
  await m.send(RUNNING, Date.now() - 60_000);
  let ts = Date.now() - 50_000;
  return {
    ...set,
    m,
    /** The module reports a fix (each a second after the one before unless `at` is given); resolves once held. */
    async fix(p: { lat: number; lon: number }, at?: number) {
      ts = at ?? ts + 1000;
      const sent = ts;
      await m.module.publish('event', { ts: sent, gps: { ...p, speed: 30 } });
      const row = await until(
        () =>
          t.app.database.db.selectFrom('set_position').select('ts').where('genset_id', '=', set.id).executeTakeFirst(),
        (r) => r !== undefined && Number(r.ts) >= sent,
      );
      expect(Number(row?.ts), 'fix held').toBeGreaterThanOrEqual(sent);
    },
    at: () => ts,
  };
}

const fenceAlarms = (gensetId: number) =>
  t.app.database.db
    .selectFrom('alarm')
    .selectAll()
    .where('genset_id', '=', gensetId)
    .where('code', '=', FENCE_ALARM_CODE)
    .execute();

const stored = (gensetId: number) =>
  t.app.database.db.selectFrom('position').selectAll().where('genset_id', '=', gensetId).orderBy('ts').execute();

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const info = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info;
  managerId = info.userId ?? info.id;
  companyId = info.companyId;
});
afterAll(async () => t.close());

describe('the fence', () => {
  it('raises one alarm and one notice when the set leaves, none for wander at the edge, and clears on return', async () => {
    const set = await trackedSet('Trailer fence');
    await set.fix(north(0));
    await set.fix(north(500));
    // GPS wander around the edge (1 km): 30 m either side changes nothing
    for (const m of [990, 1010, 985, 1015, 995, 1020]) await set.fix(north(m));
    expect(await fenceAlarms(set.id)).toHaveLength(0);

    await set.fix(north(1200));
    await set.fix(north(1300));
    await set.fix(north(1010)); // back in the band: still out
    const open = await fenceAlarms(set.id);
    expect(open).toHaveLength(1);
    expect(open[0]!.end_ts).toBeNull();
    expect(JSON.parse(open[0]!.title)['zh-CN']).toBe('驶出电子围栏');

    // the controller's next snapshot, which knows nothing of fences, leaves the alarm open
    await set.m.send(RUNNING, set.at() + 1);
    expect((await fenceAlarms(set.id))[0]!.end_ts).toBeNull();
    const info = await call(t.app, 'POST', '/devicedata/getstatus', { token: manager, body: { token: set.token } });
    expect(info.data.alarmnum).toBe(1);

    // one notice reaches the owner's message centre (and no more once the sender has had another round)
    await until(
      () => call(t.app, 'POST', '/notice/list', { token: manager, body: { page: 1, size: 50 } }),
      (r) => r.data?.list?.some((n: { token: string }) => n.token === set.token),
    );
    await t.app.notifications.engine.runOnce();
    const list = await call(t.app, 'POST', '/notice/list', { token: manager, body: { page: 1, size: 50 } });
    const mine = list.data.list.filter((n: { token: string; kind: string }) => n.token === set.token);
    expect(mine.map((n: { kind: string }) => n.kind)).toEqual(['alarm.raised']);
    expect(mine[0].title + mine[0].text).toContain('Left its electronic fence');

    await set.fix(north(900));
    const closed = await fenceAlarms(set.id);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.end_ts).not.toBeNull();
    await set.m.close();
  });

  it('draws a polygon, refuses bad fences in the caller’s language and changes nothing then', async () => {
    const set = await trackedSet('Polygon fence');
    const save = (fence: unknown, lang = 'en-US') =>
      call(t.app, 'POST', '/genset/updateFence', { token: manager, lang, body: { token: set.token, fence } });
    const fenceNow = async () =>
      (await call(t.app, 'POST', '/genset/fence', { token: manager, body: { token: set.token } })).data;

    expect((await fenceNow()).fence).toEqual({ type: 'circle', center: CENTRE, radiusM: 1000 });

    const zero = await save({ type: 'circle', center: CENTRE, radiusM: 0 }, 'zh-CN');
    expect(zero.code).toBe(400);
    expect(zero.msg).toContain('半径须在 1 米到 1000 千米之间');
    const huge = await save({ type: 'circle', center: CENTRE, radiusM: 1_000_001 }, 'es-ES');
    expect(huge.msg).toContain('el radio debe estar entre 1 m y 1000 km');
    // a bow tie: its edges cross
    const bowTie = [
      north(0),
      { lat: CENTRE.lat + 0.01, lon: CENTRE.lon + 0.01 },
      north(1112),
      { lat: CENTRE.lat, lon: CENTRE.lon + 0.01 },
    ];
    const crossing = await save({ type: 'polygon', points: bowTie }, 'ru-RU');
    expect(crossing.code).toBe(400);
    expect(crossing.msg).toContain('стороны многоугольника пересекаются');
    const two = await save({ type: 'polygon', points: [north(0), north(100)] });
    expect(two.msg).toContain('at least 3 corners');
    expect((await fenceNow()).fence).toEqual({ type: 'circle', center: CENTRE, radiusM: 1000 });

    // a square of about 2 km around the centre
    const d = 0.009;
    const square = [
      { lat: CENTRE.lat - d, lon: CENTRE.lon - d },
      { lat: CENTRE.lat - d, lon: CENTRE.lon + d },
      { lat: CENTRE.lat + d, lon: CENTRE.lon + d },
      { lat: CENTRE.lat + d, lon: CENTRE.lon - d },
    ];
    const ok = await save({ type: 'polygon', points: square });
    expect(ok.code).toBe(200);
    expect(ok.msg).toBe('Fence saved.');
    const now = await fenceNow();
    expect(now.fence).toEqual({ type: 'polygon', points: square });
    expect(now.canManage).toBe(true);

    // the set leaves the square to the north (about 1 km from the centre), then comes back
    await set.fix(north(0));
    expect((await fenceNow()).state).toBe('inside');
    await set.fix(north(1200));
    expect((await fenceNow()).state).toBe('outside');
    expect(await fenceAlarms(set.id)).toHaveLength(1);
    await set.fix(north(800));
    expect((await fenceAlarms(set.id))[0]!.end_ts).not.toBeNull();

    // removing the fence: no state, no radius
    expect((await save(null)).code).toBe(200);
    expect((await fenceNow()).fence).toBeNull();
    const log = await t.app.database.db
      .selectFrom('operation_log')
      .select('matter')
      .where('target', '=', set.token)
      .execute();
    expect(log.map((l) => l.matter)).toEqual(['log.fenceDrawn', 'log.fenceRemoved']);

    // someone who only views the set may read the fence but not draw it
    const viewer = await freshUser(t, { companyId });
    await t.app.database.db
      .insertInto('subscription')
      .values({ genset_id: set.id, user_id: viewer.id, rights: 'view', created_at: Date.now() })
      .execute();
    const viewerToken = await login(t.app, viewer.account, viewer.password);
    const refused = await call(t.app, 'POST', '/genset/updateFence', {
      token: viewerToken,
      body: { token: set.token, fence: { type: 'circle', center: CENTRE, radiusM: 500 } },
    });
    expect(refused.code).toBe(403);
    expect((await fenceNow()).fence).toBeNull();
    await set.m.close();
  });
});

describe('the demo trailer', () => {
  it('works parked, drives only with its engine stopped at road speed, and leaves its fence once a trip', async () => {
    const index = DEMO_SETS.findIndex((d) => d.scenario === 'trailer');
    const demo = DEMO_SETS[index]!;
    // the demo's set: its yard and its 3 km fence around it
    const set = await newSet(t, {
      companyId,
      ownerUserId: managerId,
      name: 'Demo trailer road',
      details: demoDetails(demo, index),
    });
    const m = await moduleFor(t, set);
    // the demo's simulated trailer at its yard, off the mains, on its duty
    const model = new GensetModel({
      position: TRAILER_PATH[0],
      mode: 'auto',
      settings: { rated_kw: demo.ratedKw },
      loadKw: demo.ratedKw * 0.6,
    });
    model.cutMains();
    const duty = new TrailerDuty(model);
    const STEP = 5000;
    // two round trips (yard → far site → yard, twice), stepped first so the fixes can be dated in the past
    const steps: { lat: number; lon: number; kw: number; rpm: number; moving: boolean }[] = [];
    let trips = 0;
    let wasAtYard = true;
    while (trips < 4 && steps.length < 20_000) {
      const before = { ...model.position };
      model.advance(STEP);
      duty.step(STEP);
      const v = model.values();
      const moving = metresBetween(before, model.position) > 0.01;
      steps.push({ ...model.position, kw: v.gen_kw ?? 0, rpm: v.engine_rpm ?? 0, moving });
      if (duty.state.atYard !== wasAtYard) trips++;
      wasAtYard = duty.state.atYard;
    }
    expect(trips).toBe(4);
    let generatedAtYard = false;
    let generatedAway = false;
    for (const [i, s] of steps.entries()) {
      if (s.moving) {
        // on the road: engine off, nothing generated, at most road speed
        expect(s.kw, `kW while moving at step ${i}`).toBe(0);
        expect(s.rpm, `rpm while moving at step ${i}`).toBeLessThan(1);
        const km = metresBetween(steps[i - 1]!, s) / 1000;
        expect(km / (STEP / 3_600_000)).toBeLessThanOrEqual(TRAILER_KMH * 1.01);
      }
      if (s.kw > 0) {
        if (metresBetween(s, TRAILER_PATH[0]!) < 1) generatedAtYard = true;
        else if (metresBetween(s, TRAILER_PATH.at(-1)!) < 1) generatedAway = true;
        else throw new Error(`generating away from both ends at step ${i}`);
      }
    }
    expect(generatedAtYard && generatedAway).toBe(true);

    const start = Math.round(Date.now() - steps.length * STEP - 120_000);
    await m.send(RUNNING, start - 1000);
    // the module reports a fix every 10 s while it moves (and once a minute while parked)
    for (const [i, s] of steps.entries()) {
      if (i % (s.moving ? 2 : 12) !== 0) continue;
      const ts = start + i * STEP;
      await m.module.publish('event', { ts, gps: { lat: s.lat, lon: s.lon, speed: s.moving ? TRAILER_KMH : 0 } });
      const held = await until(
        () =>
          t.app.database.db.selectFrom('set_position').select('ts').where('genset_id', '=', set.id).executeTakeFirst(),
        (r) => r !== undefined && Number(r.ts) >= ts,
      );
      expect(Number(held?.ts), 'fix held').toBe(ts);
    }
    const alarms = await fenceAlarms(set.id);
    expect(alarms).toHaveLength(2);
    expect(alarms.every((a) => a.end_ts !== null)).toBe(true);

    await t.app.notifications.engine.runOnce();
    const list = await call(t.app, 'POST', '/notice/list', { token: manager, body: { page: 1, size: 50 } });
    const raised = list.data.list.filter(
      (n: { token: string; kind: string }) => n.token === set.token && n.kind === 'alarm.raised',
    );
    expect(raised).toHaveLength(2);
    await m.close();
  });
});

describe('the demo trailer taken over on site', () => {
  it('parks where it is when its mode is switched, runs only parked, and goes on after the hold', () => {
    const model = new GensetModel({ position: TRAILER_PATH[0], mode: 'auto', settings: { rated_kw: 150 }, loadKw: 90 });
    model.cutMains();
    const duty = new TrailerDuty(model);
    const STEP = 5000;
    const step = () => {
      const before = { ...model.position };
      model.advance(STEP);
      duty.step(STEP);
      const v = model.values();
      return { moved: metresBetween(before, model.position) > 0.01, kw: v.gen_kw ?? 0 };
    };
    // it begins on the road; a minute out, a technician switches it to TEST
    for (let i = 0; i < 12; i++) expect(step().kw).toBe(0);
    expect(duty.state.phase).toBe('driving');
    model.setMode('test');
    // the duty sees the switch at its next step, and parks there
    step();
    expect(duty.state.phase).toBe('held');
    const parkedAt = { ...model.position };
    let ranParked = false;
    for (let i = 0; i < (TRAILER_HOLD_MIN * 60_000) / STEP; i++) {
      const s = step();
      expect(s.moved, `moved while held at step ${i}`).toBe(false);
      if (s.kw > 0) ranParked = true;
    }
    expect(ranParked).toBe(true);
    expect(metresBetween(parkedAt, model.position)).toBeLessThan(0.01);
    // then it stops, and drives on to the far site, never generating on the road
    let arrived = false;
    for (let i = 0; i < 2000 && !arrived; i++) {
      const s = step();
      if (s.moved) expect(s.kw).toBe(0);
      arrived = !duty.state.atYard;
    }
    expect(arrived).toBe(true);
    expect(metresBetween(model.position, TRAILER_PATH.at(-1)!)).toBeLessThan(1);
  });
});

describe('the track', () => {
  it('stores fixes on movement at a bounded rate, and returns a range simplified for the zoom', async () => {
    const set = await trackedSet('Track');
    const t0 = Date.now() - 40_000;
    await set.fix(north(0), t0);
    await set.fix(north(3), t0 + 1000); // standing: not stored
    await set.fix(north(100), t0 + 2000); // moved, but too soon after the last stored fix
    await set.fix(north(200), t0 + 6000); // moved, 6 s on: stored
    await set.fix(north(150), t0 + 5500); // older than the latest (a resend): nothing
    expect((await stored(set.id)).map((p) => Number(p.ts))).toEqual([t0, t0 + 6000]);

    // a straight road north with a bend at its end, a fix every 6 s
    for (let i = 1; i <= 20; i++) await set.fix(north(200 + i * 100), t0 + 6000 + i * 6000);
    await set.fix({ lat: north(2200).lat, lon: CENTRE.lon + 0.02 }, t0 + 132_000);
    const all = await stored(set.id);
    expect(all).toHaveLength(23);

    const range = { token: set.token, start: t0 - 1000, end: t0 + 200_000 };
    const full = await call(t.app, 'POST', '/genset/guiji', { token: manager, body: range });
    expect(full.code).toBe(200);
    expect(full.data.stored).toBe(23);
    expect(full.data.points).toHaveLength(23);
    expect(full.data.points.map((p: number[]) => p[0])).toEqual(all.map((p) => Number(p.ts)));
    expect(full.data.distanceM).toBeGreaterThan(2000);
    // at zoom 12 (about 40 m a pixel) the straight road is its two ends and the bend
    const coarse = await call(t.app, 'POST', '/genset/guiji', { token: manager, body: { ...range, zoom: 12 } });
    expect(coarse.data.points.length).toBeLessThanOrEqual(4);
    expect(coarse.data.points[0][0]).toBe(t0);
    expect(coarse.data.points.at(-1)[0]).toBe(t0 + 132_000);

    const long = await call(t.app, 'POST', '/genset/guiji', {
      token: manager,
      lang: 'tr-TR',
      body: { token: set.token, start: 0, end: 32 * 86_400_000 },
    });
    expect(long.code).toBe(400);
    expect(long.msg).toContain('en fazla 31 günü kapsar');
    const backwards = await call(t.app, 'POST', '/genset/guiji', {
      token: manager,
      body: { token: set.token, start: t0, end: t0 - 1 },
    });
    expect(backwards.msg).toContain('the end must come after the start');

    // another company's user does not learn the set exists
    const stranger = await freshUser(t, { companyId: 2 });
    const strangerToken = await login(t.app, stranger.account, stranger.password);
    const hidden = await call(t.app, 'POST', '/genset/guiji', { token: strangerToken, body: range });
    expect(hidden.code).toBe(404);
    await set.m.close();
  });
});
