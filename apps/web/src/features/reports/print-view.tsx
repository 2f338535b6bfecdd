// The report as a printed page: only this shows when the browser prints (see the print rules of reports.css),
// with the values of the form as they are, saved or not.
import { useTranslation } from 'react-i18next';
import { REPORT_COLUMNS, REPORT_HEADER, type ReportForm, type ReportType } from '@genset/protocol';
import { formatNumber, NONE } from '../../components/format.ts';
import { fieldLabel } from './fields.ts';

function shown(value: unknown, decimals = 0): string {
  if (value === null || value === undefined || value === '') return NONE;
  return typeof value === 'number' ? formatNumber(value, decimals) : String(value);
}

export function PrintView({
  type,
  form,
  setName,
  lines,
}: {
  type: ReportType;
  form: ReportForm;
  setName: string;
  lines: string[];
}) {
  const { t } = useTranslation();
  const columns = REPORT_COLUMNS[type];
  const header = REPORT_HEADER.filter((d) => d.key !== 'summary');
  return (
    <div className="report-print" aria-hidden>
      <h1>
        {t(`reports.types.${type}`)} — {setName}
      </h1>
      {lines.map((line) => (
        <p key={line} className="report-print-line">
          {line}
        </p>
      ))}
      <dl className="report-print-header">
        {header.map((def) => (
          <div key={def.field}>
            <dt>{fieldLabel(t, def)}</dt>
            <dd>{shown((form as unknown as Record<string, unknown>)[def.field], def.decimals)}</dd>
          </div>
        ))}
      </dl>
      <table>
        <thead>
          <tr>
            {columns.map((def) => (
              <th key={def.field}>{fieldLabel(t, def, 0)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {form.rows.map((row, i) => (
            <tr key={i}>
              {columns.map((def) => (
                <td key={def.field} className={def.kind === 'number' ? 'num' : undefined}>
                  {shown(row[def.field], def.decimals)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t('reports.fields.summary')}</h2>
      <p className="report-print-summary">{shown(form.two3)}</p>
    </div>
  );
}
