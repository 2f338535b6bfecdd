// A test on an item's value (alarm conditions, command preconditions): set, clear, a bit, equal to a value,
// in or not in a list of values.
import { Col, Form, InputNumber, Row, Select } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { useTranslation } from 'react-i18next';
import type { Condition } from '@genset/protocol';
import { parseNumberList, useDocumentRules } from './document-rules.ts';
import { NumberListField } from './editor-fields.tsx';

export const CONDITION_OPS = ['set', 'clear', 'bit', 'equals', 'in', 'notIn'] as const;

/** A condition as the form holds it: lists as text. */
export interface ConditionForm {
  op: Condition['op'];
  bit?: number;
  value?: number;
  values?: string;
}

export function conditionToForm(condition: Condition): ConditionForm {
  switch (condition.op) {
    case 'bit':
      return { op: 'bit', bit: condition.bit };
    case 'equals':
      return { op: 'equals', value: condition.value };
    case 'in':
    case 'notIn':
      return { op: condition.op, values: condition.values.join(', ') };
    default:
      return { op: condition.op };
  }
}

export function conditionFromForm(form: ConditionForm): Condition {
  switch (form.op) {
    case 'bit':
      return { op: 'bit', bit: form.bit ?? 0 };
    case 'equals':
      return { op: 'equals', value: form.value ?? 0 };
    case 'in':
    case 'notIn':
      return { op: form.op, values: parseNumberList(form.values) ?? [] };
    default:
      return { op: form.op };
  }
}

/** How a condition reads in a table cell. */
export function useConditionText() {
  const { t } = useTranslation();
  return (condition: Condition) => {
    const op = t(`protocols.conditions.${condition.op}`);
    if (condition.op === 'bit') return `${op} ${condition.bit}`;
    if (condition.op === 'equals') return `${op} ${condition.value}`;
    if (condition.op === 'in' || condition.op === 'notIn') return `${op} ${condition.values.join(', ')}`;
    return op;
  };
}

export function ConditionFields({ name, label }: { name: NamePath; label: string }) {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const path = Array.isArray(name) ? name : [name];
  const op = Form.useWatch([...path, 'op']) as ConditionForm['op'] | undefined;
  return (
    <Row gutter={12}>
      <Col xs={24} sm={12}>
        <Form.Item name={[...path, 'op']} label={label} rules={rules.required}>
          <Select
            aria-label={label}
            options={CONDITION_OPS.map((value) => ({ value, label: t(`protocols.conditions.${value}`) }))}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        {op === 'bit' && (
          <Form.Item
            name={[...path, 'bit']}
            label={t('protocols.fields.bit')}
            rules={[...rules.required, { type: 'integer', min: 0, max: 31, message: t('protocols.rules.bit31') }]}
          >
            <InputNumber min={0} max={31} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
        {op === 'equals' && (
          <Form.Item name={[...path, 'value']} label={t('protocols.fields.value')} rules={rules.required}>
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        )}
        {(op === 'in' || op === 'notIn') && <NumberListField name={[...path, 'values']} />}
      </Col>
    </Row>
  );
}
