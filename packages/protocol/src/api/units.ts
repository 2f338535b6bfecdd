// Unit symbols as each interface language writes them. Protocol documents and requests carry the
// international symbols ("kW", "r/min"), which stay the data; only what a user reads is written the local
// way. Russian writes units in Cyrillic (GOST 8.417: кВт, В, Гц, ч); Chinese, Spanish and Turkish technical
// texts use the international symbols.
import type { Language } from './codes.ts';

const RUSSIAN: Record<string, string> = {
  W: 'Вт',
  kW: 'кВт',
  MW: 'МВт',
  Wh: 'Вт·ч',
  kWh: 'кВт·ч',
  'kW·h': 'кВт·ч',
  MWh: 'МВт·ч',
  VA: 'В·А',
  kVA: 'кВ·А',
  kVAh: 'кВ·А·ч',
  var: 'вар',
  kvar: 'квар',
  kVAr: 'квар',
  kvarh: 'квар·ч',
  V: 'В',
  mV: 'мВ',
  kV: 'кВ',
  A: 'А',
  mA: 'мА',
  Ah: 'А·ч',
  'A·h': 'А·ч',
  Hz: 'Гц',
  ms: 'мс',
  s: 'с',
  min: 'мин',
  h: 'ч',
  d: 'сут',
  'r/min': 'об/мин',
  rpm: 'об/мин',
  RPM: 'об/мин',
  Pa: 'Па',
  hPa: 'гПа',
  kPa: 'кПа',
  MPa: 'МПа',
  bar: 'бар',
  L: 'л',
  l: 'л',
  'L/h': 'л/ч',
  'L/min': 'л/мин',
  m: 'м',
  mm: 'мм',
  km: 'км',
  'km/h': 'км/ч',
  'm/s': 'м/с',
  'm³': 'м³',
  'm³/h': 'м³/ч',
  cm: 'см',
  kg: 'кг',
  t: 'т',
  Ω: 'Ом',
  kΩ: 'кОм',
  MΩ: 'МОм',
  bit: 'бит',
  'bit/s': 'бит/с',
  'kbit/s': 'кбит/с',
  'Mbit/s': 'Мбит/с',
  dB: 'дБ',
  dBm: 'дБм',
  B: 'Б',
};

const LOCAL: Partial<Record<Language, Record<string, string>>> = { 'ru-RU': RUSSIAN };

/** A unit symbol as `lang` writes it: "kW" is "кВт" in Russian; a symbol not known is shown as it is. */
export function unitIn(lang: Language, unit: string): string {
  return LOCAL[lang]?.[unit.trim()] ?? unit;
}
