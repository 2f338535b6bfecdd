// /com/module/zhiling/{id}: command management — what each button of a set writes (coil, register, registers
// or a key with its complement), whether it is risky (password and warning first), and when it is refused.
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CommandDefinition, CommandWrite, ProtocolText } from '@genset/protocol';
import { storedLanguage } from '../../i18n/languages.ts';
import { ConditionFields, conditionFromForm, conditionToForm, type ConditionForm } from './condition-fields.tsx';
import { parseNumberList, useDocumentRules } from './document-rules.ts';
import { SectionPage } from './section-page.tsx';
import { SectionTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';

interface WriteForm {
  fc: 5 | 6 | 16;
  address: number;
  value?: number;
  /** fc 16: a list of register values, or a key written with its complement. */
  mode?: 'values' | 'key';
  values?: string;
  key?: number;
}

interface PreconditionForm {
  item: string;
  refuseWhen: ConditionForm;
  reason: ProtocolText;
}

interface CommandForm {
  key: string;
  title: ProtocolText;
  risky: boolean;
  writes: WriteForm[];
  preconditions?: PreconditionForm[];
}

function writeToForm(write: CommandWrite): WriteForm {
  if (write.fc === 16) {
    return 'key' in write
      ? { fc: 16, address: write.address, mode: 'key', key: write.key }
      : { fc: 16, address: write.address, mode: 'values', values: write.values.join(', ') };
  }
  return { fc: write.fc, address: write.address, value: write.value };
}

function writeFromForm(form: WriteForm): CommandWrite {
  if (form.fc === 5) return { fc: 5, address: form.address, value: form.value === 1 ? 1 : 0 };
  if (form.fc === 6) return { fc: 6, address: form.address, value: form.value ?? 0 };
  if (form.mode === 'key') return { fc: 16, address: form.address, key: form.key ?? 0 };
  return { fc: 16, address: form.address, values: parseNumberList(form.values) ?? [] };
}

export function writeText(write: CommandWrite): string {
  if (write.fc === 16) {
    return 'key' in write
      ? `fc 16 @${write.address} ← ${write.key} / ${65535 - write.key}`
      : `fc 16 @${write.address} ← ${write.values.join(', ')}`;
  }
  return `fc ${write.fc} @${write.address} ← ${write.value}`;
}

function WriteFields({ index }: { index: number }) {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const fc = Form.useWatch<number | undefined>(['writes', index, 'fc']);
  const mode = Form.useWatch<string | undefined>(['writes', index, 'mode']);
  const word = [
    ...rules.required,
    { type: 'integer' as const, min: 0, max: 65535, message: t('protocols.rules.word') },
  ];
  return (
    <Row gutter={12}>
      <Col xs={12} sm={6}>
        <Form.Item name={[index, 'fc']} label={t('protocols.fields.fc')} rules={rules.required}>
          <Select options={[5, 6, 16].map((value) => ({ value, label: t(`protocols.writeFc.${value}`) }))} />
        </Form.Item>
      </Col>
      <Col xs={12} sm={6}>
        <Form.Item name={[index, 'address']} label={t('protocols.fields.address')} rules={rules.address}>
          <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      {fc === 5 && (
        <Col xs={24} sm={12}>
          <Form.Item name={[index, 'value']} label={t('protocols.fields.value')} rules={rules.required}>
            <Select
              options={[
                { value: 1, label: t('protocols.coil.on') },
                { value: 0, label: t('protocols.coil.off') },
              ]}
            />
          </Form.Item>
        </Col>
      )}
      {fc === 6 && (
        <Col xs={24} sm={12}>
          <Form.Item name={[index, 'value']} label={t('protocols.fields.value')} rules={word}>
            <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      )}
      {fc === 16 && (
        <>
          <Col xs={24} sm={12}>
            <Form.Item name={[index, 'mode']} label={t('protocols.fields.writeMode')} rules={rules.required}>
              <Select
                options={[
                  { value: 'values', label: t('protocols.writeMode.values') },
                  { value: 'key', label: t('protocols.writeMode.key') },
                ]}
              />
            </Form.Item>
          </Col>
          {mode === 'key' ? (
            <Col xs={24} sm={12}>
              <Form.Item
                name={[index, 'key']}
                label={t('protocols.fields.commandKey')}
                tooltip={t('protocols.hints.commandKey')}
                rules={word}
              >
                <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          ) : (
            <Col xs={24} sm={12}>
              <Form.Item
                name={[index, 'values']}
                label={t('protocols.fields.values')}
                tooltip={t('protocols.hints.numberList')}
                rules={rules.numberList}
              >
                <Input />
              </Form.Item>
            </Col>
          )}
        </>
      )}
    </Row>
  );
}

function CommandFields({ taken, items }: { taken: string[]; items: { value: string; label: string }[] }) {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  return (
    <>
      <Row gutter={12}>
        <Col xs={24} sm={16}>
          <Form.Item
            name="key"
            label={t('protocols.fields.key')}
            rules={rules.key(taken)}
            tooltip={t('protocols.hints.key')}
          >
            <Input maxLength={60} spellCheck={false} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item
            name="risky"
            label={t('protocols.fields.risky')}
            valuePropName="checked"
            tooltip={t('protocols.hints.risky')}
          >
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <TextFields name="title" label={t('protocols.fields.title')} />
      <Form.List
        name="writes"
        rules={[
          {
            validator: (_r, value: unknown[] | undefined) =>
              value && value.length > 0 ? Promise.resolve() : Promise.reject(new Error(t('protocols.rules.writes'))),
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <div role="group" aria-label={t('protocols.fields.writes')}>
            <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
              {t('protocols.fields.writes')}
            </Typography.Text>
            {fields.map((field, index) => (
              <Card
                key={field.key}
                size="small"
                style={{ marginBottom: 8 }}
                title={t('protocols.commands.writeN', { n: index + 1 })}
                extra={
                  <Button
                    type="text"
                    danger
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={t('protocols.commands.removeWrite', { n: index + 1 })}
                    onClick={() => remove(field.name)}
                  />
                }
              >
                <WriteFields index={field.name} />
              </Card>
            ))}
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ fc: 5, value: 1 })}>
              {t('protocols.commands.addWrite')}
            </Button>
            <Form.ErrorList errors={errors} />
          </div>
        )}
      </Form.List>
      <Form.List name="preconditions">
        {(fields, { add, remove }) => (
          <div role="group" aria-label={t('protocols.fields.preconditions')} style={{ marginTop: 16 }}>
            <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
              {t('protocols.fields.preconditions')}
            </Typography.Text>
            {fields.map((field, index) => (
              <Card
                key={field.key}
                size="small"
                style={{ marginBottom: 8 }}
                title={t('protocols.commands.preconditionN', { n: index + 1 })}
                extra={
                  <Button
                    type="text"
                    danger
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={t('protocols.commands.removePrecondition', { n: index + 1 })}
                    onClick={() => remove(field.name)}
                  />
                }
              >
                <Form.Item name={[field.name, 'item']} label={t('protocols.fields.item')} rules={rules.required}>
                  <Select showSearch={{ optionFilterProp: 'label' }} options={items} />
                </Form.Item>
                <ConditionFields name={[field.name, 'refuseWhen']} label={t('protocols.fields.refuseWhen')} />
                <TextFields compact name={[field.name, 'reason']} label={t('protocols.fields.reason')} />
              </Card>
            ))}
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ refuseWhen: { op: 'set' } })}>
              {t('protocols.commands.addPrecondition')}
            </Button>
          </div>
        )}
      </Form.List>
    </>
  );
}

export function ProtocolCommandsPage() {
  const { t } = useTranslation();
  const lang = storedLanguage();
  return (
    <SectionPage section="commands">
      {({ detail, save, canEdit }) => (
        <SectionTable<CommandDefinition, CommandForm>
          name="commands"
          rows={detail.commands}
          rowKey={(row) => row.key}
          describe={(row) => row.key}
          canEdit={canEdit}
          matches={(row, q) => row.key.includes(q) || row.title[lang].toLowerCase().includes(q)}
          columns={[
            { key: 'key', title: t('protocols.fields.key'), dataIndex: 'key' },
            { key: 'title', title: t('protocols.fields.title'), render: (_v, row) => row.title[lang] },
            {
              key: 'writes',
              title: t('protocols.fields.writes'),
              render: (_v, row) => (
                <Typography.Text code style={{ whiteSpace: 'pre-line' }}>
                  {row.writes.map(writeText).join('\n')}
                </Typography.Text>
              ),
            },
            {
              key: 'risky',
              title: t('protocols.fields.risky'),
              render: (_v, row) =>
                row.risky ? <Tag color="red">{t('protocols.commands.riskyYes')}</Tag> : <Tag>{t('protocols.no')}</Tag>,
            },
            {
              key: 'preconditions',
              title: t('protocols.fields.preconditions'),
              render: (_v, row) => row.preconditions.map((p) => p.reason[lang]).join('; ') || t('common.none'),
            },
          ]}
          fields={(editing) => (
            <CommandFields
              taken={detail.commands.filter((c) => c !== editing).map((c) => c.key)}
              items={detail.items.map((item) => ({ value: item.key, label: `${item.key} · ${item.name[lang]}` }))}
            />
          )}
          toValues={(row) => ({
            key: row.key,
            title: row.title,
            risky: row.risky,
            writes: row.writes.map(writeToForm),
            preconditions: row.preconditions.map((p) => ({
              item: p.item,
              refuseWhen: conditionToForm(p.refuseWhen),
              reason: p.reason,
            })),
          })}
          newValues={() => ({ risky: false, writes: [{ fc: 5, value: 1 } as WriteForm], preconditions: [] })}
          fromValues={(values) => ({
            key: values.key.trim(),
            title: values.title,
            risky: values.risky,
            writes: values.writes.map(writeFromForm),
            preconditions: (values.preconditions ?? []).map((p) => ({
              item: p.item,
              refuseWhen: conditionFromForm(p.refuseWhen),
              reason: p.reason,
            })),
          })}
          onSave={(commands) => save({ commands })}
          addText={t('protocols.commands.add')}
          createTitle={t('protocols.commands.create')}
          editTitle={t('protocols.commands.edit')}
          modalWidth={860}
        />
      )}
    </SectionPage>
  );
}
