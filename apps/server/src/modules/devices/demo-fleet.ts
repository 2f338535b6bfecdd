// The demo fleet: in demo mode the server also runs simulated controllers and their cloud modules, so a
// newcomer sees a live fleet within a minute: a standby set whose mains fail now and then, sets running on
// load, a rental set on a trailer that moves, one drifting towards low fuel, one whose module is offline, and a
// harbour power plant of two sets (one of each layout) on a common bus, ready to be started as a parallel group.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_GROUP_ITEMS, layoutG, layoutS, type GroupKind } from '@genset/protocol';
import {
  ParallelBus,
  startGensetSimulator,
  type GensetSimulator,
  type RunningGensetSimulator,
} from '@genset/simulator';
import { startGateway, type Gateway, type GatewayLogger } from '@genset/gateway';
import type { Db } from '../../db/database.ts';
import { DEMO_ADMIN, DEMO_COMPANY_NAME, demoDepartment } from '../../seed/demo.ts';
import { gensetSearchText } from '../../db/migrations/004-gensets.ts';
import { hashModemSecret } from './embedded-broker.ts';
import { brokerHash } from './broker-credentials.ts';
import type { Fleet } from './fleet.ts';
import { createGroupRepository } from '../groups/repository.ts';
import { setPast, type DemoScenario, type PastEnd } from './backfill.ts';
import type { Ingest } from './ingest/index.ts';
import { demoIccid, demoImsi, giveDemoPlans } from '../iotcard/demo.ts';
import { TrailerDuty } from './demo-trailer.ts';
import { giveDemoMaintenance } from '../maintenance/demo.ts';
import { DEMO_FIRMWARE_RUNNING, giveDemoFirmware } from '../ota/demo.ts';

interface DemoSet {
  modemKey: string;
  name: string;
  layout: 'S' | 'G';
  ratedKw: number;
  position: { lat: number; lon: number };
  timeZone: string;
  scenario: DemoScenario;
}

export const DEMO_SETS: DemoSet[] = [
  {
    modemKey: 'DEMO-0001',
    name: 'City Hospital standby',
    layout: 'S',
    ratedKw: 500,
    position: { lat: 31.2304, lon: 121.4737 },
    timeZone: 'Asia/Shanghai',
    scenario: 'mainsFailures',
  },
  {
    modemKey: 'DEMO-0002',
    name: 'Quarry prime power',
    layout: 'G',
    ratedKw: 320,
    position: { lat: 40.4168, lon: -3.7038 },
    timeZone: 'Europe/Madrid',
    scenario: 'onLoad',
  },
  {
    modemKey: 'DEMO-0003',
    name: 'Rental trailer R-12',
    layout: 'S',
    ratedKw: 150,
    position: { lat: 41.0082, lon: 28.9784 },
    timeZone: 'Europe/Istanbul',
    scenario: 'trailer',
  },
  {
    modemKey: 'DEMO-0004',
    name: 'Telecom tower T-7',
    layout: 'G',
    ratedKw: 40,
    position: { lat: 55.7558, lon: 37.6173 },
    timeZone: 'Europe/Moscow',
    scenario: 'lowFuel',
  },
  {
    modemKey: 'DEMO-0005',
    name: 'Data centre backup',
    layout: 'S',
    ratedKw: 800,
    position: { lat: 25.033, lon: 121.5654 },
    timeZone: 'Asia/Taipei',
    scenario: 'standby',
  },
  {
    modemKey: 'DEMO-0006',
    name: 'Farm irrigation pump',
    layout: 'G',
    ratedKw: 60,
    position: { lat: 51.5072, lon: -0.1276 },
    timeZone: 'Europe/London',
    scenario: 'offline',
  },
  {
    modemKey: 'DEMO-0007',
    name: 'Harbour plant G1',
    layout: 'S',
    ratedKw: 400,
    position: { lat: 39.4445, lon: -0.3166 },
    timeZone: 'Europe/Madrid',
    scenario: 'parallel',
  },
  {
    modemKey: 'DEMO-0008',
    name: 'Harbour plant G2',
    layout: 'G',
    ratedKw: 400,
    position: { lat: 39.4447, lon: -0.3162 },
    timeZone: 'Europe/Madrid',
    scenario: 'parallel',
  },
];

/** The demo's groups, by their members' module ids: the harbour plant's bus, and two standby sites watched as one. */
export const DEMO_GROUPS: { name: string; kind: GroupKind; members: string[] }[] = [
  { name: 'Harbour power plant', kind: 'parallel', members: ['DEMO-0007', 'DEMO-0008'] },
  { name: 'Standby sites, East Asia', kind: 'multi', members: ['DEMO-0001', 'DEMO-0005'] },
];

/** The harbour plant's load, shared by the sets on its bus. */
const HARBOUR_LOAD_KW = 520;

export { TRAILER_KMH, TRAILER_PATH } from './demo-trailer.ts';

function demoNumber(index: number): string {
  return `DPC-${String(index + 1).padStart(3, '0')}`;
}

/** Plate data of a demo set, as the set's edit page would hold it (spec 3). */
export function demoDetails(demo: DemoSet, index: number): Record<string, unknown> {
  const small = demo.ratedKw < 100;
  const layoutSStyle = demo.layout === 'S';
  const ratedVoltageV = 400;
  const powerFactor = 0.8;
  const kva = demo.ratedKw / powerFactor;
  return {
    brand: 'Demo Power',
    model: `DP-${Math.round(kva)}`,
    factoryNumber: `DP${2023 + (index % 3)}${String(4711 + index * 37).padStart(6, '0')}`,
    manufacturer: 'Demo Power Manufacturing Co.',
    ratedPowerKw: demo.ratedKw,
    ratedSpeedRpm: 1500,
    ratedVoltageV,
    ratedFrequencyHz: 50,
    ratedCurrentA: Math.round((kva * 1000) / (Math.sqrt(3) * ratedVoltageV)),
    // the simulated controllers run a 24 V starting system (rest 25.4 V, charging 27.6 V, low-battery warning 22 V)
    ratedBatteryVoltageV: 24,
    ratedChargingVoltageV: 27.6,
    productionDate: `${2023 + (index % 3)}-0${(index % 9) + 1}-15`,
    phases: 3,
    weightKg: Math.round(800 + demo.ratedKw * 9),
    size: small ? '1900 × 950 × 1300 mm' : `${3000 + Math.round(demo.ratedKw)} × 1500 × 2000 mm`,
    longitude: demo.position.lon,
    latitude: demo.position.lat,
    altitudeM: 20 + index * 35,
    iotCardNumber: `8986000000000000${String(index).padStart(4, '0')}`,
    // the trailer's road takes it beyond its 3 km fence to its far site and back (about every half hour)
    fenceRadiusM: demo.scenario === 'trailer' ? 3000 : 200,
    controllerBrand: layoutSStyle ? 'Smartgen' : 'Deep Sea Electronics',
    controllerModel: layoutSStyle ? 'HGM6120' : 'DSE7320',
    controllerSeries: layoutSStyle ? 'HGM6100' : 'DSE7300',
    modemModel: 'GC-4G',
    baudRate: 9600,
    powerOnCount: 300 + index * 57,
    fuelTheftDetection: demo.scenario === 'trailer' || demo.scenario === 'lowFuel',
    maxFuelL: Math.round(100 + demo.ratedKw * 1.6),
    maxFuelDelayS: 30,
    engine: {
      brand: small ? 'Perkins' : 'Cummins',
      model: small ? '1104A-44TG2' : demo.ratedKw >= 500 ? 'QSK19-G4' : 'QSL9-G5',
      number: `E${String(81_230_000 + index * 1013)}`,
    },
    alternator: {
      brand: 'Stamford',
      model: small ? 'UCI224F' : demo.ratedKw >= 500 ? 'HCI544F' : 'HCI444E',
      number: `A${String(52_700_000 + index * 877)}`,
    },
  };
}

/**
 * Every demo account finds the demo sets in "My gensets": the manager owns them; the operator and the
 * personal user hold control rights (the personal user on every other set, view on the rest), the viewer
 * view rights, the platform administrator a view subscription (it manages everything anyway).
 */
async function subscribeDemoAccounts(db: Db, gensetId: number, index: number) {
  const rights: [string, 'view' | 'control'][] = [
    ['operator@example.com', 'control'],
    ['viewer@example.com', 'view'],
    ['13800000001', index % 2 === 0 ? 'control' : 'view'],
    [DEMO_ADMIN.account, 'view'],
  ];
  for (const [account, right] of rights) {
    const user = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
    if (!user) continue;
    await db
      .insertInto('subscription')
      .values({ genset_id: gensetId, user_id: user.id, rights: right, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['user_id', 'genset_id']).doNothing())
      .execute();
  }
}

/**
 * The demo sets that belong to a department of their own (the others belong to their owner's, the manager's
 * north region): the north region's operator (department scope) reaches those of the region, not those of
 * headquarters or of the service team below the region (a department-tree scope would).
 */
const DEMO_SET_DEPARTMENTS: Record<string, string> = {
  'City Hospital standby': 'Headquarters',
  'Data centre backup': 'Headquarters',
  'Quarry prime power': 'North region',
  'Telecom tower T-7': 'North region',
  'Farm irrigation pump': 'North region',
  'Rental trailer R-12': 'Service team',
};

/**
 * A demo module's modem and secret: the secret is random, made once per installation and kept with the modem
 * (hashed for the broker like any module's, and as it is so a restart can sign in again). A demo modem from
 * before, without one, is given a new one (its old secret stops working).
 */
export async function demoModule(
  db: Db,
  fleet: Fleet,
  companyId: number,
  modemKey: string,
): Promise<{ modemId: number; secret: string }> {
  const modem = await db
    .selectFrom('modem')
    .select(['id', 'demo_secret'])
    .where('modem_key', '=', modemKey)
    .executeTakeFirst();
  if (modem?.demo_secret) return { modemId: modem.id, secret: modem.demo_secret };
  const secret = randomBytes(24).toString('base64url');
  const modemId = modem ? modem.id : (await fleet.createModem({ companyId, modemKey, secret })).id;
  await db
    .updateTable('modem')
    .set({ secret_hash: hashModemSecret(secret, modemKey), broker_hash: brokerHash(secret), demo_secret: secret })
    .where('id', '=', modemId)
    .execute();
  return { modemId, secret };
}

function gatewayLogger(log: FastifyBaseLogger, modemKey: string): GatewayLogger {
  const child = log.child({ module: modemKey });
  return {
    info: (message) => child.debug(message),
    warn: (message) => child.info(message),
    error: (message) => child.warn(message),
  };
}

/** The demo groups, once: a group of that name already there (perhaps changed by a user) is left alone. */
async function seedDemoGroups(db: Db, companyId: number) {
  const groups = createGroupRepository(db);
  for (const group of DEMO_GROUPS) {
    if (await groups.nameTaken(companyId, group.name, null)) continue;
    const sets = await db
      .selectFrom('genset as g')
      .innerJoin('modem as m', 'm.id', 'g.modem_id')
      .select(['g.id', 'm.modem_key'])
      .where('m.modem_key', 'in', group.members)
      .where('g.deleted_at', 'is', null)
      .execute();
    const ids = group.members.map((key) => sets.find((s) => s.modem_key === key)?.id);
    if (ids.some((id) => id === undefined)) continue;
    const taken = await groups.takenBy(ids as number[], group.kind, null);
    if (taken.length > 0) continue;
    await groups.save({
      id: null,
      companyId,
      name: group.name,
      kind: group.kind,
      items: [...DEFAULT_GROUP_ITEMS],
      gensetIds: ids as number[],
    });
  }
}

export interface DemoFleet {
  /** The simulated controllers, named by their module's id (DEMO-0001 …), for a control API in tests and demos. */
  simulators: readonly RunningGensetSimulator[];
  /** Settles once the sets that had no past have theirs stored and are live. */
  backfilled: Promise<void>;
  close(): Promise<void>;
}

/**
 * The share of its rating a demo set has given on average over its life (its counters agree with it: kWh =
 * run hours × rated kW × this share), within a diesel set's usual 40–70 %.
 */
export const DEMO_LIFE_LOAD_FACTOR = 0.55;

/** The controller of a demo set as it is at the start of its story (live, or the first day of its past). */
export function simulatorOptions(demo: DemoSet, index: number) {
  const runHours = 1200 + index * 431;
  return {
    id: demo.modemKey,
    layout: demo.layout,
    unitId: 1,
    seed: 100 + index,
    mode: demo.scenario === 'parallel' ? ('manual' as const) : ('auto' as const),
    settings: { rated_kw: demo.ratedKw },
    loadKw: demo.ratedKw * 0.6,
    fuelPercent: demo.scenario === 'lowFuel' ? 24 : 85,
    position: demo.position,
    runHours,
    starts: 300 + index * 57,
    kwh: Math.round(runHours * demo.ratedKw * DEMO_LIFE_LOAD_FACTOR),
    // the controller's service countdown (250 h) stands at 70 h left
    hoursSinceService: 180,
  };
}

/** Where a demo set stands: off the mains (prime power, trailer, remote tower, island plant), parked. */
export function prepareDemoSet(sim: GensetSimulator, demo: DemoSet) {
  if (['onLoad', 'trailer', 'lowFuel', 'parallel'].includes(demo.scenario)) sim.cutMains();
}

/** A demo module that has sent nothing yet (a fresh data directory) is given its past. */
async function needsPast(db: Db, modemId: number): Promise<boolean> {
  const modem = await db.selectFrom('modem').select('last_seq').where('id', '=', modemId).executeTakeFirstOrThrow();
  return modem.last_seq === 0;
}

export async function startDemoFleet(opts: {
  db: Db;
  fleet: Fleet;
  brokerPort: number;
  dataDir: string;
  log: FastifyBaseLogger;
  invalidate: () => void;
  ingest: Pick<Ingest, 'replay' | 'absent'>;
  /** Days of past a demo set without any is given (0: none). */
  backfillDays: number;
}): Promise<DemoFleet> {
  const { db, fleet, log } = opts;
  const company = await db.selectFrom('company').select('id').where('name', '=', DEMO_COMPANY_NAME).executeTakeFirst();
  if (!company) return { simulators: [], backfilled: Promise.resolve(), close: async () => undefined };
  const manager = await db
    .selectFrom('users')
    .select('id')
    .where('account', '=', 'manager@example.com')
    .executeTakeFirst();

  const sims: RunningGensetSimulator[] = [];
  const gateways: Gateway[] = [];
  const timers: NodeJS.Timeout[] = [];
  let closing = false;
  // The harbour plant is an island: no mains, its sets in MANUAL at rest until someone starts the group.
  const harbourBus = new ParallelBus({ loadKw: HARBOUR_LOAD_KW, sharing: 'isochronous' });

  /** The demo set's controller and module, live from now on; `past` is where its backfilled days ended. */
  async function startLive(demo: DemoSet, index: number, secret: string, past?: { end: PastEnd; seqs: number }) {
    const sim = await startGensetSimulator({
      ...simulatorOptions(demo, index),
      port: 0,
      host: '127.0.0.1',
      realtime: true,
      timeScale: 1,
      ...(past ? past.end : {}),
    });
    sims.push(sim);
    prepareDemoSet(sim, demo);
    if (demo.scenario === 'parallel') sim.joinBus(harbourBus);
    if (demo.scenario === 'mainsFailures') {
      // The mains fail for two minutes every ten: the set starts, takes the load, and stops after cooling.
      let cycle = 0;
      timers.push(
        setInterval(() => {
          cycle = (cycle + 1) % 10;
          if (cycle === 1) sim.cutMains();
          if (cycle === 3) sim.restoreMains();
        }, 60_000),
      );
    }
    if (demo.scenario === 'trailer') {
      // live, the trailer works at its yard, stops, drives to a site beyond its fence, works there and comes back
      const duty = new TrailerDuty(sim.model);
      timers.push(setInterval(() => duty.step(1000), 1000));
    }
    if (demo.scenario === 'lowFuel') {
      // Refuelled once the low-fuel shutdown has happened and a while has passed, so the story repeats.
      timers.push(
        setInterval(() => {
          if ((sim.state.values?.fuel_level ?? 100) < 6) sim.refuel(30);
        }, 15 * 60_000),
      );
    }
    for (const t of timers) t.unref();
    const dataDir = join(opts.dataDir, 'demo-modules', demo.modemKey);
    mkdirSync(dataDir, { recursive: true });
    const gateway = await startGateway(
      {
        modemId: demo.modemKey,
        secret,
        brokerUrl: `mqtt://127.0.0.1:${opts.brokerPort}`,
        dataDir,
        model: 'GC-4G',
        firmware: DEMO_FIRMWARE_RUNNING,
        imei: `8600000000${String(index).padStart(5, '0')}`,
        iccid: demoIccid(index),
        imsi: demoImsi(index),
        gps: demo.position,
        ports: [{ name: 'port1', host: '127.0.0.1', port: sim.port!, controllers: [{ address: 1 }] }],
        // the seqs of its past are taken: the module numbers on above them
        ...(past ? { seqsTakenUpTo: past.seqs } : {}),
      },
      // the trailer's module reads its GPS receiver (the simulated set's position on its road)
      {
        logger: gatewayLogger(log, demo.modemKey),
        ...(demo.scenario === 'trailer' ? { readGps: () => sim.state.position } : {}),
      },
    );
    gateways.push(gateway);
  }

  // before any module says hello: a card's first reading must find its plan there
  await giveDemoPlans(db, DEMO_SETS, opts.backfillDays);
  const withPast: { demo: DemoSet; index: number; secret: string; modemId: number }[] = [];
  for (const [index, demo] of DEMO_SETS.entries()) {
    const { modemId, secret } = await demoModule(db, fleet, company.id, demo.modemKey);
    const modem = { id: modemId };
    const existing = await db
      .selectFrom('genset')
      .select(['id', 'number'])
      .where('modem_id', '=', modem.id)
      .executeTakeFirst();
    if (!existing) {
      const department = DEMO_SET_DEPARTMENTS[demo.name];
      const set = await fleet.createGenset({
        companyId: company.id,
        ownerUserId: manager?.id ?? null,
        departmentId: department ? ((await demoDepartment(db, company.id, department)) ?? null) : null,
        name: demo.name,
        number: demoNumber(index),
        modemId: modem.id,
        protocolKey: demo.layout === 'S' ? layoutS.key : layoutG.key,
        timeZone: demo.timeZone,
        details: demoDetails(demo, index),
      });
      await subscribeDemoAccounts(db, set.id, index);
    } else if (existing.number === null) {
      // A demo fleet written before sets had their full details: fill them in once, and let every demo
      // account find the sets in "My gensets".
      const name = await db.selectFrom('genset').select('name').where('id', '=', existing.id).executeTakeFirstOrThrow();
      await db
        .updateTable('genset')
        .set({
          number: demoNumber(index),
          search_text: gensetSearchText(name.name, demoNumber(index)),
          details: JSON.stringify(demoDetails(demo, index)),
        })
        .where('id', '=', existing.id)
        .execute();
      await subscribeDemoAccounts(db, existing.id, index);
    }
    // the offline set is given its last data before it went quiet even without days of past
    if ((opts.backfillDays > 0 || demo.scenario === 'offline') && (await needsPast(db, modem.id))) {
      withPast.push({ demo, index, secret, modemId: modem.id });
      continue;
    }
    if (demo.scenario !== 'offline') await startLive(demo, index, secret);
  }
  await seedDemoGroups(db, company.id);
  // the module images and the past upgrade that brought the fleet to the one it runs
  const demoSets = await db
    .selectFrom('genset as g')
    .innerJoin('modem as m', 'm.id', 'g.modem_id')
    .select(['g.id', 'm.id as modemId'])
    .where(
      'm.modem_key',
      'in',
      DEMO_SETS.map((d) => d.modemKey),
    )
    .where('g.deleted_at', 'is', null)
    .orderBy('g.id')
    .execute();
  await giveDemoFirmware({
    db,
    dataDir: opts.dataDir,
    companyId: company.id,
    createdBy: manager?.id ?? null,
    gensets: demoSets,
  });
  opts.invalidate();
  log.info({ sets: DEMO_SETS.length, live: gateways.length, backfilling: withPast.length }, 'demo fleet running');

  // The sets without a past yet get theirs in the background, one after the other, each going live as soon as
  // its past is stored; the server answers meanwhile.
  const backfill = (async () => {
    await pastOfSets();
    if (closing) return;
    // the maintenance plans agree with what the sets' controllers and alarm history say
    await giveDemoMaintenance(
      db,
      DEMO_SETS.map((demo, index) => {
        const o = simulatorOptions(demo, index);
        return { modemKey: demo.modemKey, scenario: demo.scenario, fallback: o };
      }),
    );
  })().catch((err: unknown) => log.error({ err }, 'demo history not backfilled'));

  async function pastOfSets() {
    if (withPast.length === 0) return;
    const startedAt = Date.now();
    const to = startedAt;
    const from = to - opts.backfillDays * 24 * 60 * 60_000;
    let samples = 0;
    for (const { demo, index, secret } of withPast) {
      if (closing) return;
      // the farm's module went quiet two days ago (its set is the demo's offline one); without days of past it
      // still has its last hour before then, so its last data is two days old
      const quietAt = to - 2 * 24 * 60 * 60_000;
      const start = opts.backfillDays > 0 ? from : quietAt - 60 * 60_000;
      const end = demo.scenario === 'offline' ? Math.max(start, quietAt) : to;
      const past = setPast({
        options: simulatorOptions(demo, index),
        prepare: (sim) => prepareDemoSet(sim, demo),
        scenario: demo.scenario,
        from: start,
        to: end,
      });
      try {
        await opts.ingest.replay(demo.modemKey, past.snapshots);
        samples += past.count;
      } catch (err) {
        log.error({ err, module: demo.modemKey }, 'demo history of a set not backfilled');
      }
      if (closing) return;
      if (demo.scenario === 'offline') opts.ingest.absent(demo.modemKey);
      // its past's seqs are taken whether or not all of it was stored
      else await startLive(demo, index, secret, { end: past.end(), seqs: past.count });
    }
    log.info(
      { sets: withPast.length, days: opts.backfillDays, samples, ms: Date.now() - startedAt },
      'demo history backfilled',
    );
  }

  return {
    simulators: sims,
    backfilled: backfill,
    async close() {
      closing = true;
      await backfill;
      for (const t of timers) clearInterval(t);
      await Promise.allSettled(gateways.map((g) => g.close()));
      await Promise.allSettled(sims.map((s) => s.close()));
    },
  };
}
