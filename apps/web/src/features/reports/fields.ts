// The report's fields as the console shows them: their labels with units, and the checks the server makes
// (packages/protocol checkReportForm), as form rules so that a problem shows beside its field before saving.
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { emptyReportForm, type ReportFieldDef, type ReportForm, type ReportType } from '@genset/protocol';
import { localUnit } from '../../components/format.ts';

export function fieldLabel(t: TFunction, def: ReportFieldDef, row?: number): string {
  const name = t(row === undefined ? `reports.fields.${def.key}` : `reports.columns.${def.key}`);
  return def.unit ? `${name} (${localUnit(def.unit)})` : name;
}

export function fieldRules(t: TFunction, def: ReportFieldDef, label: string): Rule[] {
  const rules: Rule[] = [];
  if (def.required)
    rules.push({ required: true, whitespace: true, message: t('reports.validation.required', { field: label }) });
  if (def.kind === 'number') {
    rules.push({
      validator: async (_, value: unknown) => {
        if (value === null || value === undefined || value === '') return;
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw new Error(t('reports.validation.number', { field: label }));
        if (def.integer && !Number.isInteger(value)) throw new Error(t('reports.validation.integer', { field: label }));
        if (value < def.min! || value > def.max!)
          throw new Error(t('reports.validation.range', { field: label, min: def.min, max: def.max }));
      },
    });
  }
  return rules;
}

/** The form's values with every field present (a field never touched is blank), as the server expects them. */
export function completeForm(type: ReportType, values: Partial<ReportForm>): ReportForm {
  const empty = emptyReportForm(type);
  const rows = empty.rows.map((row, i) => {
    const given = values.rows?.[i] ?? {};
    return Object.fromEntries(
      Object.entries(row).map(([field, blank]) => {
        const value = given[field];
        return [field, value === undefined ? blank : typeof value === 'string' ? value : value];
      }),
    );
  });
  const header = Object.fromEntries(
    Object.entries(empty)
      .filter(([key]) => key !== 'rows')
      .map(([key, blank]) => {
        const value = (values as Record<string, unknown>)[key];
        return [key, value === undefined ? blank : value];
      }),
  );
  return { ...(header as Omit<ReportForm, 'rows'>), rows };
}

/** A server's field path (`rows.2.six4`) as the form names it. */
export function formPath(path: string): ['rows', number, string] | [keyof Omit<ReportForm, 'rows'>] {
  const [first, row, field] = path.split('.');
  if (first === 'rows' && row !== undefined && field !== undefined) return ['rows', Number(row), field];
  return [first as keyof Omit<ReportForm, 'rows'>];
}
