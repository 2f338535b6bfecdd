// Figures of a station as the console writes them: energy in kWh, power in kW (in the interface language's
// script, so "кВт·ч" in Russian), money in the station's currency with two decimals.
import { SITE_DEFAULT_CURRENCY } from '@genset/protocol';
import { formatNumber, formatValue, NONE } from '../../components/format.ts';
import { storedLanguage } from '../../i18n/languages.ts';
import { translate } from '../../i18n/index.ts';

export const ENERGY_DECIMALS = 1;
export const POWER_DECIMALS = 1;
export const MONEY_DECIMALS = 2;

export function formatKwh(value: number | null | undefined): string {
  return formatValue(value, 'kWh', ENERGY_DECIMALS);
}

export function formatKw(value: number | null | undefined): string {
  return formatValue(value, 'kW', POWER_DECIMALS);
}

export function formatSoc(value: number | null | undefined): string {
  return formatValue(value, '%', 0);
}

/** The unit money is counted in: the yuan by its word in the interface language, other currencies by code. */
export function currencyUnit(currency: string | null | undefined): string {
  const code = currency || SITE_DEFAULT_CURRENCY;
  return code === 'CNY' ? translate('ems.units.yuan') : code;
}

/** "1,234.50 yuan", "12.00 USD". */
export function formatMoney(value: number | null | undefined, currency: string | null | undefined): string {
  const text = formatMoneyNumber(value);
  return text === NONE ? text : `${text} ${currencyUnit(currency)}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** "1,234.50": two decimals always, as money reads. */
export function formatMoneyNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  const lang = storedLanguage();
  let format = moneyFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(lang, {
      minimumFractionDigits: MONEY_DECIMALS,
      maximumFractionDigits: MONEY_DECIMALS,
    });
    moneyFormats.set(lang, format);
  }
  return format.format(value);
}

/** Formatters of Ant Design's Statistic: figures written the interface language's way ("12 899,6" in Russian). */
export const energyFigure = (value: number | string) => formatNumber(Number(value), ENERGY_DECIMALS);
export const moneyFigure = (value: number | string) => formatMoneyNumber(Number(value));
