// What the station tests share: a server (with its embedded broker) signed in as the demo company's manager, a
// price template body, a cloud module with a layout E PCS, BMS, grid meter and PV inverter that feeds snapshots
// through the real ingestion, and helpers to save templates and add stations.
import { afterAll, beforeAll, expect } from 'vitest';
import {
  layoutEBms,
  layoutEMeter,
  layoutEPcs,
  layoutEPv,
  type PriceTemplateBody,
  type ProtocolDocument,
} from '@genset/protocol';
import { call, createTestApp, signInManager, type TestApp } from '../helpers.ts';
import { encodeBlocks } from './encode.ts';
import { connectFakeModule, type FakeModule } from './fake-module.ts';

export let t: TestApp;
export let manager: string;
export let managerId: number;
export let companyId: number;
const modules: FakeModule[] = [];
let n = 0;

export const post = (token: string, url: string, body: unknown, lang?: string) =>
  call(t.app, 'POST', url, { token, body, ...(lang ? { lang } : {}) });
export const get = (token: string, url: string, query: Record<string, string> = {}, lang?: string) =>
  call(t.app, 'GET', url, { token, query, ...(lang ? { lang } : {}) });

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const PRICES = {
  sharp: { buy: 1.32, sell: 1.25 },
  peak: { buy: 1.05, sell: 0.98 },
  flat: { buy: 0.64, sell: 0.6 },
  valley: { buy: 0.31, sell: 0.28 },
};

export function template(over: Partial<PriceTemplateBody> = {}): PriceTemplateBody {
  return {
    ranges: [
      { start: '00:00', end: '08:00', period: 'valley' },
      { start: '08:00', end: '10:00', period: 'flat' },
      { start: '10:00', end: '14:00', period: 'peak' },
      { start: '14:00', end: '17:00', period: 'sharp' },
      { start: '17:00', end: '22:00', period: 'flat' },
      { start: '22:00', end: '24:00', period: 'valley' },
    ],
    prices: PRICES,
    powerKw: 100,
    chargeCutoffSoc: 95,
    dischargeCutoffSoc: 10,
    socMargin: 3,
    chargeInFlat: false,
    reversePower: { enabled: true, marginKw: 5 },
    demandControl: { enabled: true, limitKw: 400 },
    ...over,
  };
}

export interface Station {
  modemKey: string;
  modemId: number;
  module: FakeModule;
  sets: Record<'pcs' | 'bms' | 'meter' | 'pv', { token: string; id: number; address: number; doc: ProtocolDocument }>;
  seq: number;
}

/** A module with a PCS, a BMS, a grid meter and a PV inverter (layout E) on port1, said hello. */
export async function stationHardware(
  name: string,
  company = companyId,
  owner: number | null = managerId,
): Promise<Station> {
  const modemKey = `ESS${Date.now()}${n++}`;
  const modem = await t.app.devices.fleet.createModem({ companyId: company, modemKey });
  const docs = { pcs: layoutEPcs, bms: layoutEBms, meter: layoutEMeter, pv: layoutEPv } as const;
  const sets = {} as Station['sets'];
  let address = 1;
  for (const [role, doc] of Object.entries(docs) as [keyof typeof docs, ProtocolDocument][]) {
    const set = await t.app.devices.fleet.createGenset({
      companyId: company,
      ownerUserId: owner,
      name: `${name} ${role}`,
      modemId: modem.id,
      port: 'port1',
      address,
      protocolKey: doc.key,
    });
    sets[role] = { token: set.token, id: set.id, address, doc };
    address++;
  }
  t.app.devices.ingest.invalidate();
  const module = await connectFakeModule(`mqtt://127.0.0.1:${t.app.devices.transport.port}`, modemKey, modem.secret);
  modules.push(module);
  await module.publish('hello', {
    model: 'GC-4G',
    firmware: '3.1.0',
    imei: '861234567890123',
    iccid: '',
    controllers: [1, 2, 3, 4].map((a) => ({ port: 'port1', address: a })),
  });
  await until('the hello', async () => {
    const m = await t.app.database.db
      .selectFrom('modem')
      .select('online')
      .where('id', '=', modem.id)
      .executeTakeFirst();
    return m?.online === 1;
  });
  return { modemKey, modemId: modem.id, module, sets, seq: 0 };
}

export const bindings = (s: Station, roles: ('pcs' | 'bms' | 'meter' | 'pv')[] = ['pcs', 'bms', 'meter', 'pv']) =>
  roles.map((role) => ({ token: s.sets[role].token, role }));

/** One snapshot of a station device, stored through ingestion (acked and flushed). */
export async function send(s: Station, role: keyof Station['sets'], values: Record<string, number>, ts: number) {
  const seq = ++s.seq;
  await s.module.publish('data', {
    seq,
    ts,
    port: 'port1',
    address: s.sets[role].address,
    blocks: encodeBlocks(s.sets[role].doc, values),
  });
  await s.module.waitFor('ack', (a: { upTo: number }) => a.upTo >= seq);
  await t.app.devices.ingest.flush();
  return seq;
}

export async function saveTemplate(token: string, body: object, lang?: string) {
  return post(token, '/ems/template/save', body, lang);
}

export async function addStation(s: Station, over: Record<string, unknown> = {}) {
  const res = await post(manager, '/site/add', {
    name: `Station ${n++}`,
    timeZone: 'Asia/Shanghai',
    capacityKwh: 430,
    ratingKw: 200,
    transformerKw: 630,
    modemId: s.modemKey,
    devices: bindings(s),
    ...over,
  });
  expect(res.code, res.msg).toBe(200);
  return res.data.token as string;
}

/** Starts the server before the file's tests; closes the modules and the server after them. */
export function useStationServer() {
  beforeAll(async () => {
    t = await createTestApp({ COMMAND_TIMEOUT_MS: '3000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    ({ token: manager, id: managerId, companyId } = await signInManager(t));
  });
  afterAll(async () => {
    for (const m of modules) await m.close().catch(() => undefined);
    await t.close();
  });
}
