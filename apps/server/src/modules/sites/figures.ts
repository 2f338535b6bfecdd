// How a station's energy and money are given: kWh to three places, money to two, and a day's or a period's
// income as what discharging earned less what charging cost; with the sums of raw figures they are made from.
import type { EnergyFigures } from '@genset/protocol';

export const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round((v + Math.sign(v) * Number.EPSILON) * f) / f;
};
export const money = (v: number) => round(v, 2);
export const kwh = (v: number) => round(v, 3);

export function figures(raw: { charge: number; discharge: number; cost: number; income: number }): EnergyFigures {
  return {
    chargeKwh: kwh(raw.charge),
    dischargeKwh: kwh(raw.discharge),
    chargeCost: money(raw.cost),
    dischargeIncome: money(raw.income),
    income: money(raw.income - raw.cost),
  };
}

export const zero = () => ({ charge: 0, discharge: 0, cost: 0, income: 0 });
export type Raw = ReturnType<typeof zero>;
export const add = (a: Raw, b: Raw) => {
  a.charge += b.charge;
  a.discharge += b.discharge;
  a.cost += b.cost;
  a.income += b.income;
};
