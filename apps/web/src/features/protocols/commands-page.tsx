// /com/module/zhiling/{id}: command management — what each button of a set writes (coil, register, registers
// or a key with its complement), whether it is risky (password and warning first), and when it is refused.
import { Col, Form, Row, Select, Switch, Tag, Typography } from 'antd';
import type { CommandWrite, ProtocolText } from '@genset/protocol';
import { ConditionFields, conditionFromForm, conditionToForm, type ConditionForm } from './condition-fields.tsx';
import { parseNumberList } from './document-rules.ts';
import {
  CardList,
  itemOptions,
  KeyField,
  notEmpty,
  NumberListField,
  RegisterField,
  useEditor,
  WordInput,
} from './editor-fields.tsx';
import { sectionScreen, useSection } from './section-page.tsx';
import { ListTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';

const WRITE_MODES = ['values', 'key'] as const;

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
  const { t, rules } = useEditor();
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
        <RegisterField name={[index, 'address']} />
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
            <WordInput />
          </Form.Item>
        </Col>
      )}
      {fc === 16 && (
        <>
          <Col xs={24} sm={12}>
            <Form.Item name={[index, 'mode']} label={t('protocols.fields.writeMode')} rules={rules.required}>
              <Select options={WRITE_MODES.map((value) => ({ value, label: t(`protocols.writeMode.${value}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            {mode === 'key' ? (
              <Form.Item
                name={[index, 'key']}
                label={t('protocols.fields.commandKey')}
                tooltip={t('protocols.hints.commandKey')}
                rules={word}
              >
                <WordInput />
              </Form.Item>
            ) : (
              <NumberListField name={[index, 'values']} />
            )}
          </Col>
        </>
      )}
    </Row>
  );
}

function CommandFields({ taken, items }: { taken: string[]; items: { value: string; label: string }[] }) {
  const { t, rules } = useEditor();
  return (
    <>
      <Row gutter={12}>
        <Col xs={24} sm={16}>
          <KeyField taken={taken} />
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
      <CardList
        name="writes"
        label={t('protocols.fields.writes')}
        rules={[notEmpty(t('protocols.rules.writes'))]}
        cardTitle={(n) => t('protocols.commands.writeN', { n })}
        removeLabel={(n) => t('protocols.commands.removeWrite', { n })}
        addText={t('protocols.commands.addWrite')}
        added={{ fc: 5, value: 1 }}
      >
        {(name) => <WriteFields index={name} />}
      </CardList>
      <CardList
        name="preconditions"
        label={t('protocols.fields.preconditions')}
        style={{ marginTop: 16 }}
        cardTitle={(n) => t('protocols.commands.preconditionN', { n })}
        removeLabel={(n) => t('protocols.commands.removePrecondition', { n })}
        addText={t('protocols.commands.addPrecondition')}
        added={{ refuseWhen: { op: 'set' } }}
      >
        {(name) => (
          <>
            <Form.Item name={[name, 'item']} label={t('protocols.fields.item')} rules={rules.required}>
              <Select showSearch={{ optionFilterProp: 'label' }} options={items} />
            </Form.Item>
            <ConditionFields name={[name, 'refuseWhen']} label={t('protocols.fields.refuseWhen')} />
            <TextFields compact name={[name, 'reason']} label={t('protocols.fields.reason')} />
          </>
        )}
      </CardList>
    </>
  );
}

function CommandsTable() {
  const { t, lang } = useEditor();
  const { detail } = useSection();
  return (
    <ListTable<'commands', CommandForm>
      list="commands"
      text="title"
      columns={[
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
      fields={(_editing, taken) => <CommandFields taken={taken} items={itemOptions(detail.items, lang)} />}
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
      modalWidth={860}
    />
  );
}

export const ProtocolCommandsPage = sectionScreen('commands', CommandsTable);
