// A new price template's starting values: a common day of time-of-use periods, prices per period, and the
// operating figures taken from the station (its PCS rating, its transformer) where it has them.
import type { PriceTemplateBody } from '@genset/protocol';

export function newTemplateBody(station?: { ratingKw: number; transformerKw: number | null }): PriceTemplateBody {
  return {
    ranges: [
      { start: '00:00', end: '08:00', period: 'valley' },
      { start: '08:00', end: '10:00', period: 'flat' },
      { start: '10:00', end: '12:00', period: 'peak' },
      { start: '12:00', end: '14:00', period: 'flat' },
      { start: '14:00', end: '17:00', period: 'peak' },
      { start: '17:00', end: '19:00', period: 'sharp' },
      { start: '19:00', end: '22:00', period: 'peak' },
      { start: '22:00', end: '24:00', period: 'valley' },
    ],
    prices: {
      sharp: { buy: 1.35, sell: 1.35 },
      peak: { buy: 1.05, sell: 1.05 },
      flat: { buy: 0.65, sell: 0.65 },
      valley: { buy: 0.32, sell: 0.32 },
    },
    powerKw: station?.ratingKw ?? 100,
    chargeCutoffSoc: 95,
    dischargeCutoffSoc: 10,
    socMargin: 3,
    chargeInFlat: false,
    reversePower: { enabled: true, marginKw: 5 },
    demandControl: { enabled: false, limitKw: station?.transformerKw ?? 500 },
  };
}
