// The whole device path with real parts on free ports: simulated controllers (Modbus TCP servers), cloud
// modules (the gateway), the embedded broker, the server and a WebSocket client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGensetSimulator, type RunningGensetSimulator } from '@genset/simulator';
import { startGateway, silentLogger, type Gateway } from '@genset/gateway';
import { layoutG, layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from './helpers.ts';
import { connectWs } from './support/ws-client.ts';

const ONLINE_RATE_MS = 250;
let t: TestApp;
let baseUrl: string;
let manager: string;
let companyId: number;
const cleanup: (() => Promise<void>)[] = [];

interface Site {
  sim: RunningGensetSimulator;
  gateway: Gateway;
  token: string;
  gensetId: number;
}

let siteCount = 0;
async function startSite(
  layout: 'S' | 'G',
  options: Parameters<typeof startGensetSimulator>[0] extends infer O ? Partial<O> : never = {},
): Promise<Site> {
  const sim = await startGensetSimulator({
    layout,
    port: 0,
    host: '127.0.0.1',
    unitId: 1,
    seed: 11 + siteCount,
    timeScale: 10,
    realtime: true,
    ...options,
  } as Parameters<typeof startGensetSimulator>[0]);
  const modemKey = `PIPE${Date.now()}${siteCount++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name: `Site ${siteCount}`,
    modemId: modem.id,
    protocolKey: layout === 'S' ? layoutS.key : layoutG.key,
  });
  t.app.devices.ingest.invalidate();
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
  const gateway = await startGateway(
    {
      modemId: modemKey,
      secret: modem.secret,
      brokerUrl: `mqtt://127.0.0.1:${t.app.devices.transport.port}`,
      dataDir,
      ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port!, controllers: [{ address: 1 }] }],
    },
    { logger: silentLogger },
  );
  cleanup.push(async () => {
    await gateway.close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { sim, gateway, token: set.token, gensetId: set.id };
}

const status = async (token: string) =>
  (await call(t.app, 'POST', '/devicedata/getstatus', { token: manager, body: { token } })).data.status;

beforeAll(async () => {
  t = await createTestApp({
    ONLINE_RATE_MS: String(ONLINE_RATE_MS),
    OFFLINE_RATE_MS: '1000',
    COMMAND_TIMEOUT_MS: '5000',
  });
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

describe('live data', () => {
  it('a load change at the simulator reaches a watching browser within two poll periods', async () => {
    const site = await startSite('S', { mode: 'auto', loadKw: 100 });
    site.sim.cutMains();
    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat(site.token);
    await ws.waitFor(
      (m) =>
        m.method === 'monitor' && m.data.status === 3 && m.data.values.gen_on_load === 1 && m.data.values.gen_kw > 90,
      30_000,
    );
    const before = ws.messages.length;
    site.sim.setLoad(250);
    const after = await ws.waitFor(
      (m) => ws.messages.indexOf(m) >= before && m.method === 'monitor' && Math.abs(m.data.values.gen_kw - 250) < 25,
      5000,
    );
    const pushesUntilSeen = ws.messages
      .slice(before, ws.messages.indexOf(after) + 1)
      .filter((m) => m.method === 'monitor').length;
    // The snapshot in flight when the load changed may still show the old value; the next one has the new.
    expect(pushesUntilSeen).toBeLessThanOrEqual(2);
    expect(site.gateway.stats.controllers?.[0] ?? site.gateway.stats).toBeTruthy();
    ws.close();
  });

  it('a page watching several sets gets pushes for each, without raising their modules to the online rate', async () => {
    const a = await startSite('S', { mode: 'manual', loadKw: 50 });
    const b = await startSite('G', { mode: 'manual', loadKw: 50 });
    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat('', [a.token, b.token, 'NO-SUCH-SET']);
    const refused = await ws.waitFor((m) => m.method === 'error', 5000);
    expect(refused.tokens).toEqual(['NO-SUCH-SET']);
    for (const site of [a, b]) {
      await ws.waitFor((m) => m.method === 'monitor' && m.token === site.token, 5000);
      await ws.waitFor((m) => m.method === 'alarm' && m.token === site.token, 5000);
      expect(t.app.devices.planner.watching(site.gensetId)).toBe(false);
    }
    // pushes keep coming as the modules report
    const since = ws.messages.length;
    await ws.waitFor((m) => m.method === 'monitor' && m.token === b.token, 10_000, since);
    // naming one set as the watched one raises only that one
    ws.heartbeat(a.token, [a.token, b.token]);
    await expect.poll(() => t.app.devices.planner.watching(a.gensetId)).toBe(true);
    expect(t.app.devices.planner.watching(b.gensetId)).toBe(false);
    // a heartbeat without the list stops the others
    ws.heartbeat(a.token);
    // a push of b sent before the server read the heartbeat may still be on its way: count from after that
    await new Promise((resolve) => setTimeout(resolve, 500));
    const quiet = ws.messages.length;
    await ws.waitFor((m) => m.method === 'monitor' && m.token === a.token, 10_000, quiet);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(ws.messages.slice(quiet).filter((m) => m.token === b.token)).toEqual([]);
    ws.close();
    await expect.poll(() => t.app.devices.planner.watching(a.gensetId)).toBe(false);
  });

  it('the decoders of layouts S and G read the same engineering values for the same set state', async () => {
    const s = await startSite('S', { mode: 'manual', seed: 5, realtime: false });
    const g = await startSite('G', { mode: 'manual', seed: 5, realtime: false });
    for (const site of [s, g]) site.sim.tick(1000);
    const listFor = async (site: Site) => {
      await expect
        .poll(
          async () =>
            (await call(t.app, 'POST', '/realTimeData/monitorList', { token: manager, body: { token: site.token } }))
              .data.ts,
          { timeout: 10_000 },
        )
        .toBeTruthy();
      const items = (
        await call(t.app, 'POST', '/realTimeData/monitorList', { token: manager, body: { token: site.token } })
      ).data.items as { key: string; value: number | null }[];
      return Object.fromEntries(items.map((i) => [i.key, i.value]));
    };
    const [sv, gv] = [await listFor(s), await listFor(g)];
    for (const key of [
      'gen_voltage_l1',
      'gen_freq',
      'gen_kw',
      'engine_rpm',
      'coolant_temp',
      'oil_pressure',
      'fuel_level',
      'battery_voltage',
      'run_hours',
      'starts',
      'kwh_total',
      'maintenance_hours',
      'latitude',
      'longitude',
    ]) {
      expect(sv[key], key).not.toBeUndefined();
      expect(gv[key], key).toBe(sv[key]);
    }
    expect(await status(s.token)).toBe(await status(g.token));
  });
});

describe('commands through the module', () => {
  it('a start command runs the start sequence (status 2 → 3, seen by the browser); stop brings it to rest', async () => {
    const site = await startSite('G', { mode: 'manual', timeScale: 30 });
    const ws = await connectWs(baseUrl, manager);
    ws.heartbeat(site.token);
    await ws.waitFor((m) => m.method === 'monitor' && m.data.status === 2, 10_000);
    const start = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: site.token, action: 'start', password: 'Demo#2026' },
    });
    expect(start).toMatchObject({ code: 200, data: { state: 'ok' } });
    await ws.waitFor((m) => m.method === 'monitor' && m.data.status === 3 && m.data.values.engine_rpm > 1000, 30_000);
    const mark = ws.messages.length;
    const stop = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: site.token, action: 'stop', password: 'Demo#2026' },
    });
    expect(stop.code).toBe(200);
    // Stop puts the controller in STOP mode, as the front-panel button does: at rest and closed (1).
    await ws.waitFor(
      (m) => m.method === 'monitor' && m.data.status === 1 && m.data.values.engine_rpm === 0,
      60_000,
      mark,
    );
    const changes = await t.app.database.db
      .selectFrom('status_change')
      .select('status')
      .where('genset_id', '=', site.gensetId)
      .orderBy('id')
      .execute();
    expect(changes.map((c) => c.status)).toEqual([2, 3, 1]);
    ws.close();
  }, 90_000);

  it('an injected shutdown fault opens one alarm and stops the engine; a fault reset closes it', async () => {
    const site = await startSite('S', { mode: 'auto', loadKw: 80 });
    site.sim.cutMains();
    const ws = await connectWs(baseUrl, manager, 'zh-CN');
    ws.heartbeat(site.token);
    await ws.waitFor((m) => m.method === 'monitor' && m.data.status === 3 && m.data.values.gen_on_load === 1, 30_000);
    site.sim.injectFault('emergency_stop');
    const alarm = await ws.waitFor((m) => m.method === 'alarm' && m.alarmnum >= 1, 10_000, ws.messages.length);
    expect(alarm.list.find((a: any) => a.code === 'emergency_stop')).toMatchObject({
      level: 'shutdown',
      title: expect.stringMatching(/[\u4e00-\u9fff]/),
    });
    await ws.waitFor(
      (m) => m.method === 'monitor' && m.data.values.engine_rpm === 0,
      30_000,
      ws.messages.indexOf(alarm),
    );
    // The fault goes and comes back within a second, and stays for several polls: still one alarm.
    site.sim.clearFault('emergency_stop');
    await new Promise((r) => setTimeout(r, 300));
    site.sim.injectFault('emergency_stop');
    await new Promise((r) => setTimeout(r, 3 * ONLINE_RATE_MS));
    const open = await t.app.database.db
      .selectFrom('alarm')
      .select('id')
      .where('genset_id', '=', site.gensetId)
      .where('code', '=', 'emergency_stop')
      .execute();
    expect(open).toHaveLength(1);
    site.sim.clearFault('emergency_stop');
    const beforeReset = ws.messages.length;
    const reset = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: site.token, action: 'fault_reset' },
    });
    expect(reset.code).toBe(200);
    await ws.waitFor(
      (m) => m.method === 'alarm' && !m.list.some((a: any) => a.code === 'emergency_stop'),
      10_000,
      beforeReset,
    );
    const rows = await t.app.database.db
      .selectFrom('alarm')
      .selectAll()
      .where('genset_id', '=', site.gensetId)
      .where('code', '=', 'emergency_stop')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.end_ts).toBeGreaterThan(rows[0]!.start_ts);
    ws.close();
  });

  it('a command to a module that went offline fails with a clear message, never a false success', async () => {
    const site = await startSite('S', { mode: 'manual' });
    await expect.poll(() => status(site.token), { timeout: 10_000 }).toBe(2);
    await site.gateway.close();
    await expect.poll(() => status(site.token), { timeout: 10_000 }).toBe(0);
    const res = await call(t.app, 'POST', '/devicedata/sendaction', {
      token: manager,
      body: { token: site.token, action: 'auto' },
    });
    expect(res.code).toBe(504);
    expect(res.data.state).toBe('error');
  });
});
