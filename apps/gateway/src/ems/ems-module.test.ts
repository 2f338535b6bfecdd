// A cloud module with the EMS against a real broker and a real Modbus TCP site: tactic and demand-response
// requests answered over MQTT, the EMS status in hello and events, and the tactic run from disk and through a
// broker outage.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  emsTactic,
  modemTopic,
  type EmsTactic,
  type EmsTacticInput,
  type ModemReply,
  type ModemRequest,
} from '@genset/protocol';
import type { GatewayConfigInput } from '../config.ts';
import { startGateway, type Gateway, type GatewayOptions } from '../gateway.ts';
import { silentLogger } from '../logger.ts';
import { TestBroker, unusedPort, waitFor, type Recorder } from '../test-support.ts';
import { TEMPLATE, startRoleSite, type RoleSite } from './test-site.ts';

const SECRET = 'station-secret';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** 10:00 UTC: a peak period of the test template. */
const PEAK = Date.UTC(2025, 5, 2, 10, 0);
let counter = 0;

interface Station {
  modemId: string;
  site: RoleSite;
  broker: TestBroker;
  replies: Recorder<'reply'>;
  hellos: Recorder<'hello'>;
  events: Recorder<'event'>;
  config: GatewayConfigInput;
  tactic(extra?: Partial<EmsTacticInput>): EmsTactic;
  start(options?: GatewayOptions): Promise<Gateway>;
  request(body: ModemRequest): Promise<ModemReply>;
}

async function station(): Promise<Station> {
  const modemId = `GW-EMS${++counter}`;
  const site = await startRoleSite();
  cleanups.push(() => site.host.close());
  const broker = await TestBroker.start({ [modemId]: SECRET });
  cleanups.push(() => broker.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'ems-module-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const config: GatewayConfigInput = {
    modemId,
    secret: SECRET,
    brokerUrl: broker.url,
    dataDir,
    ports: [
      {
        name: 'ess',
        host: '127.0.0.1',
        port: site.host.port,
        controllers: [1, 2, 3, 4].map((address) => ({ address })),
      },
    ],
    modbusTimeoutMs: 300,
    mqttReconnect: { minMs: 50, maxMs: 300 },
    modbusReconnect: { minMs: 50, maxMs: 200 },
  };
  const s: Station = {
    modemId,
    site,
    broker,
    replies: await broker.record(modemId, 'reply'),
    hellos: await broker.record(modemId, 'hello'),
    events: await broker.record(modemId, 'event'),
    config,
    tactic: (extra = {}) =>
      emsTactic.parse({
        version: 1,
        strategy: 'timeOfUse',
        template: TEMPLATE,
        timeZone: 'UTC',
        roles: site.roles('ess'),
        cycleMs: 200,
        ...extra,
      }),
    start: async (options = {}) => {
      const gateway = await startGateway(s.config, { logger: silentLogger, ems: { clock: () => PEAK }, ...options });
      cleanups.push(() => gateway.close());
      return gateway;
    },
    request: async (body) => {
      await broker.publish(modemTopic(modemId, 'request'), JSON.stringify(body));
      return waitFor(() => s.replies.messages.find((reply) => reply.id === body.id), `reply to ${body.id}`);
    },
  };
  return s;
}

describe('EMS on the cloud module', () => {
  it('takes a tactic, replies with its version, says so in an event at once, and runs it', async () => {
    const s = await station();
    const gateway = await s.start();
    await waitFor(() => s.hellos.messages.length > 0, 'hello');
    expect(s.hellos.messages[0]!.ems).toBeUndefined();
    const reply = await s.request({ id: 'tactic-1', kind: 'tactic', tactic: s.tactic({ version: 5 }) });
    expect(reply).toEqual({ id: 'tactic-1', ok: true, progress: { stage: 'accepted', version: '5' } });
    const event = await waitFor(() => s.events.messages.find((e) => e.ems?.version === 5), 'event with the tactic');
    expect(event.ems).toMatchObject({ version: 5, strategy: 'timeOfUse' });
    await waitFor(() => s.site.pcs.get('pcs_setpoint') === 100, 'peak discharge written');
    await waitFor(() => gateway.stats.ems?.setpointKw === 100, 'status with the setpoint');
    // a later hello (after a restart of the connection) carries it too
    await gateway.restart();
    await waitFor(() => s.hellos.messages.some((hello) => hello.ems?.version === 5), 'hello with the tactic');
  });

  it('refuses a tactic it cannot run with the exact reason, and an older version than the one running', async () => {
    const s = await station();
    await s.start();
    await waitFor(() => s.hellos.messages.length > 0, 'hello');
    const tactic = s.tactic({ version: 2 });
    const noController = { ...tactic, roles: { ...tactic.roles, soc: { ...tactic.roles.soc!, address: 7 } } };
    expect(await s.request({ id: 't-a', kind: 'tactic', tactic: noController })).toEqual({
      id: 't-a',
      ok: false,
      error: 'role soc: no controller at port ess address 7',
    });
    const { bmsFault: _fault, ...lacking } = tactic.roles;
    expect(await s.request({ id: 't-b', kind: 'tactic', tactic: { ...tactic, roles: lacking } })).toMatchObject({
      ok: false,
      error: 'role bmsFault missing',
    });
    expect(await s.request({ id: 't-c', kind: 'tactic', tactic })).toMatchObject({ ok: true });
    expect(await s.request({ id: 't-d', kind: 'tactic', tactic })).toMatchObject({ ok: true });
    expect(await s.request({ id: 't-e', kind: 'tactic', tactic: { ...tactic, version: 1 } })).toEqual({
      id: 't-e',
      ok: false,
      error: 'older than version 2',
    });
    // a tactic that does not pass the schema never reaches the EMS
    const invalid = await s.request({
      id: 't-f',
      kind: 'tactic',
      tactic: { ...tactic, cycleMs: 10 },
    } as unknown as ModemRequest);
    expect(invalid.ok).toBe(false);
    expect(invalid.error).toMatch(/^invalid request: /);
  });

  it('delivers a demand-response event and hands back to the strategy at its end', async () => {
    const s = await station();
    const gateway = await s.start();
    await waitFor(() => s.hellos.messages.length > 0, 'hello');
    await s.request({ id: 't', kind: 'tactic', tactic: s.tactic({ strategy: 'idle' }) });
    await waitFor(() => gateway.stats.ems?.setpointKw === 0 && gateway.stats.emsCycles > 0, 'idle');
    const now = Date.now();
    const reply = await s.request({
      id: 'dr',
      kind: 'demandResponse',
      event: { id: 'grid-call-1', startTs: now, endTs: now + 1500, kw: 60 },
    });
    expect(reply).toEqual({ id: 'dr', ok: true, progress: { stage: 'accepted' } });
    await waitFor(() => s.site.pcs.get('pcs_setpoint') === 60, 'event delivered');
    await waitFor(() => s.events.messages.some((e) => e.ems?.demandResponse === 'grid-call-1'), 'event reported');
    await waitFor(() => s.site.pcs.get('pcs_setpoint') === 0, 'handed back', 4000);
    expect(gateway.stats.ems?.demandResponse).toBeUndefined();
  });

  it('resumes its stored tactic at start without the broker, and keeps running it through an outage', async () => {
    const s = await station();
    const first = await s.start();
    await waitFor(() => s.hellos.messages.length > 0, 'hello');
    await s.request({ id: 't', kind: 'tactic', tactic: s.tactic({ version: 9 }) });
    await first.close();
    s.site.pcs.set('pcs_setpoint', 0);

    // the broker is nowhere to be found: the module runs the stored tactic all the same
    s.config = { ...s.config, brokerUrl: `mqtt://127.0.0.1:${await unusedPort()}` };
    const second = await s.start();
    expect(second.stats.ems).toMatchObject({ version: 9, strategy: 'timeOfUse' });
    await waitFor(() => s.site.pcs.get('pcs_setpoint') === 100, 'stored tactic running');
    expect(second.stats.mqttConnected).toBe(false);
    // and still acts on what it reads
    s.site.bms.set('bms_fault', 1);
    await waitFor(() => second.stats.ems?.safe === 'bmsFault', 'fault seen without the cloud');
    expect(s.site.pcs.get('pcs_setpoint')).toBe(0);
  });

  it("a station's module reports version 0 until its first tactic", async () => {
    const s = await station();
    await s.start({ ems: { station: true } });
    const hello = await waitFor(() => s.hellos.messages[0], 'hello');
    expect(hello.ems).toMatchObject({ version: 0, setpointKw: 0, safe: 'noTactic' });
    expect(
      await s.request({
        id: 'dr',
        kind: 'demandResponse',
        event: { id: 'x', startTs: Date.now(), endTs: Date.now() + 1000, kw: 10 },
      }),
    ).toEqual({ id: 'dr', ok: false, error: 'no tactic: a demand-response event needs one to run with' });
  });
});
