// A parallel group through the real device path: two simulated controllers on one bus (Modbus TCP servers),
// their cloud modules (the gateway), the embedded broker, the server and a WebSocket client watching the
// group. Starting the group as the console does (one group command, which the server sends to both sets at once)
// brings both sets onto the bus.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParallelBus, startGensetSimulator, type RunningGensetSimulator } from '@genset/simulator';
import { startGateway, silentLogger } from '@genset/gateway';
import { layoutG, layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { connectWs } from './support/ws-client.ts';

let t: TestApp;
let baseUrl: string;
let manager: string;
let companyId: number;
const cleanup: (() => Promise<void>)[] = [];

interface Member {
  sim: RunningGensetSimulator;
  token: string;
  gensetId: number;
}

async function startMember(layout: 'S' | 'G', bus: ParallelBus, seed: number): Promise<Member> {
  const sim = await startGensetSimulator({
    layout,
    port: 0,
    host: '127.0.0.1',
    unitId: 1,
    seed,
    timeScale: 10,
    realtime: true,
    mode: 'manual',
    settings: { rated_kw: 300 },
  });
  sim.cutMains();
  sim.joinBus(bus);
  const modemKey = `GRP${Date.now()}${seed}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name: `Bus set ${layout}`,
    modemId: modem.id,
    protocolKey: layout === 'S' ? layoutS.key : layoutG.key,
    details: { ratedPowerKw: 300 },
  });
  t.app.devices.ingest.invalidate();
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
  const gateway = await startGateway(
    {
      modemId: modemKey,
      secret: modem.secret,
      brokerUrl: `mqtt://127.0.0.1:${t.app.devices.transport.port}`,
      dataDir,
      ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port, controllers: [{ address: 1 }] }],
    },
    { logger: silentLogger },
  );
  cleanup.push(async () => {
    await gateway.close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { sim, token: set.token, gensetId: set.id };
}

beforeAll(async () => {
  t = await createTestApp({ ONLINE_RATE_MS: '250', OFFLINE_RATE_MS: '5000', COMMAND_TIMEOUT_MS: '5000' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
});
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await t.close();
});

/** How far apart two loads are, as a fraction of the larger. */
const apart = (a: number, b: number) => Math.abs(a - b) / Math.max(a, b);

describe('a parallel group through the pipeline', () => {
  it('a group start brings both sets onto the bus sharing its load within 5 %; a stop opens that set’s breaker', async () => {
    const bus = new ParallelBus({ loadKw: 420 });
    const a = await startMember('S', bus, 41);
    const b = await startMember('G', bus, 42);
    const saved = await call(t.app, 'POST', '/genset/savedevxml', {
      token: manager,
      body: { name: 'Pipeline bus', kind: 'parallel', members: [a.token, b.token] },
    });
    expect(saved.code, saved.msg).toBe(200);
    const group = saved.data.token as string;

    // The group page watches the group: both modules go to the online rate, their pushes come in.
    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat('', [a.token, b.token], group);
    for (const member of [a, b]) {
      await expect.poll(() => t.app.devices.planner.watching(member.gensetId)).toBe(true);
      await ws.waitFor((m) => m.method === 'monitor' && m.token === member.token && m.data.status === 2, 15_000);
    }
    const dead = await call(t.app, 'POST', '/genset/getZuItem', { token: manager, body: { token: group } });
    expect(dead.data.bus).toMatchObject({ live: false, kw: 0, onLoad: 0, members: 2 });

    // What the console's group start does: one call; the server sends both sets of the parallel group the start
    // at once and records each outcome.
    const started = await call(t.app, 'POST', '/genset/groupCommand', {
      token: manager,
      body: { token: group, action: 'start', password: 'Demo#2026' },
    });
    expect(started.code, started.msg).toBe(200);
    expect(started.data.kind).toBe('parallel');
    await expect
      .poll(
        async () =>
          (await call(t.app, 'POST', '/genset/groupCommandJob', { token: manager, body: { token: group } })).data,
        { timeout: 30_000, interval: 250 },
      )
      .toMatchObject({
        state: 'done',
        sets: [
          { token: a.token, state: 'ok' },
          { token: b.token, state: 'ok' },
        ],
      });

    // One set closes onto the dead bus, the other synchronises and follows; the browser sees both on it.
    for (const member of [a, b]) {
      await ws.waitFor(
        (m) => m.method === 'monitor' && m.token === member.token && m.data.values.gen_on_load === 1,
        90_000,
      );
    }
    // the load settles between the two
    await expect
      .poll(
        async () => {
          const item = await call(t.app, 'POST', '/genset/getZuItem', { token: manager, body: { token: group } });
          const [kwA, kwB] = item.data.members.map((m: any) => m.values.gen_kw as number);
          return item.data.bus.onLoad === 2 && apart(kwA!, kwB!) < 0.05 && item.data.bus.kw > 400;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    const item = await call(t.app, 'POST', '/genset/getZuItem', { token: manager, body: { token: group } });
    const [kwA, kwB] = item.data.members.map((m: any) => m.values.gen_kw as number);
    expect(apart(kwA!, kwB!)).toBeLessThan(0.05);
    expect(item.data.bus).toMatchObject({ live: true, onLoad: 2, members: 2 });
    expect(item.data.bus.kw).toBeGreaterThan(400);
    expect(item.data.bus.kw).toBeLessThan(440);
    expect(item.data.bus.frequency).toBeGreaterThan(49.5);
    expect(item.data.bus.frequency).toBeLessThan(50.5);
    expect(item.data.bus.voltage).toBeGreaterThan(200);
    for (const member of item.data.members) {
      expect(member.values.gen_on_load).toBe(1);
      expect(member.values.load_share).toBeGreaterThan(45);
      expect(member.values.load_share).toBeLessThan(55);
    }
    // the multi-set status of the group agrees
    const multi = await call(t.app, 'POST', '/devicedata/getmutilstatus', { token: manager, body: { group } });
    expect(multi.data.list.map((s: any) => s.token)).toEqual([a.token, b.token]);

    // A stop opens that set's breaker; the other carries what it can of the bus load.
    const mark = ws.messages.length;
    const stop = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: b.token, action: 'stop', password: 'Demo#2026' },
    });
    expect(stop.code, stop.msg).toBe(200);
    await ws.waitFor(
      (m) => m.method === 'monitor' && m.token === b.token && m.data.values.gen_on_load === 0,
      30_000,
      mark,
    );
    await ws.waitFor(
      (m) => m.method === 'monitor' && m.token === a.token && m.data.values.gen_kw > 290 && m.data.values.bus_kw > 290,
      30_000,
      mark,
    );
    ws.close();
    await expect.poll(() => t.app.devices.planner.watching(a.gensetId)).toBe(false);
  }, 180_000);
});
