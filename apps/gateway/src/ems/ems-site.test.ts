// A simulated storage station (PCS, BMS, meter and PV on one Modbus TCP port, layout E) run by a real cloud module
// from a tactic sent over a real broker, its roles built from the layout E documents: what a site engineer would
// check on commissioning. The site's clock is the simulator's (accelerated where a day's periods matter).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EMS_STALE_MS,
  emsRoleCoordinates,
  emsTactic,
  modemTopic,
  type EmsTactic,
  type EmsTacticInput,
  type LayoutEDevice,
  type ModemReply,
} from '@genset/protocol';
import { ModbusTcpHost, startEssSite, type RunningEssSite, type StartEssSiteOptions } from '@genset/simulator';
import { startGateway, type Gateway } from '../gateway.ts';
import { silentLogger } from '../logger.ts';
import { TestBroker, waitFor, type Recorder } from '../test-support.ts';
import { PRICES } from './test-site.ts';

const SECRET = 'ess-site-secret';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** 05:00 UTC on a June day: the site's clock starts there. */
const DAWN = Date.UTC(2025, 5, 2, 5, 0);
const RATING_KW = 250;
/** What "holds" means in these checks: within 2 % of the PCS rating. */
const TOLERANCE_KW = 0.02 * RATING_KW;

const TEMPLATE = {
  ranges: [
    { start: '00:00', end: '12:00', period: 'peak' },
    { start: '12:00', end: '24:00', period: 'flat' },
  ],
  prices: PRICES,
  powerKw: 100,
  chargeCutoffSoc: 90,
  dischargeCutoffSoc: 10,
  socMargin: 3,
  reversePower: { enabled: true, marginKw: 5 },
  demandControl: { enabled: false, limitKw: 300 },
} satisfies EmsTacticInput['template'];

let counter = 0;

interface Station {
  site: RunningEssSite;
  host: ModbusTcpHost;
  broker: TestBroker;
  gateway: Gateway;
  events: Recorder<'event'>;
  /** Sends a tactic (version 1 and up) and waits for the module's reply. */
  send(tactic: Partial<EmsTacticInput>): Promise<ModemReply>;
  request(body: { id: string; [field: string]: unknown }): Promise<ModemReply>;
}

async function station(siteOptions: StartEssSiteOptions = {}): Promise<Station> {
  const modemId = `GW-SITE${++counter}`;
  const host = await ModbusTcpHost.listen();
  cleanups.push(() => host.close());
  const site = await startEssSite({
    startTs: DAWN,
    timeZone: 'UTC',
    pcsRatingKw: RATING_KW,
    rampKwPerS: 250,
    loadNoisePct: 0,
    ...siteOptions,
    modbusHost: host,
  });
  cleanups.push(() => site.close());
  const broker = await TestBroker.start({ [modemId]: SECRET });
  cleanups.push(() => broker.close());
  const replies = await broker.record(modemId, 'reply');
  const events = await broker.record(modemId, 'event');
  const hellos = await broker.record(modemId, 'hello');
  const dataDir = await mkdtemp(join(tmpdir(), 'ems-site-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const devices = Object.keys(site.documents) as LayoutEDevice[];
  const gateway = await startGateway(
    {
      modemId,
      secret: SECRET,
      brokerUrl: broker.url,
      dataDir,
      ports: [
        {
          name: 'ess',
          host: '127.0.0.1',
          port: host.port,
          controllers: devices.map((device) => ({ address: site.unitIds[device]!, model: `layout-e-${device}` })),
        },
      ],
      modbusTimeoutMs: 300,
      mqttReconnect: { minMs: 50, maxMs: 300 },
      modbusReconnect: { minMs: 50, maxMs: 200 },
    },
    { logger: silentLogger, ems: { clock: () => site.now(), station: true } },
  );
  cleanups.push(() => gateway.close());
  await waitFor(() => hellos.messages.length > 0, 'hello');
  // the tactic's coordinates, from the documents the devices are laid out by
  const roles = Object.assign(
    {},
    ...devices.map((device) => emsRoleCoordinates(site.documents[device]!.items, 'ess', site.unitIds[device]!)),
  ) as EmsTactic['roles'];
  let requests = 0;
  const request = async (body: { id: string; [field: string]: unknown }) => {
    await broker.publish(modemTopic(modemId, 'request'), JSON.stringify(body));
    return waitFor(() => replies.messages.find((reply) => reply.id === body.id), `reply to ${body.id}`);
  };
  return {
    site,
    host,
    broker,
    gateway,
    events,
    request,
    send: (tactic) =>
      request({
        id: `tactic-${++requests}`,
        kind: 'tactic',
        tactic: emsTactic.parse({
          version: requests,
          strategy: 'timeOfUse',
          template: TEMPLATE,
          timeZone: 'UTC',
          roles,
          cycleMs: 250,
          ...tactic,
        }),
      }),
  };
}

/** Samples the site every 20 ms for `ms`. */
async function sample<T>(site: RunningEssSite, ms: number, take: (s: RunningEssSite['state']) => T): Promise<T[]> {
  const samples: T[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    samples.push(take(site.state));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return samples;
}

describe('EMS running a simulated storage station', () => {
  it('time of use charges in valley and discharges in peak, stopping at the SOC cut-offs', async () => {
    // one simulated minute per real second; the PCS watchdog (10 simulated seconds) would expire between cycles
    const speed = 60;
    const cycleMs = 200;
    const { site, gateway, send } = await station({ speed, watchdogMs: 0, capacityKwh: 50, initialSoc: 85 });
    site.setLoad(150);
    const minuteOfDay = () => Math.floor((site.now() % 86_400_000) / 60_000);
    // how far SOC moves at 100 kW (drawing 100 / 0.96 from the cells) in one cycle of simulated time: a cut-off may
    // be passed by that (twice on a busy machine), not more
    const usableKwh = (50 * site.state.bms.soh) / 100;
    const socPerCycle = ((100 / 0.96) * ((cycleMs * speed) / 3_600_000) * 100) / usableKwh;
    const reply = await send({
      cycleMs,
      template: {
        ...TEMPLATE,
        ranges: [
          { start: '00:00', end: '05:05', period: 'valley' },
          { start: '05:05', end: '05:06', period: 'flat' },
          { start: '05:06', end: '24:00', period: 'peak' },
        ],
        chargeCutoffSoc: 90,
        dischargeCutoffSoc: 70,
      },
    });
    expect(reply).toMatchObject({ ok: true });

    await waitFor(() => site.state.pcs.setpointKw === -100, 'charging in valley');
    await waitFor(() => site.state.meter.gridKw > 249, 'the charge drawn from the grid');
    expect(site.state.bms.soc).toBeLessThan(90);
    await waitFor(() => gateway.stats.ems?.limitedBy === 'soc', 'charge stopped at the cut-off', 10_000);
    expect(site.state.pcs.setpointKw).toBe(0);
    expect(minuteOfDay()).toBeLessThan(5 * 60 + 5);
    const full = site.state.bms.soc;
    expect(full).toBeGreaterThanOrEqual(89.9); // SOC is read at 0.1 %
    expect(full).toBeLessThanOrEqual(90 + 2 * socPerCycle);

    // the rest of the valley: no charging again while SOC stays within the margin of the cut-off
    const idle = await sample(site, 800, (s) => s.pcs.setpointKw);
    expect(minuteOfDay()).toBeLessThan(5 * 60 + 5);
    expect(idle.every((kw) => kw === 0)).toBe(true);

    await waitFor(() => site.state.pcs.setpointKw === 100, 'discharging in peak', 10_000);
    expect(minuteOfDay()).toBeGreaterThanOrEqual(5 * 60 + 6);
    await waitFor(() => site.state.meter.gridKw < 51, 'the discharge covering the load');
    await waitFor(
      () => gateway.stats.ems?.limitedBy === 'soc' && site.state.pcs.setpointKw === 0,
      'discharge stopped',
      15_000,
    );
    const low = site.state.bms.soc;
    expect(low).toBeLessThanOrEqual(70.1);
    expect(low).toBeGreaterThanOrEqual(70 - 2 * socPerCycle);
    const after = await sample(site, 600, (s) => s.pcs.setpointKw);
    expect(after.every((kw) => kw === 0)).toBe(true);
  });

  it('peak shaving holds import at the demand limit while SOC allows, and recharges only below it', async () => {
    const { site, gateway, send } = await station({ initialSoc: 60 });
    site.setLoad(420);
    await send({
      strategy: 'peakShaving',
      params: { rechargeHeadroomKw: 20 },
      template: { ...TEMPLATE, demandControl: { enabled: true, limitKw: 300 } },
    });
    await waitFor(() => Math.abs(site.state.pcs.powerKw - 120) < 1, 'discharging the excess');
    const shaved = await sample(site, 1500, (s) => s.meter.gridKw);
    expect(Math.max(...shaved)).toBeLessThanOrEqual(300 + TOLERANCE_KW);
    expect(Math.min(...shaved)).toBeGreaterThan(300 - TOLERANCE_KW);

    // the load rises past what the battery may give alone (its discharge limit from the BMS is 250)
    site.setLoad(480);
    await waitFor(() => Math.abs(site.state.pcs.powerKw - 180) < 1, 'following the load');
    const following = await sample(site, 1000, (s) => s.meter.gridKw);
    expect(Math.max(...following)).toBeLessThanOrEqual(300 + TOLERANCE_KW);

    // the load falls well under the limit: recharge with what stays 20 kW under it, at most the template's 100
    site.setLoad(220);
    await waitFor(() => Math.abs(site.state.pcs.powerKw + 60) < 1, 'recharging with the headroom');
    const recharging = await sample(site, 1000, (s) => s.meter.gridKw);
    expect(Math.max(...recharging)).toBeLessThanOrEqual(300);
    expect(gateway.stats.ems?.safe).toBeUndefined();
  });

  it('after a load drop, reverse-power protection ends export within 2 s and keeps it under 2 % of the rating', async () => {
    const { site, gateway, send } = await station({ initialSoc: 60 });
    site.setLoad(200);
    await send({});
    await waitFor(() => Math.abs(site.state.pcs.powerKw - 100) < 1, 'discharging in peak');
    site.setLoad(40);
    const droppedAt = Date.now();
    expect(site.state.meter.gridKw).toBeLessThan(-50);
    await waitFor(() => site.state.meter.gridKw >= 0, 'export ended', 2000, 5);
    expect(Date.now() - droppedAt).toBeLessThan(2000);
    const after = await sample(site, 2000, (s) => s.meter.gridKw);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(-TOLERANCE_KW);
    expect(gateway.stats.ems?.limitedBy).toBe('reversePower');
    expect(site.state.pcs.powerKw).toBeCloseTo(35, 0);
  });

  it('curtails PV that would export when the battery has nothing left to give back, and releases it', async () => {
    // midday sun on 200 kW of PV; the battery is full, so it cannot take the surplus
    const { site, gateway, send } = await station({
      startTs: Date.UTC(2025, 5, 2, 12, 0),
      latitude: 0,
      longitude: 0,
      pvRatedKw: 200,
      initialSoc: 95,
    });
    site.setLoad(300);
    await send({ strategy: 'idle' });
    await waitFor(() => site.state.pv!.powerKw > 100, 'PV producing');
    const pv = site.state.pv!.powerKw;
    site.setLoad(pv - 60);
    await waitFor(() => site.state.pv!.limitPct < 100 && site.state.meter.gridKw >= 0, 'PV curtailed', 5000);
    expect(gateway.stats.ems?.limitedBy).toBe('pvCurtailed');
    const curtailed = await sample(site, 1000, (s) => s.meter.gridKw);
    expect(Math.min(...curtailed)).toBeGreaterThanOrEqual(-TOLERANCE_KW);
    site.setLoad(400);
    await waitFor(() => site.state.pv!.limitPct === 100, 'PV released', 5000);
  });

  it('a demand-response event delivers its kW within 5 s and hands back to the strategy at its end', async () => {
    const { site, gateway, send, request, events } = await station({ initialSoc: 60 });
    site.setLoad(200);
    await send({ strategy: 'idle' });
    await waitFor(() => gateway.stats.emsCycles > 0, 'running');
    const start = Date.now();
    const reply = await request({
      id: 'dr-1',
      kind: 'demandResponse',
      event: { id: 'grid-call-7', startTs: start, endTs: start + 3000, kw: 80 },
    });
    expect(reply).toMatchObject({ ok: true });
    await waitFor(() => Math.abs(site.state.pcs.powerKw - 80) <= TOLERANCE_KW, 'delivering 80 kW', 5000);
    expect(Date.now() - start).toBeLessThan(5000);
    await waitFor(() => events.messages.some((e) => e.ems?.demandResponse === 'grid-call-7'), 'reported');
    await waitFor(() => Date.now() > start + 3000 && Math.abs(site.state.pcs.powerKw) < 1, 'handed back', 5000);
    expect(gateway.stats.ems?.demandResponse).toBeUndefined();
  });

  it('a BMS fault brings the setpoint to 0 within one cycle', async () => {
    const { site, gateway, send } = await station({ initialSoc: 60 });
    site.setLoad(200);
    await send({ cycleMs: 500 });
    await waitFor(() => site.state.pcs.setpointKw === 100, 'discharging');
    site.injectBmsFault();
    const at = Date.now();
    await waitFor(() => site.state.pcs.setpointKw === 0, 'setpoint 0', 2000, 5);
    expect(Date.now() - at).toBeLessThanOrEqual(500 + 250);
    await waitFor(() => gateway.stats.ems?.safe === 'bmsFault', 'reported safe');
    site.clearBmsFault();
    await waitFor(() => site.state.pcs.setpointKw === 100, 'resumed after the fault');
  });

  it('a lost meter brings the setpoint to 0 within one cycle once its reading is stale', async () => {
    const { site, host, gateway, send } = await station({ initialSoc: 60 });
    site.setLoad(200);
    await send({ cycleMs: 500 });
    await waitFor(() => site.state.pcs.setpointKw === 100, 'discharging');
    host.detach(site.unitIds.meter!);
    const lostAt = Date.now();
    await waitFor(() => site.state.pcs.setpointKw === 0, 'setpoint 0', EMS_STALE_MS + 2000, 5);
    const after = Date.now() - lostAt;
    // stale counts from the meter's last reading, taken up to one cycle (500 ms) before it went
    expect(after).toBeGreaterThanOrEqual(EMS_STALE_MS - 500);
    expect(after).toBeLessThanOrEqual(EMS_STALE_MS + 500 + 300);
    await waitFor(() => gateway.stats.ems?.safe === 'meterStale', 'reported safe');
    expect(gateway.stats.ems?.setpointKw).toBe(0);
  });

  it('keeps running its tactic while its broker is unreachable', async () => {
    const { site, broker, gateway, send } = await station({ initialSoc: 60 });
    site.setLoad(400);
    await send({ strategy: 'peakShaving', template: { ...TEMPLATE, demandControl: { enabled: true, limitKw: 300 } } });
    await waitFor(() => Math.abs(site.state.pcs.powerKw - 100) < 1, 'shaving');
    await broker.close();
    await waitFor(() => !gateway.stats.mqttConnected, 'broker gone');
    site.setLoad(450);
    await waitFor(() => Math.abs(site.state.pcs.powerKw - 150) < 1, 'still shaving without the cloud');
    expect(gateway.stats.ems).toMatchObject({ version: 1, strategy: 'peakShaving' });
  });
});
