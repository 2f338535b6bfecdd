// The demo stations' past: on a fresh start each demo station lives its last days faster than real time. The
// simulated site (the same model the live demo runs, stepped instead of clocked) is run by the edge strategies
// themselves once a simulated minute, as the station's module would run it, and read every ten minutes as the
// module would read its PCS, BMS, meter and PV; those snapshots go through the real decoder and ingestion, so the
// samples, rollups, alarms and the energy per tariff period (and with it the income) are made as live ones are.
// The live site then carries on from where its past ended: the same simulator, its SOC and its counters.
import { derivePollBlocks, localClock, type EmsTactic, type ModemData } from '@genset/protocol';
import type { EssSiteSimulator } from '@genset/simulator';
import { decide, SOC_LATCH_OPEN, type EmsMeasurements, type SocLatch } from '@genset/gateway';

/** How often the past is read: a module's offline rate, enough for the rollups, the charts and the statistics. */
export const STATION_PAST_PERIOD_MS = 10 * 60_000;
/** How often the strategy decides while the past runs (the live module decides every second). */
const DECIDE_EVERY_MS = 60_000;

export interface StationPast {
  /** The snapshots, made as they are taken; the site has moved on to `to` once they are all taken. */
  snapshots: Iterable<ModemData>;
  /** How many were made (the seqs the past took). */
  count(): number;
}

/** What the module's cycle would read, taken from the site's true state. */
export function measure(site: EssSiteSimulator): EmsMeasurements {
  const s = site.model.snapshot();
  return {
    gridPowerKw: s.meter.gridKw,
    pcsPowerKw: s.pcs.powerKw,
    pcsRatingKw: s.pcs.ratingKw,
    soc: s.bms.soc,
    bmsChargeLimitKw: s.bms.chargeLimitKw,
    bmsDischargeLimitKw: s.bms.dischargeLimitKw,
    ...(s.pv ? { pvPowerKw: s.pv.powerKw, pvLimitPct: s.pv.limitPct } : {}),
  };
}

/**
 * A station's past up to `to` (epoch ms) from where its site's clock stands, decided by `tactic` and read every
 * ten minutes on `port`; seqs from 1. The PCS's watchdog is off while the past runs (its setpoint is written
 * once a minute there) and back on after it.
 */
export function stationPast(opts: {
  site: EssSiteSimulator;
  tactic: Pick<EmsTactic, 'strategy' | 'params' | 'template' | 'timeZone'>;
  to: number;
  port: string;
  /** Whether the PCS's watchdog is on again after the past (default true). */
  watchdogAfter?: boolean;
  /** Asked before each reading: true ends the past there (the server is stopping). */
  stop?: () => boolean;
}): StationPast {
  const { site, tactic, port } = opts;
  let count = 0;
  function* generate(): Generator<ModemData> {
    const watchdogS = site.state.pcs.settings.watchdog_time;
    site.setPcsSetting('watchdog_time', 0);
    const devices = Object.entries(site.devices).map(([device, modbus]) => ({
      address: site.unitIds[device as keyof typeof site.unitIds]!,
      modbus: modbus!,
      blocks: derivePollBlocks(site.documents[device as keyof typeof site.documents]!),
    }));
    let latch: SocLatch = SOC_LATCH_OPEN;
    let sinceRead = 0;
    try {
      while (site.now() + DECIDE_EVERY_MS <= opts.to && !opts.stop?.()) {
        const measurements = measure(site);
        const decision = decide({
          measurements,
          tactic,
          minuteOfDay: localClock(site.now(), tactic.timeZone).minute,
          latch,
        });
        latch = decision.latch;
        // the model itself, without writing the registers each time: they are written once before a reading
        site.model.writeSetpoint(decision.setpointKw);
        if (decision.pvLimitPct !== undefined && site.model.hasPv) site.model.setPvLimit(decision.pvLimitPct);
        site.model.advance(DECIDE_EVERY_MS);
        sinceRead += DECIDE_EVERY_MS;
        if (sinceRead < STATION_PAST_PERIOD_MS) continue;
        sinceRead = 0;
        site.refresh();
        const ts = site.now();
        for (const device of devices) {
          count++;
          yield {
            seq: count,
            ts,
            port,
            address: device.address,
            blocks: device.blocks.map((b) =>
              b.fc === 1 || b.fc === 2
                ? { fc: b.fc, start: b.start, bits: device.modbus.readBits(b.fc, b.start, b.count) }
                : { fc: b.fc, start: b.start, words: device.modbus.readRegisters(b.fc, b.start, b.count) },
            ),
          };
        }
      }
    } finally {
      site.refresh();
      if (opts.watchdogAfter ?? true) site.setPcsSetting('watchdog_time', watchdogS);
    }
  }
  return { snapshots: generate(), count: () => count };
}
