// Demo modules sign in to the broker with secrets made at random for the installation and kept in the
// database, not with secrets derived from the request-signing secret the console's bundle carries: a client
// using the derived secret is refused, the demo fleet still connects and reports, and a restart keeps them.
import { createHmac } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_SECRET } from '@genset/protocol';
import { DEMO_SETS } from '../src/modules/devices/demo-fleet.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { connectFakeModule } from './support/fake-module.ts';

let t: TestApp;

/** What a demo module's secret used to be: anyone with the console's bundle could work it out. */
const derived = (modemKey: string) =>
  createHmac('sha256', DEFAULT_SIGN_SECRET).update(`demo-module:${modemKey}`).digest('base64url').slice(0, 24);

const demoModems = () =>
  t.app.database.db
    .selectFrom('modem')
    .select(['modem_key', 'demo_secret', 'online', 'last_seq'])
    .where(
      'modem_key',
      'in',
      DEMO_SETS.map((d) => d.modemKey),
    )
    .orderBy('modem_key')
    .execute();

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether the embedded broker lets a client in with this name and password. */
function connects(modemKey: string, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${t.app.devices.transport.port}`, {
      clientId: `${modemKey}-probe`,
      username: modemKey,
      password,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    client.once('connect', () => {
      client.end(true);
      resolve(true);
    });
    client.once('error', () => {
      client.end(true);
      resolve(false);
    });
  });
}

beforeAll(async () => {
  t = await createTestApp({ DEMO_FLEET: '1', DEMO_BACKFILL_DAYS: '0', DEMO_STATION_BACKFILL_DAYS: '0' });
}, 180_000);
afterAll(async () => t?.close());

describe('demo module secrets', () => {
  it('are random, kept in the database; the derived secret is refused and the fleet reports', async () => {
    // every demo module but the one whose story is being offline
    const live = DEMO_SETS.filter((d) => d.scenario !== 'offline').map((d) => d.modemKey);
    await waitFor('every live demo module reporting', async () =>
      (await demoModems()).filter((m) => live.includes(m.modem_key)).every((m) => m.online === 1 && m.last_seq > 0),
    );
    const modems = await demoModems();
    expect(modems).toHaveLength(DEMO_SETS.length);
    for (const m of modems) {
      expect(m.demo_secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(m.demo_secret).not.toBe(derived(m.modem_key));
    }
    expect(new Set(modems.map((m) => m.demo_secret)).size).toBe(modems.length);
    const key = modems[0]!.modem_key;
    expect(await connects(key, derived(key))).toBe(false);
    await expect(
      connectFakeModule(`mqtt://127.0.0.1:${t.app.devices.transport.port}`, key, derived(key)),
    ).rejects.toThrow();
    // the kept secret is the one the broker takes
    expect(await connects(key, modems[0]!.demo_secret!)).toBe(true);
  }, 120_000);

  it('survive a restart; a demo module from before (no kept secret) is given a new one', async () => {
    const before = await demoModems();
    const old = before[1]!;
    await t.app.database.db
      .updateTable('modem')
      .set({ demo_secret: null })
      .where('modem_key', '=', old.modem_key)
      .execute();
    await t.restart();
    const after = await demoModems();
    expect(after.filter((m) => m.modem_key !== old.modem_key).map((m) => m.demo_secret)).toEqual(
      before.filter((m) => m.modem_key !== old.modem_key).map((m) => m.demo_secret),
    );
    const renewed = after.find((m) => m.modem_key === old.modem_key)!;
    expect(renewed.demo_secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(renewed.demo_secret).not.toBe(old.demo_secret);
    expect(await connects(old.modem_key, old.demo_secret!)).toBe(false);
    expect(await connects(old.modem_key, renewed.demo_secret!)).toBe(true);
  }, 180_000);
});
