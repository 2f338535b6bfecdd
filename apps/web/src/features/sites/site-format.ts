// Figures of a station as the console writes them: energy in kWh, power in kW (in the interface language's
// script, so "кВт·ч" in Russian), money in the station's currency (Intl's format and sign) with two decimals.
import { SITE_DEFAULT_CURRENCY } from '@genset/protocol';
import { formatNumber, formatValue, NONE } from '../../components/format.ts';
import { storedLanguage } from '../../i18n/languages.ts';

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

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** The language's money format of a currency (ISO 4217 code): two decimals always, its narrow symbol. */
function moneyFormat(currency: string | null | undefined): Intl.NumberFormat {
  const lang = storedLanguage();
  const code = currency || SITE_DEFAULT_CURRENCY;
  const key = `${lang}|${code}`;
  let format = moneyFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(lang, {
        style: 'currency',
        currency: code,
        currencyDisplay: 'narrowSymbol',
        minimumFractionDigits: MONEY_DECIMALS,
        maximumFractionDigits: MONEY_DECIMALS,
      });
    } catch {
      // not an ISO code: the plain number (the unit then reads the code as stored)
      format = new Intl.NumberFormat(lang, {
        minimumFractionDigits: MONEY_DECIMALS,
        maximumFractionDigits: MONEY_DECIMALS,
      });
    }
    moneyFormats.set(key, format);
  }
  return format;
}

/** The sign money is counted in, the same way for every currency: "¥", "€" (Intl's narrow symbol). */
export function currencyUnit(currency: string | null | undefined): string {
  const code = currency || SITE_DEFAULT_CURRENCY;
  return (
    moneyFormat(code)
      .formatToParts(0)
      .find((p) => p.type === 'currency')?.value ?? code
  );
}

/** "¥1,234.50", "1 234,50 €": the language's currency format (Intl), every currency alike. */
export function formatMoney(value: number | null | undefined, currency: string | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NONE;
  const format = moneyFormat(currency);
  const text = format.format(value);
  return format.resolvedOptions().style === 'currency' ? text : `${text} ${currency || SITE_DEFAULT_CURRENCY}`;
}

/** "1,234.50": two decimals always, as money reads (beside a unit of its own, as in a statistic). */
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
