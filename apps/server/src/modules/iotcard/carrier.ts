// Where a card's usage figures come from. A carrier's own API (its management portal's) would know the true
// billed figures; until one is connected, the built-in source is the module's own byte counters as the
// server counted them (modules report them in every `event`; see usage.ts). An adapter for a carrier answers
// the same questions and is given to the iotcard plugin in place of the built-in one.
import type { SimUsageSource } from '@genset/protocol';
import type { SimRepository } from './repository.ts';

export interface DayUsage {
  day: string;
  rxBytes: number;
  txBytes: number;
}

export interface CarrierAdapter {
  readonly source: SimUsageSource;
  /** A card's usage in one billing month (`month`, with its first and last day), day by day. */
  usage(
    iccid: string,
    month: { month: string; from: string; to: string },
  ): Promise<{ bytes: number; days: DayUsage[] }>;
  /** A card's total of each billing month named (months not known are left out). */
  history(iccid: string, months: string[]): Promise<{ month: string; bytes: number }[]>;
}

/** The built-in adapter: the usage counted from the module's counters. */
export function moduleCounters(repo: SimRepository): CarrierAdapter {
  return {
    source: 'module',
    async usage(iccid, month) {
      const days = await repo.days(iccid, month.from, month.to);
      const [total] = await repo.months(iccid, [month.month]);
      return { bytes: total?.bytes ?? days.reduce((s, d) => s + d.rxBytes + d.txBytes, 0), days };
    },
    history: (iccid, months) => repo.months(iccid, months),
  };
}
