// The fields of a report: the header (equipment, customer, weather, date, who prepared it, summary) and the six
// rows of figures, as a dense table on a wide screen and as one card per row on a phone.
import { Card, Col, DatePicker, Form, Input, InputNumber, Row, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { REPORT_COLUMNS, REPORT_HEADER, REPORT_ROWS, type ReportFieldDef, type ReportType } from '@genset/protocol';
import { fieldLabel, fieldRules } from './fields.ts';

/** The input of a field; Form.Item hands it the value and onChange (and its id), passed on here. */
function FieldInput({
  def,
  label,
  testId,
  ...control
}: {
  def: ReportFieldDef;
  label: string;
  testId?: string;
  value?: never;
  onChange?: never;
  id?: string;
}) {
  const common = { ...control, 'aria-label': label, 'data-testid': testId };
  if (def.kind === 'number') return <InputNumber className="report-number" style={{ width: '100%' }} {...common} />;
  if (def.key === 'summary') return <Input.TextArea maxLength={def.maxLength} rows={3} {...common} />;
  return <Input maxLength={def.maxLength} {...common} />;
}

function HeaderField({ def }: { def: ReportFieldDef }) {
  const { t } = useTranslation();
  const label = fieldLabel(t, def);
  if (def.kind === 'date') {
    return (
      <Form.Item
        name={def.field}
        label={label}
        rules={fieldRules(t, def, label)}
        getValueProps={(value: string) => ({ value: value ? dayjs(value) : null })}
        normalize={(value: dayjs.Dayjs | null) => (value ? value.format('YYYY-MM-DD') : '')}
      >
        <DatePicker style={{ width: '100%' }} aria-label={label} data-testid={`report-${def.field}`} />
      </Form.Item>
    );
  }
  return (
    <Form.Item name={def.field} label={label} rules={fieldRules(t, def, label)}>
      <FieldInput def={def} label={label} testId={`report-${def.field}`} />
    </Form.Item>
  );
}

export function ReportHeaderFields() {
  return (
    <Row gutter={16}>
      {REPORT_HEADER.map((def) => (
        <Col key={def.field} xs={24} sm={def.key === 'summary' ? 24 : 12} lg={def.key === 'summary' ? 24 : 6}>
          <HeaderField def={def} />
        </Col>
      ))}
    </Row>
  );
}

function RowCell({ def, row }: { def: ReportFieldDef; row: number }) {
  const { t } = useTranslation();
  const label = t('reports.rowField', { row: row + 1, column: fieldLabel(t, def, row) });
  return (
    <Form.Item name={['rows', row, def.field]} rules={fieldRules(t, def, label)} className="report-cell">
      <FieldInput def={def} label={label} testId={`report-row-${row}-${def.field}`} />
    </Form.Item>
  );
}

export function ReportRows({ type, mobile }: { type: ReportType; mobile: boolean }) {
  const { t } = useTranslation();
  const columns = REPORT_COLUMNS[type];
  const rows = Array.from({ length: REPORT_ROWS }, (_, i) => i);
  if (mobile) {
    return (
      <div className="report-cards">
        {rows.map((row) => (
          <Card key={row} size="small" title={t('reports.row', { row: row + 1 })} data-testid={`report-row-${row}`}>
            {columns.map((def) => {
              const label = fieldLabel(t, def, row);
              return (
                <Form.Item
                  key={def.field}
                  name={['rows', row, def.field]}
                  label={label}
                  rules={fieldRules(t, def, t('reports.rowField', { row: row + 1, column: label }))}
                >
                  <FieldInput def={def} label={label} testId={`report-row-${row}-${def.field}`} />
                </Form.Item>
              );
            })}
          </Card>
        ))}
      </div>
    );
  }
  return (
    <div className="report-table-wrap">
      <table className="report-table" data-testid="report-table">
        <thead>
          <tr>
            <th className="report-row-number">#</th>
            {columns.map((def) => (
              <th key={def.field} className={def.kind === 'number' ? 'report-num-col' : 'report-text-col'}>
                <Typography.Text strong>{fieldLabel(t, def, 0)}</Typography.Text>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row} data-testid={`report-row-${row}`}>
              <td className="report-row-number">{row + 1}</td>
              {columns.map((def) => (
                <td key={def.field}>
                  <RowCell def={def} row={row} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
