// What the page knows about each setting after a write: taken, not taken, no answer, or refused before
// anything was sent; and the check every value passes before it may be sent.
import type { ConfigParamValue, ConfigWriteResult } from '@genset/protocol';
import { formatFixed, formatNumber, localUnit, withUnitText } from '../../components/format.ts';

export type Outcome =
  | { kind: 'taken'; changed: boolean; readBack: number | null }
  | { kind: 'notTaken'; readBack: number | null }
  | { kind: 'unknown' }
  | { kind: 'refused'; reason: string };

export function outcomeOf(result: ConfigWriteResult): Outcome {
  if (result.accepted === true) return { kind: 'taken', changed: result.changed, readBack: result.readBack };
  if (result.accepted === false) return { kind: 'notTaken', readBack: result.readBack };
  return { kind: 'unknown' };
}

export type ValueProblem = { kind: 'range' } | { kind: 'option' } | null;

/** Why a value may not be sent: outside the range, or not one of the dropdown's options. */
export function valueProblem(param: ConfigParamValue, value: number): ValueProblem {
  if (param.options && !param.options.some((option) => option.value === value)) return { kind: 'option' };
  if (value < param.min || value > param.max) return { kind: 'range' };
  return null;
}

export function rangeText(param: Pick<ConfigParamValue, 'min' | 'max' | 'unit'>): string {
  return `${formatNumber(param.min, 9)} … ${formatNumber(param.max, 9)}${param.unit ? ` ${localUnit(param.unit)}` : ''}`;
}

/** A value as the controller shows it: the dropdown label, or the number with the parameter's decimals and unit. */
export function valueText(param: ConfigParamValue, value: number | null, none: string): string {
  if (value === null) return none;
  const option = param.options?.find((candidate) => candidate.value === value);
  if (option) return option.label;
  return withUnitText(formatFixed(value, param.decimals), param.unit);
}
