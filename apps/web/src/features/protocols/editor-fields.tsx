// Fields that several protocol editors share: an entry's key and name, a read's function code, a register
// number, the scaling of a register value (scale, offset, unit, decimals), the word order of a two-register
// value, a list of numbers, and a list of cards (the writes of a command, its preconditions, the options of a
// list) with add and remove; and `useEditor`, what every editor needs at hand.
import type { ComponentProps, CSSProperties, ReactNode } from 'react';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Typography, type InputNumberProps } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { NamePath } from 'antd/es/form/interface';
import type { ProtocolText } from '@genset/protocol';
import { storedLanguage, type Language } from '../../i18n/languages.ts';
import { check, useDocumentRules } from './document-rules.ts';
import { TextFields } from './text-fields.tsx';

/** What an editor needs at hand: translations, the reader's language and the field rules. */
export function useEditor() {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  return { t, rules, lang: storedLanguage() };
}

/** The keys the other entries of a list use (a key is unique in its list). */
export function takenKeys<Row extends { key: string }>(rows: readonly Row[], editing: Row | null): string[] {
  return rows.filter((row) => row !== editing).map((row) => row.key);
}

/** The data items as choices: key and name. */
export function itemOptions(items: readonly { key: string; name: ProtocolText }[], lang: Language) {
  return items.map((item) => ({ value: item.key, label: `${item.key} · ${item.name[lang]}` }));
}

/** A whole number from 0 to 65535: a register, an address, a register's value (the form passes the rest). */
export function WordInput({ min = 0, max = 65535, ...rest }: InputNumberProps<number>) {
  return <InputNumber<number> min={min} max={max} precision={0} style={{ width: '100%' }} {...rest} />;
}

/** The key of an entry, in lower_snake_case and unique in its list; fixed once other entries refer to it. */
export function KeyField({ taken, disabled }: { taken: string[]; disabled?: boolean }) {
  const { t, rules } = useEditor();
  return (
    <Form.Item name="key" label={t('protocols.fields.key')} rules={rules.key(taken)} tooltip={t('protocols.hints.key')}>
      <Input maxLength={60} spellCheck={false} disabled={disabled} />
    </Form.Item>
  );
}

/** An entry's key and its name in six languages; `fixed`: the key can no longer change. */
export function KeyNameFields({ taken, fixed }: { taken: string[]; fixed?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <KeyField taken={taken} disabled={fixed} />
      <TextFields name="name" label={t('protocols.fields.name')} />
    </>
  );
}

export function UnitField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="unit" label={t('protocols.fields.unit')} rules={[{ max: 20, message: t('validation.tooLong') }]}>
      <Input maxLength={20} />
    </Form.Item>
  );
}

export function DecimalsField() {
  const { t, rules } = useEditor();
  return (
    <Form.Item name="decimals" label={t('protocols.fields.decimals')} rules={rules.required}>
      <WordInput max={9} />
    </Form.Item>
  );
}

/** How a register's raw value becomes the value shown: value × scale + offset, in the unit, so many decimals. */
export function ScalingFields() {
  const { t, rules } = useEditor();
  return (
    <Row gutter={12}>
      <Col xs={12} sm={6}>
        <Form.Item
          name="scale"
          label={t('protocols.fields.scale')}
          rules={[...rules.required, check((v) => v !== 0, t('protocols.rules.scale'))]}
        >
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col xs={12} sm={6}>
        <Form.Item name="offset" label={t('protocols.fields.offset')} rules={rules.required}>
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col xs={12} sm={6}>
        <UnitField />
      </Col>
      <Col xs={12} sm={6}>
        <DecimalsField />
      </Col>
    </Row>
  );
}

/** The function code of a read: coils, discrete inputs, holding or input registers. */
export function ReadFcField({ onChange }: { onChange?: (fc: number) => void }) {
  const { t, rules } = useEditor();
  return (
    <Form.Item name="fc" label={t('protocols.fields.fc')} rules={rules.required}>
      <Select
        options={[1, 2, 3, 4].map((value) => ({ value, label: t(`protocols.fc.${value}`) }))}
        onChange={onChange}
      />
    </Form.Item>
  );
}

/** A register number (0–65535), labelled with the field's name. */
export function RegisterField({ name }: { name: NamePath }) {
  const { t, rules } = useEditor();
  const field = Array.isArray(name) ? (name as (string | number)[]).at(-1) : name;
  return (
    <Form.Item name={name} label={t(`protocols.fields.${field}`)} rules={rules.address}>
      <WordInput />
    </Form.Item>
  );
}

/** A list of numbers written as text ("1, 2, 3"). */
export function NumberListField({ name }: { name: NamePath }) {
  const { t, rules } = useEditor();
  return (
    <Form.Item
      name={name}
      label={t('protocols.fields.values')}
      tooltip={t('protocols.hints.numberList')}
      rules={rules.numberList}
    >
      <Input />
    </Form.Item>
  );
}

/** Which of a two-register value's registers holds the high word (empty: the protocol's default). */
export function WordOrderField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="wordOrder" label={t('protocols.fields.wordOrder')}>
      <Select
        allowClear
        options={[
          { value: 'hi-lo', label: t('protocols.wordOrder.hi-lo') },
          { value: 'lo-hi', label: t('protocols.wordOrder.lo-hi') },
        ]}
      />
    </Form.Item>
  );
}

/**
 * A list of entries, each in a card titled `cardTitle(n)` with a button `removeLabel(n)` that removes it, and a
 * button below that adds one (`added`: the new entry's values); `rules` check the list as a whole.
 */
export function CardList(props: {
  name: string;
  label: string;
  cardTitle: (n: number) => string;
  removeLabel: (n: number) => string;
  addText: string;
  added?: object;
  rules?: ComponentProps<typeof Form.List>['rules'];
  style?: CSSProperties;
  children: (name: number, index: number) => ReactNode;
}) {
  return (
    <Form.List name={props.name} rules={props.rules}>
      {(fields, { add, remove }, { errors }) => (
        <div role="group" aria-label={props.label} style={props.style}>
          <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
            {props.label}
          </Typography.Text>
          {fields.map((field, index) => (
            <Card
              key={field.key}
              size="small"
              style={{ marginBottom: 8 }}
              title={props.cardTitle(index + 1)}
              extra={
                <Button
                  type="text"
                  danger
                  size="small"
                  icon={<DeleteOutlined />}
                  aria-label={props.removeLabel(index + 1)}
                  onClick={() => remove(field.name)}
                />
              }
            >
              {props.children(field.name, index)}
            </Card>
          ))}
          <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add(props.added)}>
            {props.addText}
          </Button>
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
}

/** A rule of a card list: at least one entry, else `message`. */
export function notEmpty(message: string) {
  return {
    validator: (_rule: unknown, value: unknown[] | undefined) =>
      value && value.length > 0 ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}
