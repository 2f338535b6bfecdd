import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './codes.ts';
import { unitIn } from './units.ts';

describe('unit symbols in the interface language', () => {
  it('writes the units of a genset in Cyrillic for Russian', () => {
    expect(
      ['kW', 'kWh', 'V', 'A', 'Hz', 'h', 's', 'r/min', 'kPa', 'kVA', 'kvar', 'mm', 'bit', 'hPa'].map((u) =>
        unitIn('ru-RU', u),
      ),
    ).toEqual(['кВт', 'кВт·ч', 'В', 'А', 'Гц', 'ч', 'с', 'об/мин', 'кПа', 'кВ·А', 'квар', 'мм', 'бит', 'гПа']);
  });

  it('keeps the international symbols in the other languages', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'ru-RU')) {
      expect(['kW', 'V', 'Hz', 'h', 'r/min'].map((u) => unitIn(lang, u))).toEqual(['kW', 'V', 'Hz', 'h', 'r/min']);
    }
  });

  it('shows signs and symbols it does not know as they are', () => {
    expect(['°C', '%', '°', 'ppm', ''].map((u) => unitIn('ru-RU', u))).toEqual(['°C', '%', '°', 'ppm', '']);
  });
});
