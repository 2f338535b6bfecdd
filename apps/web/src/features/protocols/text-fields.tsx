// One input per language for a name, title or label of a protocol document: all six are required, since a
// register map shown half in English is a bug.
import { Col, Form, Input, Row, Typography } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { LANGUAGE_NAMES, LANGUAGES } from '../../i18n/languages.ts';
import { TEXT_MAX, useDocumentRules } from './document-rules.ts';

export function TextFields({ name, label, compact = false }: { name: NamePath; label: string; compact?: boolean }) {
  const rules = useDocumentRules();
  const path = Array.isArray(name) ? name : [name];
  return (
    <div role="group" aria-label={label} style={{ marginBottom: compact ? 0 : 8 }}>
      <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
        {label}
      </Typography.Text>
      <Row gutter={12}>
        {LANGUAGES.map((lang) => (
          <Col key={lang} xs={24} sm={12} lg={compact ? 8 : 12}>
            <Form.Item name={[...path, lang]} label={LANGUAGE_NAMES[lang]} rules={rules.text}>
              <Input lang={lang} maxLength={TEXT_MAX} aria-label={`${label} (${LANGUAGE_NAMES[lang]})`} />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </div>
  );
}
