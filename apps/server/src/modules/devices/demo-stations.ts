// The demo's storage stations: two simulated sites (PCS, BMS, grid meter, and PV at the second) behind a cloud
// module each, run by their module's own EMS under different strategies: an industrial park shifting its energy
// by time of use, and a solar logistics hub shaving its demand peaks without ever exporting. On a fresh data
// directory each first lives its last days faster than real time (station-past.ts), so the statistics pages are
// full at once; its module is then sent its tactic through the same call the console uses.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  LAYOUT_E_DOCUMENTS,
  PCS_WATCHDOG_MS,
  buyAndSell,
  priceTemplateBody,
  TWO_CYCLE_DAY,
  type EmsStrategy,
  type LayoutEDevice,
  type EmsStrategyParams,
  type PriceTemplateBodyInput,
} from '@genset/protocol';
import { ESS_UNIT_IDS, EssSiteSimulator, ModbusTcpHost } from '@genset/simulator';
import { startGateway, type Gateway, type GatewayLogger } from '@genset/gateway';
import type { Db } from '../../db/database.ts';
import { DEMO_COMPANY_NAME, demoDepartment } from '../../seed/demo.ts';
import type { Fleet } from './fleet.ts';
import type { Ingest } from './ingest/index.ts';
import { demoModule } from './demo-fleet.ts';
import { stationPast } from './station-past.ts';
import type { SiteService } from '../sites/service.ts';

interface DemoStation {
  modemKey: string;
  name: string;
  address: string;
  position: { lat: number; lon: number };
  timeZone: string;
  currency: string;
  ratingKw: number;
  capacityKwh: number;
  transformerKw: number;
  loadBaseKw: number;
  loadPeakKw: number;
  pvRatedKw: number;
  strategy: EmsStrategy;
  params: EmsStrategyParams;
  templateName: string;
  template: PriceTemplateBodyInput;
}

export const DEMO_STATIONS: DemoStation[] = [
  {
    modemKey: 'DEMO-E001',
    name: 'Industrial park storage',
    address: 'Lingang industrial park, Shanghai',
    position: { lat: 30.9, lon: 121.93 },
    timeZone: 'Asia/Shanghai',
    currency: 'CNY',
    ratingKw: 250,
    capacityKwh: 500,
    transformerKw: 400,
    loadBaseKw: 90,
    loadPeakKw: 320,
    pvRatedKw: 0,
    strategy: 'timeOfUse',
    params: {},
    templateName: 'Shanghai industrial time of use',
    // a two-cycle day: charged in the night valley and the midday flat, emptied in the morning and evening peaks
    template: {
      ranges: TWO_CYCLE_DAY.ranges,
      prices: buyAndSell(TWO_CYCLE_DAY.prices),
      powerKw: 200,
      chargeCutoffSoc: 95,
      dischargeCutoffSoc: 10,
      socMargin: 5,
      chargeInFlat: true,
      reversePower: { enabled: true, marginKw: 5 },
      demandControl: { enabled: false, limitKw: 400 },
    },
  },
  {
    modemKey: 'DEMO-E002',
    name: 'Solar logistics hub storage',
    address: 'Polígono Fuente del Jarro, Valencia',
    position: { lat: 39.5225, lon: -0.4152 },
    timeZone: 'Europe/Madrid',
    currency: 'EUR',
    ratingKw: 150,
    capacityKwh: 300,
    transformerKw: 250,
    loadBaseKw: 60,
    loadPeakKw: 230,
    pvRatedKw: 200,
    strategy: 'peakShaving',
    params: { rechargeHeadroomKw: 20 },
    templateName: 'Valencia 3.0TD tariff',
    template: {
      ranges: [
        { start: '00:00', end: '08:00', period: 'valley' },
        { start: '08:00', end: '10:00', period: 'flat' },
        { start: '10:00', end: '14:00', period: 'peak' },
        { start: '14:00', end: '18:00', period: 'flat' },
        { start: '18:00', end: '22:00', period: 'peak' },
        { start: '22:00', end: '24:00', period: 'flat' },
      ],
      prices: {
        sharp: { buy: 0.24, sell: 0.24 },
        peak: { buy: 0.21, sell: 0.21 },
        flat: { buy: 0.14, sell: 0.14 },
        valley: { buy: 0.09, sell: 0.09 },
      },
      powerKw: 120,
      chargeCutoffSoc: 95,
      dischargeCutoffSoc: 15,
      socMargin: 5,
      chargeInFlat: false,
      reversePower: { enabled: true, marginKw: 2 },
      demandControl: { enabled: true, limitKw: 140 },
    },
  },
];

const DEVICE_NAMES: Record<LayoutEDevice, string> = {
  pcs: 'PCS',
  bms: 'BMS',
  meter: 'Grid meter',
  pv: 'PV inverter',
};

/** The templates as the strategies read them (defaults filled in). */
const DEMO_TEMPLATES = DEMO_STATIONS.map((s) => priceTemplateBody.parse(s.template));

const PORT = 'port1';
const DAY_MS = 86_400_000;

function gatewayLogger(log: FastifyBaseLogger, modemKey: string): GatewayLogger {
  const child = log.child({ module: modemKey });
  return {
    info: (message) => child.debug(message),
    warn: (message) => child.info(message),
    error: (message) => child.warn(message),
  };
}

export interface DemoStations {
  /** The simulated sites, by their module's id (DEMO-E001 …), for tests and demos. */
  sites: ReadonlyMap<string, EssSiteSimulator>;
  /** Settles once every station has its past and its module runs its tactic (or could not be sent it). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startDemoStations(opts: {
  db: Db;
  fleet: Fleet;
  sites: SiteService;
  brokerPort: number;
  dataDir: string;
  log: FastifyBaseLogger;
  invalidate: () => void;
  ingest: Pick<Ingest, 'replay'>;
  /** Days of past a fresh station is given (0: none). */
  backfillDays: number;
  /** Waited for before the past is made (the demo sets' own past), so the two do not compete. */
  after: Promise<void>;
}): Promise<DemoStations> {
  const { db, fleet, log } = opts;
  const sims = new Map<string, EssSiteSimulator>();
  const company = await db.selectFrom('company').select('id').where('name', '=', DEMO_COMPANY_NAME).executeTakeFirst();
  if (!company) return { sites: sims, ready: Promise.resolve(), close: async () => undefined };
  const manager = await db
    .selectFrom('users')
    .select('id')
    .where('account', '=', 'manager@example.com')
    .executeTakeFirst();

  const gateways: Gateway[] = [];
  const hosts: ModbusTcpHost[] = [];
  let closing = false;

  const prepared: { demo: DemoStation; secret: string; token: string; templateId: number; fresh: boolean }[] = [];
  for (const demo of DEMO_STATIONS) {
    const { modemId, secret } = await demoModule(db, fleet, company.id, demo.modemKey);
    const modem = await db
      .selectFrom('modem')
      .select(['id', 'last_seq'])
      .where('id', '=', modemId)
      .executeTakeFirstOrThrow();
    const existing = await db
      .selectFrom('site')
      .select(['token', 'template_id'])
      .where('modem_id', '=', modem.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (existing) {
      prepared.push({
        demo,
        secret,
        token: existing.token,
        templateId: existing.template_id ?? 0,
        fresh: modem.last_seq === 0,
      });
      continue;
    }
    // The template is in force from before the past begins, so the past's energy is priced by it.
    const template = await opts.sites.createTemplate({
      companyId: company.id,
      name: demo.templateName,
      body: DEMO_TEMPLATES[DEMO_STATIONS.indexOf(demo)]!,
      validFrom: Date.now() - (opts.backfillDays + 1) * DAY_MS,
    });
    const devices: { gensetId: number; role: LayoutEDevice }[] = [];
    for (const device of ['pcs', 'bms', 'meter', 'pv'] as const) {
      if (device === 'pv' && demo.pvRatedKw <= 0) continue;
      const set = await fleet.createGenset({
        companyId: company.id,
        ownerUserId: null,
        name: `${demo.name} · ${DEVICE_NAMES[device]}`,
        modemId: modem.id,
        port: PORT,
        address: ESS_UNIT_IDS[device],
        protocolKey: LAYOUT_E_DOCUMENTS[device].key,
        timeZone: demo.timeZone,
      });
      devices.push({ gensetId: set.id, role: device });
    }
    const station = await opts.sites.createStation({
      companyId: company.id,
      ownerUserId: manager?.id ?? null,
      name: demo.name,
      address: demo.address,
      lat: demo.position.lat,
      lon: demo.position.lon,
      timeZone: demo.timeZone,
      currency: demo.currency,
      capacityKwh: demo.capacityKwh,
      ratingKw: demo.ratingKw,
      transformerKw: demo.transformerKw,
      buildDate: '2025-06-01',
      modemId: modem.id,
      devices,
      templateId: template.id,
      // the first station is the north region's (the other its owner's, the manager's: the region too)
      departmentId: demo === DEMO_STATIONS[0] ? ((await demoDepartment(db, company.id, 'North region')) ?? null) : null,
    });
    prepared.push({ demo, secret, token: station.token, templateId: template.id, fresh: true });
  }
  opts.invalidate();

  function simulator(demo: DemoStation, index: number, startTs: number) {
    return new EssSiteSimulator({
      id: demo.modemKey,
      seed: 500 + index,
      realtime: false,
      startTs,
      timeZone: demo.timeZone,
      latitude: demo.position.lat,
      longitude: demo.position.lon,
      pcsRatingKw: demo.ratingKw,
      capacityKwh: demo.capacityKwh,
      loadBaseKw: demo.loadBaseKw,
      loadPeakKw: demo.loadPeakKw,
      pvRatedKw: demo.pvRatedKw,
      initialSoc: 55,
      // each day its own sky and demand, drawn from the seed: the statistics differ from day to day
      dailyWeather: true,
      // the past advances a minute at a time; live, the clock ticks every 100 ms anyway
      maxStepMs: 10_000,
    });
  }

  async function startLive(entry: (typeof prepared)[number], site: EssSiteSimulator, seqsTaken: number) {
    const { demo } = entry;
    site.advanceTo(Date.now());
    const host = await ModbusTcpHost.listen({ port: 0, host: '127.0.0.1' });
    hosts.push(host);
    site.attachTo(host);
    site.startClock();
    sims.set(demo.modemKey, site);
    const dataDir = join(opts.dataDir, 'demo-modules', demo.modemKey);
    mkdirSync(dataDir, { recursive: true });
    const gateway = await startGateway(
      {
        modemId: demo.modemKey,
        secret: entry.secret,
        brokerUrl: `mqtt://127.0.0.1:${opts.brokerPort}`,
        dataDir,
        model: 'GC-4G-E',
        firmware: '2.4.1',
        imei: `86000000009${String(sims.size).padStart(4, '0')}`,
        iccid: `898600000000009${String(sims.size).padStart(5, '0')}`,
        gps: demo.position,
        ports: [
          {
            name: PORT,
            host: '127.0.0.1',
            port: host.port!,
            controllers: Object.values(site.unitIds).map((address) => ({ address })),
          },
        ],
        ...(seqsTaken > 0 ? { seqsTakenUpTo: seqsTaken } : {}),
      },
      { logger: gatewayLogger(log, demo.modemKey), ems: { station: true } },
    );
    gateways.push(gateway);
    // A module that already runs a tactic keeps it; a fresh one is sent the station's. Until it runs one nothing
    // writes the PCS's setpoint, so its watchdog waits for that (its own past ran without it too).
    if (entry.fresh) {
      site.setPcsSetting('watchdog_time', 0);
      await sendTactic(entry, gateway);
      site.setPcsSetting('watchdog_time', PCS_WATCHDOG_MS / 1000);
    }
  }

  async function sendTactic(entry: (typeof prepared)[number], gateway: Gateway) {
    const deadline = Date.now() + 60_000;
    while (!closing && Date.now() < deadline) {
      if (gateway.stats.mqttConnected) {
        try {
          await opts.sites.sendTacticAsServer({
            token: entry.token,
            strategy: entry.demo.strategy,
            params: entry.demo.params,
            templateId: entry.templateId,
          });
          return;
        } catch (err) {
          log.debug({ err, module: entry.demo.modemKey }, 'demo tactic not sent yet');
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  const ready = (async () => {
    await opts.after;
    const startedAt = Date.now();
    let samples = 0;
    for (const [index, entry] of prepared.entries()) {
      if (closing) return;
      const days = entry.fresh ? opts.backfillDays : 0;
      const site = simulator(entry.demo, index, Date.now() - days * DAY_MS);
      let seqs = 0;
      if (days > 0) {
        const past = stationPast({
          site,
          tactic: {
            strategy: entry.demo.strategy,
            params: entry.demo.params,
            template: DEMO_TEMPLATES[index]!,
            timeZone: entry.demo.timeZone,
          },
          to: Date.now(),
          port: PORT,
          // on once the live module runs its tactic
          watchdogAfter: false,
          stop: () => closing,
        });
        try {
          await opts.ingest.replay(entry.demo.modemKey, past.snapshots);
          samples += past.count();
        } catch (err) {
          log.error({ err, module: entry.demo.modemKey }, 'demo history of a station not backfilled');
        }
        seqs = past.count();
      }
      if (closing) return;
      await startLive(entry, site, seqs);
    }
    log.info({ stations: prepared.length, samples, ms: Date.now() - startedAt }, 'demo stations running');
  })().catch((err: unknown) => log.error({ err }, 'demo stations not started'));

  return {
    sites: sims,
    ready,
    async close() {
      closing = true;
      await ready;
      await Promise.allSettled(gateways.map((g) => g.close()));
      for (const site of sims.values()) site.stopClock();
      await Promise.allSettled(hosts.map((h) => h.close()));
    },
  };
}
