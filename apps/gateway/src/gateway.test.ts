// The cloud module against a real broker and a real Modbus TCP controller: what the cloud sees, and that it
// loses nothing through restarts and outages.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  modemTopic,
  type ModemControllerPlan,
  type ModemData,
  type ModemPlan,
  type ModemReply,
  type ModemRequest,
} from '@genset/protocol';
import type { GatewayConfigInput } from './config.ts';
import { startGateway, type Gateway } from './gateway.ts';
import { silentLogger } from './logger.ts';
import {
  TestBroker,
  TestController,
  sleep,
  startSilentPeer,
  unusedPort,
  waitFor,
  type Recorder,
} from './test-support.ts';

const SECRET = 'site-secret-1';
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

let modemCounter = 0;

interface Site {
  modemId: string;
  broker: TestBroker;
  controller: TestController;
  dataDir: string;
  data: Recorder<'data'>;
  replies: Recorder<'reply'>;
  hellos: Recorder<'hello'>;
  config: GatewayConfigInput;
  start(): Promise<Gateway>;
}

/** A broker, a controller at unit 1 on `port1`, and the configuration of a module for them (not yet started). */
async function site(extraPorts: GatewayConfigInput['ports'] = []): Promise<Site> {
  const modemId = `GW-T${++modemCounter}`;
  const broker = await TestBroker.start({ [modemId]: SECRET });
  cleanups.push(() => broker.close());
  const controller = await TestController.start();
  cleanups.push(() => controller.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-test-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const config: GatewayConfigInput = {
    modemId,
    secret: SECRET,
    brokerUrl: broker.url,
    model: 'GW-4G',
    firmware: '1.2.3',
    imei: '861234567890123',
    iccid: '89860000000000000001',
    dataDir,
    ports: [
      { name: 'port1', host: '127.0.0.1', port: controller.port, controllers: [{ address: 1, model: 'HGM6120' }] },
      ...(extraPorts ?? []),
    ],
    modbusTimeoutMs: 300,
    mqttReconnect: { minMs: 50, maxMs: 300 },
    modbusReconnect: { minMs: 50, maxMs: 200 },
  };
  const result: Site = {
    modemId,
    broker,
    controller,
    dataDir,
    config,
    data: await broker.record(modemId, 'data'),
    replies: await broker.record(modemId, 'reply'),
    hellos: await broker.record(modemId, 'hello'),
    /** Starts the module and waits for its hello, which it sends once subscribed to its requests. */
    start: async () => {
      const hellosBefore = result.hellos.messages.length;
      const gateway = await startGateway(result.config, { logger: silentLogger });
      cleanups.push(() => gateway.close());
      await waitFor(() => result.hellos.messages.length > hellosBefore, 'hello');
      return gateway;
    },
  };
  return result;
}

function plan(controller: Partial<ModemControllerPlan> = {}, eventRateMs = 60_000): ModemPlan {
  return {
    eventRateMs,
    controllers: [
      {
        port: 'port1',
        address: 1,
        blocks: [
          { fc: 3, start: 0, count: 4 },
          { fc: 1, start: 0, count: 3 },
        ],
        onlineRateMs: 100,
        offlineRateMs: 100,
        mode: 'full',
        online: true,
        ...controller,
      },
    ],
  };
}

function sendPlan(s: Site, value: ModemPlan | ''): Promise<void> {
  return s.broker.publish(modemTopic(s.modemId, 'plan'), value === '' ? '' : JSON.stringify(value), true);
}

async function request(s: Site, body: ModemRequest, timeoutMs = 5000): Promise<ModemReply> {
  await s.broker.publish(modemTopic(s.modemId, 'request'), JSON.stringify(body));
  return waitFor(() => s.replies.messages.find((reply) => reply.id === body.id), `reply to ${body.id}`, timeoutMs);
}

/** Watches the retained `state` topic as a separate MQTT client would. */
async function watchState(s: Site): Promise<{ states: { state: string; retain: boolean }[]; end(): Promise<void> }> {
  const observer = await mqtt.connectAsync(s.broker.url, { clientId: `observer-${s.modemId}`, reconnectPeriod: 0 });
  const states: { state: string; retain: boolean }[] = [];
  // the broker closing at the test's end may reset the observer's connection before it ends its own
  observer.on('error', () => {});
  observer.on('message', (_topic, payload, packet) =>
    states.push({ state: payload.toString(), retain: packet.retain }),
  );
  await observer.subscribeAsync(modemTopic(s.modemId, 'state'), { qos: 1 });
  const end = () => observer.endAsync(true);
  cleanups.push(end);
  return { states, end };
}

function seqs(messages: readonly ModemData[]): number[] {
  return messages.map((message) => message.seq);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

describe('cloud module', () => {
  it('announces itself with hello and a retained online state, and its last will says offline when it dies', async () => {
    const s = await site();
    const hellos = s.hellos;
    const events = await s.broker.record(s.modemId, 'event');
    await sendPlan(s, plan({}, 200));
    const gateway = await s.start();

    await waitFor(() => hellos.messages[0], 'hello');
    expect(hellos.messages[0]).toEqual({
      model: 'GW-4G',
      firmware: '1.2.3',
      imei: '861234567890123',
      iccid: '89860000000000000001',
      controllers: [{ port: 'port1', address: 1, model: 'HGM6120' }],
    });
    // A client that comes later still learns the module is online: the state is retained.
    const watcher = await watchState(s);
    await waitFor(() => watcher.states[0], 'retained state');
    expect(watcher.states[0]).toEqual({ state: 'online', retain: true });

    // Events carry the SIM traffic the module really had, growing over time, and a heartbeat.
    const firstEvent = await waitFor(() => events.messages[1], 'two events');
    expect(firstEvent.sim!.txBytes).toBeGreaterThan(0);
    expect(firstEvent.sim!.rxBytes).toBeGreaterThan(0);
    expect(firstEvent.heartbeat).toMatchObject({ lastSeq: expect.any(Number), outboxSize: expect.any(Number) });
    const laterEvent = await waitFor(() => events.messages[3], 'four events');
    expect(laterEvent.sim!.txBytes).toBeGreaterThan(firstEvent.sim!.txBytes);

    // The module dies without a word: the broker publishes its will; then it comes back by itself.
    s.broker.killClient(s.modemId);
    await waitFor(() => watcher.states.find((entry) => entry.state === 'offline'), 'will');
    await waitFor(() => watcher.states.at(-1)?.state === 'online' && hellos.messages.length >= 2, 'back online');
    expect(gateway.stats.mqttConnections).toBe(2);

    // A clean close says offline too, retained for whoever looks later.
    await gateway.close();
    const late = await watchState(s);
    await waitFor(() => late.states[0], 'retained state after close');
    expect(late.states[0]).toEqual({ state: 'offline', retain: true });
  });

  it('publishes data with rising seq, the module clock at read time and the register values', async () => {
    const s = await site();
    [230, 231, 5000, 65535].forEach((value, address) => s.controller.setRegister(address, value));
    s.controller.coils[0] = 0b101;
    await sendPlan(s, plan());
    const before = Date.now();
    const gateway = await s.start();

    await waitFor(() => s.data.messages.length >= 4, 'four data messages');
    const messages = s.data.messages.slice(0, 4);
    expect(seqs(messages)).toEqual([1, 2, 3, 4]);
    for (const [index, message] of messages.entries()) {
      expect(message.ts).toBeGreaterThanOrEqual(before);
      expect(message.ts).toBeLessThanOrEqual(Date.now());
      if (index > 0) expect(message.ts).toBeGreaterThan(messages[index - 1]!.ts);
      expect(message).toMatchObject({ port: 'port1', address: 1 });
      expect(message.error).toBeUndefined();
      expect(message.blocks).toEqual([
        { fc: 3, start: 0, words: [230, 231, 5000, 65535] },
        { fc: 1, start: 0, bits: [true, false, true] },
      ]);
    }
    s.controller.setRegister(2, 4200);
    await waitFor(() => s.data.messages.at(-1)?.blocks[0]?.words?.[2] === 4200, 'the new value');
    expect(s.data.malformed).toEqual([]);
    expect(gateway.stats.controllers[0]).toMatchObject({ polling: true, lastError: undefined });
  });

  it("in 'changes' mode skips unchanged snapshots but still sends one every N periods", async () => {
    const s = await site();
    await sendPlan(s, plan({ mode: 'changes', onlineRateMs: 100, fullSnapshotEvery: 5 }));
    await s.start();
    await waitFor(() => s.data.messages.length >= 1, 'first snapshot');
    await sleep(1200); // 12 periods of 100 ms: a snapshot every 5th period, 2 or 3 of them
    const unchanged = s.data.messages.length - 1;
    expect(unchanged).toBeGreaterThanOrEqual(1);
    expect(unchanged).toBeLessThanOrEqual(3);
    s.controller.setRegister(0, 999);
    await waitFor(() => s.data.messages.at(-1)?.blocks[0]?.words?.[0] === 999, 'the change', 300);
  });

  it('keeps unacked data across a module restart, resends it in order with its original ts, and forgets it once acked', async () => {
    const s = await site();
    await sendPlan(s, plan());
    const first = await s.start();
    await waitFor(() => s.data.messages.length >= 5, 'five data messages');
    await first.close();
    const sent = [...s.data.messages];
    const lastSent = sent.at(-1)!.seq;
    expect(seqs(sent)).toEqual(range(1, lastSent));
    expect(first.stats.outboxSize).toBeGreaterThanOrEqual(lastSent); // nothing was acked

    s.data.clear();
    const second = await s.start();
    await waitFor(() => s.data.messages.length >= lastSent + 3, 'the resend and new data');
    const resent = s.data.messages;
    // Every unacked message exactly once, in order, unchanged; then new data continues the sequence.
    expect(seqs(resent)).toEqual(range(1, resent.at(-1)!.seq));
    expect(resent.slice(0, lastSent)).toEqual(sent);

    // The cloud stops the polling and acks everything: the module forgets it all.
    await sendPlan(s, '');
    await sleep(300);
    const lastSeq = second.stats.lastSeq;
    await s.broker.publish(modemTopic(s.modemId, 'ack'), JSON.stringify({ upTo: lastSeq }));
    await waitFor(() => second.stats.outboxSize === 0, 'an empty outbox');
    await second.close();

    // Restarted again, nothing old comes back, and the seq carries on from where it was.
    s.data.clear();
    await s.start();
    await sleep(300);
    expect(s.data.messages).toEqual([]);
    await sendPlan(s, plan());
    await waitFor(() => s.data.messages[0], 'new data');
    expect(s.data.messages[0]!.seq).toBe(lastSeq + 1);
  });

  it('sends unacked data again after the ack timeout without a reconnect (the instance that took it died)', async () => {
    const s = await site();
    s.config.ackTimeoutMs = 1500;
    let acking = true;
    s.data.onMessage = (message) => {
      if (acking) void s.broker.publish(modemTopic(s.modemId, 'ack'), JSON.stringify({ upTo: message.seq }));
    };
    await sendPlan(s, plan({ onlineRateMs: 200 }));
    const gateway = await s.start();
    await waitFor(() => gateway.stats.ackedUpTo >= 2, 'acked data');
    // Nobody acks for a while: the broker took the messages but no server stored them.
    acking = false;
    await waitFor(() => gateway.stats.ackResends >= 1, 'a resend after the ack timeout', 10_000);
    const ackedAtResend = gateway.stats.ackedUpTo;
    await waitFor(
      () =>
        s.data.messages.some((m) => m.seq === ackedAtResend + 1 && m !== s.data.messages.find((f) => f.seq === m.seq)),
      'the oldest unacked seq a second time',
      5000,
    );
    // on the same connection, and nothing acked went again
    expect(gateway.stats.mqttConnected).toBe(true);
    const seqs = s.data.messages.map((m) => m.seq);
    const twice = seqs.filter((seq, i) => seqs.indexOf(seq) !== i);
    expect(Math.min(...twice)).toBe(ackedAtResend + 1);
    acking = true;
    const last = gateway.stats.lastSeq;
    await waitFor(() => gateway.stats.ackedUpTo >= last, 'everything acked again', 10_000);
  });

  it('stores data through a broker outage and resends everything unacked in order, exactly once, when the broker is back', async () => {
    const s = await site();
    let acking = true;
    const ackEverything = (recorder: Recorder<'data'>, through: TestBroker) => {
      recorder.onMessage = (message) => {
        if (acking) void through.publish(modemTopic(s.modemId, 'ack'), JSON.stringify({ upTo: message.seq }));
      };
    };
    ackEverything(s.data, s.broker);
    await sendPlan(s, plan({ onlineRateMs: 200 }));
    const gateway = await s.start();
    await waitFor(() => gateway.stats.ackedUpTo >= 2, 'acked data');

    // The cloud stops acking (it crashed): the broker took the messages, but nobody stored them.
    acking = false;
    const receivedBefore = s.data.messages.length;
    await waitFor(() => s.data.messages.length >= receivedBefore + 2, 'unacked data');
    const ackedUpTo = gateway.stats.ackedUpTo;
    expect(gateway.stats.outboxSize).toBeGreaterThanOrEqual(2);

    // Then the broker goes down too, and data piles up in the outbox meanwhile.
    const port = s.broker.port;
    await s.broker.close();
    await waitFor(() => !gateway.stats.mqttConnected, 'the module to notice');
    const storedBefore = gateway.stats.lastSeq;
    await waitFor(() => gateway.stats.lastSeq >= storedBefore + 3, 'data stored during the outage');
    const outageEnded = Date.now();

    // The broker comes back empty (no retained plan): the module kept polling from its stored plan.
    acking = true;
    let after: Recorder<'data'> | undefined;
    const broker = await TestBroker.start({ [s.modemId]: SECRET }, port, async (fresh) => {
      after = await fresh.record(s.modemId, 'data');
      ackEverything(after, fresh);
    });
    cleanups.push(() => broker.close());
    await waitFor(
      () => gateway.stats.outboxSize <= 1 && gateway.stats.lastSeq > storedBefore + 4,
      'the outbox to drain',
    );

    const resent = after!.messages;
    // Everything after the last ack, once each and in order: what the broker had taken as well as what it missed.
    expect(seqs(resent)).toEqual(range(ackedUpTo + 1, resent.at(-1)!.seq));
    // What the crashed cloud had been sent comes again unchanged, original ts included.
    const unackedBefore = s.data.messages.filter((message) => message.seq > ackedUpTo);
    expect(unackedBefore.length).toBeGreaterThanOrEqual(2);
    expect(resent.slice(0, unackedBefore.length)).toEqual(unackedBefore);
    // The messages read during the outage kept the time they were read, not the time they were sent.
    const readDuringOutage = resent.filter((message) => message.seq > storedBefore && message.seq <= storedBefore + 3);
    expect(readDuringOutage).toHaveLength(3);
    for (const message of readDuringOutage) expect(message.ts).toBeLessThan(outageEnded);
    expect(after!.malformed).toEqual([]);
  });

  it('carries out a write request on the controller and replies ok; a repeated request is not carried out twice', async () => {
    const s = await site();
    await s.start();
    const write: ModemRequest = {
      id: 'cmd-1',
      kind: 'write',
      port: 'port1',
      address: 1,
      writes: [
        { fc: 6, address: 10, value: 1234 },
        { fc: 16, address: 20, values: [1, 2, 3] },
        { fc: 5, address: 3, value: true },
      ],
    };
    expect(await request(s, write)).toEqual({ id: 'cmd-1', ok: true });
    expect(s.controller.register(10)).toBe(1234);
    expect([20, 21, 22].map((address) => s.controller.register(address))).toEqual([1, 2, 3]);
    expect(s.controller.coil(3)).toBe(true);

    const read = await request(s, {
      id: 'read-1',
      kind: 'read',
      port: 'port1',
      address: 1,
      reads: [{ fc: 3, start: 20, count: 3 }],
    });
    expect(read).toMatchObject({ id: 'read-1', ok: true, data: { blocks: [{ fc: 3, start: 20, words: [1, 2, 3] }] } });

    // The same request delivered again gets the same answer, but the controller is not written again.
    s.controller.setRegister(10, 7);
    s.replies.clear();
    expect(await request(s, write)).toEqual({ id: 'cmd-1', ok: true });
    expect(s.controller.register(10)).toBe(7);
  });

  it('never reports success for a write the controller did not take', async () => {
    const silent = await startSilentPeer();
    cleanups.push(() => silent.close());
    const nobody = await unusedPort();
    const s = await site([
      { name: 'hung', host: '127.0.0.1', port: silent.port, controllers: [{ address: 1 }] },
      { name: 'gone', host: '127.0.0.1', port: nobody, controllers: [{ address: 1 }] },
    ]);
    await s.start();
    const write = (id: string, port: string, address = 1): ModemRequest => ({
      id,
      kind: 'write',
      port,
      address,
      writes: [{ fc: 6, address: 10, value: 1 }],
    });

    const hung = await request(s, write('w-hung', 'hung'));
    expect(hung.ok).toBe(false);
    expect(hung.error).toMatch(/no answer from the controller within 300 ms/);

    const gone = await request(s, write('w-gone', 'gone'));
    expect(gone.ok).toBe(false);
    expect(gone.error).toMatch(/connection refused/);

    const unknown = await request(s, write('w-unknown', 'port1', 9));
    expect(unknown).toEqual({ id: 'w-unknown', ok: false, error: 'no controller at port port1 address 9' });

    // an upgrade without the image's hash is refused before anything is fetched
    const ota = await request(s, { id: 'ota-1', kind: 'ota', url: 'https://example.com/fw.bin' });
    expect(ota).toEqual({
      id: 'ota-1',
      ok: false,
      error: 'an upgrade needs url and sha256',
      progress: { stage: 'failed' },
    });

    await s.broker.publish(
      modemTopic(s.modemId, 'request'),
      JSON.stringify({ id: 'bad-1', kind: 'write', port: 'port1' }),
    );
    const bad = await waitFor(() => s.replies.messages.find((reply) => reply.id === 'bad-1'), 'reply to bad-1');
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatch(/^invalid request/);
    expect(s.controller.register(10)).toBe(0);
  });

  it('reports a controller that went away with an error in data, and recovers when it is back', async () => {
    const s = await site();
    s.controller.setRegister(0, 42);
    await sendPlan(s, plan());
    await s.start();
    await waitFor(() => s.data.messages.length >= 2, 'data');

    const port = s.controller.port;
    await s.controller.close();
    const failed = await waitFor(() => s.data.messages.find((message) => message.error), 'data with an error');
    expect(failed.blocks).toEqual([]);
    expect(failed.error).toMatch(/closed|refused/);
    // Still reported every period while it is away, not skipped.
    const errorsSoFar = s.data.messages.filter((message) => message.error).length;
    await waitFor(() => s.data.messages.filter((message) => message.error).length >= errorsSoFar + 3, 'more errors');

    const back = await TestController.start(port);
    cleanups.push(() => back.close());
    back.setRegister(0, 43);
    await waitFor(() => s.data.messages.at(-1)?.blocks[0]?.words?.[0] === 43, 'data again', 3000);
    expect(s.data.messages.at(-1)!.error).toBeUndefined();
    const all = seqs(s.data.messages);
    expect(all).toEqual(range(1, all.length));
  });

  it('switches from the offline to the online rate when the plan says someone is watching', async () => {
    const s = await site();
    await sendPlan(s, plan({ online: false, offlineRateMs: 1000, onlineRateMs: 100 }));
    await s.start();
    await waitFor(() => s.data.messages.length >= 1, 'first data');
    s.data.clear();
    await sleep(1500);
    const offlineCount = s.data.messages.length;
    expect(offlineCount).toBeGreaterThanOrEqual(1);
    expect(offlineCount).toBeLessThanOrEqual(2);

    await sendPlan(s, plan({ online: true, offlineRateMs: 1000, onlineRateMs: 100 }));
    await waitFor(() => s.data.messages.length > offlineCount, 'the first online poll', 300);
    s.data.clear();
    await sleep(1000);
    expect(s.data.messages.length).toBeGreaterThanOrEqual(8);
    expect(s.data.messages.length).toBeLessThanOrEqual(12);
  });

  it('on a restart request replies ok, then reconnects to the broker and announces itself again', async () => {
    const s = await site();
    const hellos = s.hellos;
    const gateway = await s.start();
    expect(await request(s, { id: 'restart-1', kind: 'restart' })).toEqual({ id: 'restart-1', ok: true });
    await waitFor(() => hellos.messages.length === 2 && gateway.stats.mqttConnected, 'second hello');
    expect(gateway.stats.mqttConnections).toBe(2);
  });
});
