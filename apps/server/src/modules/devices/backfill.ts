// The demo's past: on a fresh start, each demo set's simulated controller lives its last days faster than real
// time (the same model the live demo runs, stepped instead of clocked), read as its cloud module would read it
// every ten minutes, and those snapshots go through the real decoder and ingestion, so that samples, status
// changes, alarms and hour/day rollups are made exactly as live ones are. Each set has a story for those days
// (mains failures, a weekly test run, a fuel delivery that came late, a service that fell due); the live set
// then carries on from where its past ended: its counters, fuel and seqs.
import { derivePollBlocks, type ModemData, type ModemDataBlock } from '@genset/protocol';
import { GensetSimulator, type GensetSimulatorOptions } from '@genset/simulator';

/** How often the past is read: a module's offline rate, enough for the day and hour rollups and the charts. */
export const BACKFILL_PERIOD_MS = 10 * 60_000;
const STEPS_PER_DAY = (24 * 60 * 60_000) / BACKFILL_PERIOD_MS;
/** The model's own step while backfilling: coarser than live (100 ms), still finer than any of its timers. */
const MODEL_STEP_MS = 2000;

export type DemoScenario = 'mainsFailures' | 'onLoad' | 'trailer' | 'lowFuel' | 'standby' | 'offline' | 'parallel';

/** What happens to a set at one reading of its past: `step` counts readings since the past began. */
type Story = (sim: GensetSimulator, step: number, random: () => number) => void;

function alarmActive(sim: GensetSimulator, code: string): boolean {
  return sim.model.isAlarmActive(code);
}

/** Fuel comes when the tank runs low, as a site's supplier would bring it. */
function fuelDeliveries(belowPercent: number, toPercent: number): Story {
  return (sim) => {
    if ((sim.state.values.fuel_level ?? 100) < belowPercent) sim.refuel(toPercent);
  };
}

/** A service falls due now and then; the engineer comes a day later and the set's service counter restarts. */
function servicing(): Story {
  let dueSince: number | null = null;
  return (sim, step) => {
    if (!alarmActive(sim, 'maintenance_due')) {
      dueSince = null;
      return;
    }
    dueSince ??= step;
    if (step - dueSince >= STEPS_PER_DAY) sim.clearFault('maintenance_due');
  };
}

/** A fault that comes on one day at one hour and is gone (and reset) some hours later. */
function episode(code: string, day: number, hour: number, hours: number): Story {
  const from = day * STEPS_PER_DAY + hour * 6;
  const to = from + hours * 6;
  return (sim, step) => {
    if (step === from) sim.injectFault(code);
    if (step === to) {
      sim.clearFault(code);
      sim.command('fault_reset');
    }
  };
}

function all(...stories: Story[]): Story {
  return (sim, step, random) => {
    for (const story of stories) story(sim, step, random);
  };
}

/** The mains fail on about half the days, at any hour, for 20 minutes to two hours. */
function mainsFailures(): Story {
  let cutAt: number | null = null;
  let backAt: number | null = null;
  return (sim, step, random) => {
    if (step % STEPS_PER_DAY === 0 && cutAt === null && backAt === null && random() < 0.5) {
      cutAt = step + Math.floor(random() * (STEPS_PER_DAY - 12));
    }
    if (step === cutAt) {
      sim.cutMains();
      backAt = step + 2 + Math.floor(random() * 11);
      cutAt = null;
    }
    if (step === backAt) {
      sim.restoreMains();
      backAt = null;
    }
  };
}

/** A standby set's weekly test run: half an hour in TEST on the same weekday morning. */
function weeklyTest(weekday: number): Story {
  return (sim, step) => {
    const day = Math.floor(step / STEPS_PER_DAY);
    const inDay = step % STEPS_PER_DAY;
    if (day % 7 !== weekday) return;
    if (inDay === 10 * 6) sim.setMode('test');
    if (inDay === 10 * 6 + 3) sim.setMode('auto');
  };
}

/** Irrigation: the pump's mains are off in the early morning, so the set runs it for four hours. */
function irrigation(): Story {
  return (sim, step) => {
    const inDay = step % STEPS_PER_DAY;
    if (inDay === 5 * 6) sim.cutMains();
    if (inDay === 9 * 6) sim.restoreMains();
  };
}

/** The low-fuel set: nobody watches its tank; after a low-fuel shutdown the fuel comes six hours later. */
function lateDeliveries(): Story {
  let shutdownAt: number | null = null;
  return (sim, step) => {
    if (!alarmActive(sim, 'low_fuel_shutdown')) return;
    shutdownAt ??= step;
    if (step - shutdownAt >= 36) {
      sim.refuel(90);
      sim.command('fault_reset');
      shutdownAt = null;
    }
  };
}

/** A working site's day (hours in UTC, kW as shares of the set's rating): busy by day, a little at night. */
function workingDays(shift: { from: number; to: number }): Story {
  return (sim, step) => {
    if (step !== 0) return;
    const kw = sim.state.settings.rated_kw;
    sim.setLoadProfile([
      { hour: shift.from - 1, kw: 0.2 * kw },
      { hour: shift.from, kw: 0.75 * kw },
      { hour: (shift.from + shift.to) / 2, kw: 0.85 * kw },
      { hour: shift.to, kw: 0.7 * kw },
      { hour: shift.to + 1, kw: 0.2 * kw },
    ]);
  };
}

const STORIES: Record<DemoScenario, () => Story> = {
  mainsFailures: () => all(mainsFailures(), fuelDeliveries(40, 95), servicing(), episode('battery_low', 17, 3, 14)),
  // the quarry in Madrid works 07:00 to 19:00; the trailer powers an event site in Istanbul by day
  onLoad: () =>
    all(
      workingDays({ from: 6, to: 18 }),
      fuelDeliveries(30, 90),
      servicing(),
      episode('high_coolant_temp_shutdown', 11, 14, 3),
    ),
  trailer: () =>
    all(workingDays({ from: 6, to: 20 }), fuelDeliveries(30, 95), servicing(), episode('charge_fail', 22, 9, 2)),
  lowFuel: () => all(lateDeliveries(), servicing()),
  standby: () => all(weeklyTest(3), fuelDeliveries(50, 95), servicing(), episode('battery_low', 20, 0, 24)),
  offline: () => all(irrigation(), fuelDeliveries(30, 90), servicing()),
  parallel: () => all(servicing()),
};

/** A small deterministic random source, so a set's past is the same on every fresh start with the same seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How the live set carries on from its past. */
export interface PastEnd {
  runHours: number;
  starts: number;
  kwh: number;
  fuelPercent: number;
  hoursSinceService: number;
}

export interface SetPast {
  /** The snapshots, made as they are taken (a set's month is some thousand readings). */
  snapshots: Iterable<ModemData>;
  /** How many snapshots (and so seqs, from 1) the past holds. */
  count: number;
  /** Valid once `snapshots` has been gone through. */
  end(): PastEnd;
}

/**
 * A set's past from `from` to `to` (epoch ms, read every ten minutes), as its module would have sent it: seqs
 * 1…count, the module's clock, port1, controller 1. The simulator starts with `options` at `from`.
 */
export function setPast(opts: {
  options: Omit<GensetSimulatorOptions, 'realtime' | 'startTime' | 'stepMs'>;
  /** Where the set stands when its past begins (off the mains, moving), as its live self does. */
  prepare?: (sim: GensetSimulator) => void;
  scenario: DemoScenario;
  from: number;
  to: number;
}): SetPast {
  const sim = new GensetSimulator({ ...opts.options, realtime: false, startTime: opts.from, stepMs: MODEL_STEP_MS });
  opts.prepare?.(sim);
  const blocks = derivePollBlocks(sim.document);
  const story = STORIES[opts.scenario]();
  const random = mulberry32((opts.options.seed ?? 1) * 2_654_435_761);
  const count = Math.max(0, Math.floor((opts.to - opts.from) / BACKFILL_PERIOD_MS));

  function* snapshots(): Generator<ModemData> {
    for (let step = 0; step < count; step++) {
      story(sim, step, random);
      sim.tick(BACKFILL_PERIOD_MS);
      const read: ModemDataBlock[] = blocks.map((b) =>
        b.fc === 1 || b.fc === 2
          ? { fc: b.fc, start: b.start, bits: sim.readBits(b.fc, b.start, b.count) }
          : { fc: b.fc, start: b.start, words: sim.readRegisters(b.fc, b.start, b.count) },
      );
      yield { seq: step + 1, ts: opts.from + (step + 1) * BACKFILL_PERIOD_MS, port: 'port1', address: 1, blocks: read };
    }
  }

  return {
    snapshots: snapshots(),
    count,
    end() {
      const v = sim.state.values;
      const interval = sim.state.settings.maintenance_interval_h;
      return {
        runHours: (v.run_hours ?? 0) + (v.run_minutes ?? 0) / 60,
        starts: v.starts ?? 0,
        kwh: v.kwh_total ?? 0,
        fuelPercent: v.fuel_level ?? 80,
        hoursSinceService: Math.max(0, interval - (v.maintenance_hours ?? interval)),
      };
    },
  };
}
