// The ingestion tests' world: one server with its embedded broker and short module rates, the demo company's
// manager and viewer, and helpers that add a set, encode a snapshot and read a set's samples or run a second
// ingestion process on the same database. `useIngestWorld()` starts it for the test file that calls it.
import { afterAll, beforeAll } from 'vitest';
import { layoutS } from '@genset/protocol';
import { call, createTestApp, login, type TestApp } from '../helpers.ts';
import { encodeBlocks } from './encode.ts';
import { createIngest, type IngestOptions } from '../../src/modules/devices/ingest/index.ts';
import { createLocalBus } from '../../src/modules/devices/bus.ts';

export let t: TestApp;
export let baseUrl: string;
export let brokerUrl: string;
export let manager: string;
export let viewer: string;
export let companyId: number;

export const RUNNING = {
  mode: 1,
  engine_state: 9,
  engine_rpm: 1500,
  gen_freq: 50,
  gen_kw: 120,
  gen_on_load: 1,
  fuel_level: 80,
  coolant_temp: 82,
};
export const STOPPED = {
  mode: 2,
  engine_state: 0,
  engine_rpm: 0,
  gen_freq: 0,
  gen_kw: 0,
  gen_on_load: 0,
  fuel_level: 80,
  coolant_temp: 30,
};

export let n = 0;
export async function newSet(name = 'Test set') {
  const modemKey = `TEST${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId, modemKey });
  const set = await t.app.devices.fleet.createGenset({
    companyId,
    ownerUserId: null,
    name,
    modemId: modem.id,
    protocolKey: layoutS.key,
  });
  t.app.devices.ingest.invalidate();
  return { modemKey, secret: modem.secret, modemId: modem.id, ...set };
}

export function data(seq: number, values: Record<string, number>, ts = Date.now()) {
  return { seq, ts, port: 'port1', address: 1, blocks: encodeBlocks(layoutS, values) };
}

export async function samples(gensetId: number) {
  return t.app.database.db
    .selectFrom('sample')
    .select(['seq', 'ts', 'status'])
    .where('genset_id', '=', gensetId)
    .orderBy('seq')
    .execute();
}

/**
 * A second ingestion process on the test's database, as a restarted or another server would be: its transport
 * takes the messages `send` hands it for one module and keeps the acks it publishes.
 */
export function standaloneIngest(modemKey: string, options: Partial<IngestOptions> = {}) {
  const handlers: ((modemKey: string, channel: 'data', payload: Buffer) => void)[] = [];
  const acks: number[] = [];
  /** The last ack of every module it was sent data for (`send(m, as)`). */
  const ackedOf = new Map<string, number>();
  const ingest = createIngest({
    db: t.app.database.db,
    transport: {
      port: undefined,
      onMessage: (h) => handlers.push(h as (typeof handlers)[number]),
      publish: async (modem, _channel, payload) => {
        const upTo = JSON.parse(String(payload)).upTo;
        if (modem === modemKey) acks.push(upTo);
        ackedOf.set(modem, upTo);
      },
      connected: () => true,
      close: async () => undefined,
    },
    protocols: t.app.devices.protocols,
    bus: createLocalBus(),
    log: t.app.log,
    expectedPeriodMs: () => 3_600_000,
    onHello: () => undefined,
    onReply: () => undefined,
    ...options,
  });
  const send = (m: object, as = modemKey) => handlers[0]!(as, 'data', Buffer.from(JSON.stringify(m)));
  return { ingest, acks, send, ackedOf };
}

export function useIngestWorld() {
  beforeAll(async () => {
    t = await createTestApp({ ONLINE_RATE_MS: '500', OFFLINE_RATE_MS: '2000', COMMAND_TIMEOUT_MS: '1500' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    brokerUrl = `mqtt://127.0.0.1:${t.app.devices.transport.port}`;
    manager = await login(t.app, 'manager@example.com', 'Demo#2026');
    viewer = await login(t.app, 'viewer@example.com', 'Demo#2026');
    companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId;
  });
  afterAll(async () => t.close());
}
