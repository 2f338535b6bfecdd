// SIM cards against a real server: a module says hello with its ICCID and IMSI and sends events with its byte
// counters through the embedded broker; the usage lands on the days of the set's own calendar, a counter
// that went down is counted from 0, a resend or a late event counts nothing, and the month's and the last
// twelve months' figures follow. A card with a plan that passes its alarm share tells the set's people once,
// and once more when the plan is used up. Bad plans are refused in the caller's language with nothing changed;
// people who may not see the set see nothing of its card, and only managers set plans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_MB_BYTES } from '@genset/protocol';
import { call, createCompany, createTestApp, freshUser, login, signInManager, type TestApp } from './helpers.ts';
import { newSet } from './support/history-data.ts';
import { connectFakeModule, type FakeModule } from './support/fake-module.ts';
import { translate } from '../src/i18n/messages.ts';
import { monthOf, monthRange, monthsUpTo } from '../src/modules/iotcard/calendar.ts';

let t: TestApp;
let manager: string;
let managerId: number;
let companyId: number;
const modules: FakeModule[] = [];
let n = 0;

const api = (token: string, url: string, body: Record<string, unknown>, lang?: string) =>
  call(t.app, 'POST', url, { token, body, ...(lang ? { lang } : {}) });

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A set of the manager's with a module that said hello with a card. */
async function cardSet(timeZone = 'UTC') {
  const name = `SIM set ${n}`;
  const set = { ...(await newSet(t, { companyId, ownerUserId: managerId, name, timeZone })), name };
  const iccid = `8986${String(Date.now()).slice(-10)}${String(n++).padStart(6, '0')}`;
  const imsi = `46000${String(Date.now()).slice(-10)}`;
  const module = await connectFakeModule(`mqtt://127.0.0.1:${t.app.devices.transport.port}`, set.modemKey, set.secret);
  modules.push(module);
  await module.publish('hello', {
    model: 'GC-4G',
    firmware: '2.4.1',
    imei: '861234567890123',
    iccid,
    imsi,
    controllers: [{ port: 'port1', address: 1 }],
  });
  await until('the hello', async () => {
    const m = await t.app.database.db
      .selectFrom('modem')
      .select('iccid')
      .where('id', '=', set.modemId)
      .executeTakeFirst();
    return m?.iccid === iccid;
  });
  t.app.gensets.directory.invalidate();
  return { ...set, iccid, imsi, module };
}

const lastTs = async (iccid: string) =>
  (await t.app.database.db.selectFrom('sim_card').select('last_ts').where('iccid', '=', iccid).executeTakeFirst())
    ?.last_ts;

/** Sends the module's counters at `ts` and waits until that reading is the card's latest. */
async function counters(set: { module: FakeModule; iccid: string }, ts: number, rx: number, tx: number) {
  await set.module.publish('event', { ts, signal: { rssi: -71, csq: 21 }, sim: { rxBytes: rx, txBytes: tx } });
  await until(`the reading at ${new Date(ts).toISOString()}`, async () => Number(await lastTs(set.iccid)) === ts);
}

/** Sends an event that must change nothing (no wait: the next `counters` call orders after it). */
const resend = (set: { module: FakeModule }, ts: number, rx: number, tx: number) =>
  set.module.publish('event', { ts, sim: { rxBytes: rx, txBytes: tx } });

const info = async (token: string, body: Record<string, unknown>, lang?: string) => {
  const res = await api(token, '/iotcard/getinfo', body, lang);
  expect(res.code, res.msg).toBe(200);
  return res.data as {
    iccid: string | null;
    imsi: string | null;
    plan: { sizeMb: number; startDay: number; alarmShare: number } | null;
    month: string;
    from: string;
    to: string;
    usedBytes: number;
    usedMb: number;
    leftMb: number | null;
    share: number | null;
    lastReportAt: number | null;
    signal: { rssi: number; csq: number | null } | null;
    days: { day: string; rxBytes: number; txBytes: number }[];
    months: { month: string; bytes: number }[];
    canEdit: boolean;
  };
};

beforeAll(async () => {
  t = await createTestApp();
  ({ token: manager, id: managerId, companyId } = await signInManager(t));
});
afterAll(async () => {
  for (const m of modules) await m.close();
  await t.close();
});

describe('billing months', () => {
  it('run from the start day to the day before it in the next month', () => {
    expect(monthOf('2026-03-14', 15)).toBe('2026-02');
    expect(monthOf('2026-03-15', 15)).toBe('2026-03');
    expect(monthOf('2026-01-03', 1)).toBe('2026-01');
    expect(monthRange('2026-12', 15)).toEqual({ from: '2026-12-15', to: '2027-01-14' });
    expect(monthRange('2028-02', 1)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthsUpTo('2026-02', 3)).toEqual(['2025-12', '2026-01', '2026-02']);
  });
});

describe('usage from the module’s counters', () => {
  it('counts days in the set’s time zone, a reset from 0, a resend once, and months', async () => {
    const set = await cardSet('Asia/Shanghai');
    const at = (local: string) => Date.parse(`${local}+08:00`);
    // the first reading is where counting starts
    await counters(set, at('2026-03-30T10:00:00'), 1_000, 500);
    await counters(set, at('2026-03-30T20:00:00'), 1_001_000, 200_500);
    // 01:00 in Shanghai is still the 30th in UTC: the set's calendar counts
    await counters(set, at('2026-03-31T01:00:00'), 1_501_000, 300_500);
    // the module started counting again: its new values count from 0
    await counters(set, at('2026-03-31T09:00:00'), 4_000, 1_000);
    await counters(set, at('2026-03-31T10:00:00'), 6_000, 1_500);
    // a resend of an earlier event and of the latest one count nothing
    await resend(set, at('2026-03-30T20:00:00'), 1_001_000, 200_500);
    await resend(set, at('2026-03-31T10:00:00'), 6_000, 1_500);
    await counters(set, at('2026-03-31T11:00:00'), 6_000, 1_500);

    const march = await info(manager, { token: set.token, month: '2026-03' });
    expect(march.iccid).toBe(set.iccid);
    expect(march.imsi).toBe(set.imsi);
    expect(march.plan).toBeNull();
    expect([march.from, march.to]).toEqual(['2026-03-01', '2026-03-31']);
    expect(march.days).toHaveLength(31);
    expect(march.days[29]).toEqual({ day: '2026-03-30', rxBytes: 1_000_000, txBytes: 200_000 });
    expect(march.days[30]).toEqual({ day: '2026-03-31', rxBytes: 506_000, txBytes: 101_500 });
    expect(march.days.slice(0, 29).every((d) => d.rxBytes + d.txBytes === 0)).toBe(true);
    expect(march.usedBytes).toBe(1_807_500);
    expect(march.usedMb).toBe(1.72);
    expect(march.lastReportAt).toBe(at('2026-03-31T11:00:00'));
    expect(march.signal).toEqual({ rssi: -71, csq: 21 });
    expect(march.canEdit).toBe(true);

    // the next month, by the card's number
    await counters(set, at('2026-04-01T08:00:00'), 106_000, 1_500);
    const april = await info(manager, { iccid: set.iccid, month: '2026-04' });
    expect(april.days[0]).toEqual({ day: '2026-04-01', rxBytes: 100_000, txBytes: 0 });
    expect(april.usedBytes).toBe(100_000);
    expect(april.months).toHaveLength(12);
    expect(april.months.slice(-2)).toEqual([
      { month: '2026-03', bytes: 1_807_500 },
      { month: '2026-04', bytes: 100_000 },
    ]);
    expect(april.months[0]!.month).toBe('2025-05');
  });
});

describe('the plan and its alarm', () => {
  it('tells the set’s people once when the card passes its share, and once more when the plan is used up', async () => {
    const set = await cardSet();
    const saved = await api(manager, '/iotcard/setPlan', { token: set.token, sizeMb: 1, alarmShare: 50 }, 'es-ES');
    expect(saved.code, saved.msg).toBe(200);
    expect(saved.msg).toBe('Plan de la tarjeta SIM guardado.');
    expect(saved.data).toEqual({ iccid: set.iccid, sizeMb: 1, startDay: 1, alarmShare: 50 });

    const now = Date.now();
    const events = async () =>
      t.app.database.db
        .selectFrom('notification_event')
        .select(['id', 'dedupe_key'])
        .where('kind', '=', 'sim.usage')
        .where('dedupe_key', 'like', `sim:${set.iccid}:%`)
        .execute();
    await counters(set, now - 60_000, 0, 0);
    await counters(set, now - 50_000, 400_000, 0);
    expect(await events()).toHaveLength(0);
    // past half of 1 MB: one notice, however many readings follow
    await counters(set, now - 40_000, 600_000, 0);
    await counters(set, now - 30_000, 700_000, 10_000);
    await counters(set, now - 20_000, 800_000, 10_000);
    expect(await events()).toHaveLength(1);

    await t.app.notifications.engine.runOnce();
    const mine = await t.app.database.db
      .selectFrom('notification')
      .select(['kind', 'level'])
      .where('user_id', '=', managerId)
      .where(
        'event_id',
        'in',
        (await events()).map((e) => e.id),
      )
      .execute();
    expect(mine).toEqual([{ kind: 'sim.usage', level: 'warning' }]);
    const centre = await api(manager, '/notice/list', { size: 50 }, 'en-US');
    expect(centre.code).toBe(200);
    const notice = (centre.data.list as { title: string; text: string; link: string | null }[]).find((i) =>
      i.text.includes(set.iccid),
    );
    expect(notice?.title).toBe(`${set.name}: 50 % of the SIM data plan used`);
    expect(notice?.text).toBe(`The SIM card ${set.iccid} of ${set.name} has used 0.6 MB of its 1 MB plan this month.`);
    expect(notice?.link).toBe(`/crewmanage/detail/${set.token}`);

    // the whole plan: once more
    await counters(set, now - 10_000, 1_100_000, 10_000);
    await counters(set, now - 5_000, 1_200_000, 10_000);
    expect((await events()).map((e) => e.dedupe_key).sort()).toEqual(
      [50, 100].map((p) => `sim:${set.iccid}:${monthOf(new Date(now).toISOString().slice(0, 10), 1)}:${p}`).sort(),
    );

    const card = await info(manager, { token: set.token });
    expect(card.plan).toEqual({ sizeMb: 1, startDay: 1, alarmShare: 50 });
    expect(card.usedBytes).toBe(1_210_000);
    expect(card.leftMb).toBe(0);
    expect(card.share).toBeCloseTo(1_210_000 / SIM_MB_BYTES, 3);
  });

  it('refuses bad plans in the caller’s language and changes nothing', async () => {
    const set = await cardSet();
    expect((await api(manager, '/iotcard/setPlan', { token: set.token, sizeMb: 500 })).code).toBe(200);
    const plan = () =>
      t.app.database.db
        .selectFrom('sim_card')
        .select(['plan_mb', 'start_day', 'alarm_share'])
        .where('iccid', '=', set.iccid)
        .executeTakeFirstOrThrow();
    const before = await plan();
    expect(before).toMatchObject({ start_day: 1, alarm_share: 80 });
    expect(Number(before.plan_mb)).toBe(500);

    const cases: [Record<string, unknown>, string, string][] = [
      [{ sizeMb: 0 }, 'ru-RU', 'fields.simPlanSize'],
      [{ sizeMb: -5 }, 'en-US', 'fields.simPlanSize'],
      [{ sizeMb: 20_000_000 }, 'tr-TR', 'fields.simPlanSize'],
      [{ sizeMb: 100, alarmShare: 120 }, 'zh-CN', 'fields.simAlarmShare'],
      [{ sizeMb: 100, alarmShare: 0 }, 'zh-TW', 'fields.simAlarmShare'],
      [{ sizeMb: 100, startDay: 31 }, 'es-ES', 'fields.simStartDay'],
      [{ sizeMb: 100, startDay: 1.5 }, 'en-US', 'fields.simStartDay'],
    ];
    for (const [body, lang, field] of cases) {
      const res = await api(manager, '/iotcard/setPlan', { token: set.token, ...body }, lang);
      expect(res.code, JSON.stringify(body)).toBe(400);
      expect(res.msg.startsWith(translate(lang as 'en-US', field)), `${res.msg} in ${lang}`).toBe(true);
    }
    expect(await plan()).toEqual(before);

    const noQuery = await api(manager, '/iotcard/getinfo', {}, 'en-US');
    expect(noQuery.code).toBe(400);
    expect((await api(manager, '/iotcard/getinfo', { token: set.token, month: '2026-13' })).code).toBe(400);
    expect((await api(manager, '/iotcard/getinfo', { iccid: 'not-a-card' })).code).toBe(400);

    // a set whose module reported no card: nothing to plan for
    const bare = await newSet(t, { companyId, ownerUserId: managerId, name: `Bare SIM set ${n++}` });
    t.app.gensets.directory.invalidate();
    const none = await api(manager, '/iotcard/setPlan', { token: bare.token, sizeMb: 10 }, 'en-US');
    expect(none.code).toBe(409);
    expect(none.msg).toBe('The module of this set has not reported a SIM card yet.');
    const empty = await info(manager, { token: bare.token });
    expect(empty.iccid).toBeNull();
    expect(empty.usedBytes).toBe(0);
  });
});

describe('who sees a card', () => {
  it('refuses another company’s card, and a plan to someone who only views the set', async () => {
    const set = await cardSet();
    await counters(set, Date.now() - 10_000, 1_000, 1_000);
    const other = await createCompany(t, `SIM strangers ${n++}`);
    const stranger = await freshUser(t, { companyId: other });
    const strangerToken = await login(t.app, stranger.account, stranger.password);
    for (const body of [{ token: set.token }, { iccid: set.iccid }]) {
      const res = await api(strangerToken, '/iotcard/getinfo', body, 'en-US');
      expect(res.code).toBe(404);
    }
    const refused = await api(strangerToken, '/iotcard/setPlan', { token: set.token, sizeMb: 1 });
    expect(refused.code).toBe(404);

    // subscribed with view rights: sees the card, may not set its plan
    await t.app.devices.fleet.subscribe(set.id, stranger.id, 'view');
    t.app.gensets.directory.invalidate();
    const seen = await info(strangerToken, { iccid: set.iccid });
    expect(seen.iccid).toBe(set.iccid);
    expect(seen.canEdit).toBe(false);
    const viewOnly = await api(strangerToken, '/iotcard/setPlan', { token: set.token, sizeMb: 1 }, 'zh-CN');
    expect(viewOnly.code).toBe(403);
    expect(viewOnly.msg).toBe('只有管理该机组的用户才能修改其物联网卡套餐。');
    const stored = await t.app.database.db
      .selectFrom('sim_card')
      .select('plan_mb')
      .where('iccid', '=', set.iccid)
      .executeTakeFirstOrThrow();
    expect(stored.plan_mb).toBeNull();
  });
});
