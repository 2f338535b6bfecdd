// The tariff periods as the console draws them: one colour each, the same in the period bar, the charts and
// the tables, always beside the period's word.
import type { PricePeriod } from '@genset/protocol';

export const PERIOD_HEX: Record<PricePeriod, string> = {
  sharp: '#cf1322',
  peak: '#d46b08',
  flat: '#1677ff',
  valley: '#389e0d',
};

/** A lighter shade of each, for the charge side of the energy chart. */
export const PERIOD_LIGHT_HEX: Record<PricePeriod, string> = {
  sharp: '#ff7875',
  peak: '#ffc069',
  flat: '#69b1ff',
  valley: '#95de64',
};
