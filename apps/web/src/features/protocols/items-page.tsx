// /com/module/xieyi/{id}: protocol management — the data items of a register map (function code, address,
// type, scale, unit, enumerations, group, realtime) and the alarms that read them.
import { Col, Form, Input, Row, Select, Switch, Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  alarmLevelSchema,
  dataTypeSchema,
  itemGroupSchema,
  type AlarmDefinition,
  type DataItem,
  type EnumOption,
  type ProtocolText,
} from '@genset/protocol';
import {
  ConditionFields,
  conditionFromForm,
  conditionToForm,
  useConditionText,
  type ConditionForm,
} from './condition-fields.tsx';
import { check, parseNumberList } from './document-rules.ts';
import {
  itemOptions,
  KeyNameFields,
  ReadFcField,
  RegisterField,
  ScalingFields,
  useEditor,
  WordInput,
  WordOrderField,
} from './editor-fields.tsx';
import { OptionsEditor } from './options-editor.tsx';
import { sectionScreen, useSection } from './section-page.tsx';
import { ListTable, SectionTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';

const DATA_TYPES = dataTypeSchema.options;
const GROUPS = itemGroupSchema.options;
const LEVELS = alarmLevelSchema.options;
const WIDE_TYPES = new Set(['u32', 's32', 'float32']);

interface ItemForm {
  key: string;
  name: ProtocolText;
  fc: DataItem['fc'];
  address: number;
  type: DataItem['type'];
  wordOrder?: 'hi-lo' | 'lo-hi';
  bit?: number;
  scale: number;
  offset: number;
  unit?: string;
  decimals: number;
  noData?: string;
  enum?: EnumOption[];
  group: DataItem['group'];
  realtime: boolean;
}

function itemToForm(item: DataItem): ItemForm {
  return {
    key: item.key,
    name: item.name,
    fc: item.fc,
    address: item.address,
    type: item.type,
    wordOrder: item.wordOrder,
    bit: item.bit,
    scale: item.scale,
    offset: item.offset,
    unit: item.unit,
    decimals: item.decimals,
    noData: item.noData.join(', '),
    enum: item.enum,
    group: item.group,
    realtime: item.realtime,
  };
}

function itemFromForm(values: ItemForm): DataItem {
  const bitFc = values.fc === 1 || values.fc === 2;
  const type = bitFc ? 'bit' : values.type;
  const item: DataItem = {
    key: values.key.trim(),
    name: values.name,
    fc: values.fc,
    address: values.address,
    type,
    scale: values.scale,
    offset: values.offset,
    unit: (values.unit ?? '').trim(),
    decimals: values.decimals,
    noData: parseNumberList(values.noData) ?? [],
    group: values.group,
    realtime: values.realtime,
  };
  if (WIDE_TYPES.has(type) && values.wordOrder) item.wordOrder = values.wordOrder;
  if (!bitFc && type === 'bit') item.bit = values.bit ?? 0;
  if (values.enum && values.enum.length > 0) item.enum = values.enum;
  return item;
}

/** Where the item is read: function code, address, type (and the bit of a register, the word order). */
function RegisterFields() {
  const { t, rules } = useEditor();
  const form = Form.useFormInstance<ItemForm>();
  const fc = Form.useWatch<number | undefined>('fc');
  const type = Form.useWatch<string | undefined>('type');
  const bitFc = fc === 1 || fc === 2;
  return (
    <Row gutter={12}>
      <Col xs={24} sm={8}>
        <ReadFcField
          onChange={(value) => {
            // Coils and discrete inputs are single bits; a register needs a word type.
            if (value === 1 || value === 2) form.setFieldValue('type', 'bit');
            else if (form.getFieldValue('type') === 'bit') form.setFieldValue('type', 'u16');
          }}
        />
      </Col>
      <Col xs={12} sm={8}>
        <RegisterField name="address" />
      </Col>
      <Col xs={12} sm={8}>
        <Form.Item name="type" label={t('protocols.fields.type')} rules={rules.required}>
          <Select disabled={bitFc} options={(bitFc ? ['bit'] : DATA_TYPES).map((value) => ({ value, label: value }))} />
        </Form.Item>
      </Col>
      {!bitFc && type === 'bit' && (
        <Col xs={12} sm={8}>
          <Form.Item
            name="bit"
            label={t('protocols.fields.bit')}
            rules={[...rules.required, { type: 'integer', min: 0, max: 15, message: t('protocols.rules.bit15') }]}
          >
            <WordInput max={15} />
          </Form.Item>
        </Col>
      )}
      {type !== undefined && WIDE_TYPES.has(type) && (
        <Col xs={12} sm={8}>
          <WordOrderField />
        </Col>
      )}
    </Row>
  );
}

function ItemFields({ taken }: { taken: string[] }) {
  const { t, rules } = useEditor();
  return (
    <>
      <KeyNameFields taken={taken} />
      <RegisterFields />
      <ScalingFields />
      <Row gutter={12}>
        <Col xs={24} sm={8}>
          <Form.Item name="group" label={t('protocols.fields.group')} rules={rules.required}>
            <Select options={GROUPS.map((value) => ({ value, label: t(`protocols.groups.${value}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={10}>
          <Form.Item
            name="noData"
            label={t('protocols.fields.noData')}
            tooltip={t('protocols.hints.noData')}
            rules={[
              check((v) => typeof v !== 'string' || parseNumberList(v) !== null, t('protocols.rules.numberList')),
            ]}
          >
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} sm={6}>
          <Form.Item name="realtime" label={t('protocols.fields.realtime')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <OptionsEditor name="enum" label={t('protocols.fields.enum')} />
    </>
  );
}

function DataItemsTable() {
  const { t } = useTranslation();
  const { detail } = useSection();
  const usedBy = (key: string) => [
    ...detail.alarms.filter((a) => a.item === key).map((a) => a.code),
    ...detail.commands.filter((c) => c.preconditions.some((p) => p.item === key)).map((c) => c.key),
  ];
  return (
    <ListTable<'items', ItemForm>
      list="items"
      text="name"
      matches={(row, q) => String(row.address) === q}
      columns={[
        { key: 'fc', title: t('protocols.fields.fc'), dataIndex: 'fc' },
        {
          key: 'address',
          title: t('protocols.fields.address'),
          render: (_v, row) => (row.bit === undefined ? row.address : `${row.address}.${row.bit}`),
        },
        { key: 'type', title: t('protocols.fields.type'), dataIndex: 'type' },
        { key: 'scale', title: t('protocols.fields.scale'), dataIndex: 'scale' },
        { key: 'unit', title: t('protocols.fields.unit'), dataIndex: 'unit' },
        { key: 'group', title: t('protocols.fields.group'), render: (_v, row) => t(`protocols.groups.${row.group}`) },
        {
          key: 'realtime',
          title: t('protocols.fields.realtime'),
          render: (_v, row) =>
            row.realtime ? <Tag color="blue">{t('protocols.yes')}</Tag> : <Tag>{t('protocols.no')}</Tag>,
        },
      ]}
      deleteBlocker={(row) => {
        const users = usedBy(row.key);
        if (users.length > 0) return t('protocols.blockers.itemUsed', { names: users.join(', ') });
        if (detail.items.length === 1) return t('protocols.blockers.lastItem');
        return null;
      }}
      fields={(_editing, taken) => <ItemFields taken={taken} />}
      toValues={itemToForm}
      newValues={() => ({ fc: 3, type: 'u16', scale: 1, offset: 0, decimals: 0, group: 'engine', realtime: false })}
      fromValues={(values) => itemFromForm(values)}
      modalWidth={860}
    />
  );
}

interface AlarmForm {
  code: string;
  item: string;
  condition: ConditionForm;
  level: AlarmDefinition['level'];
  title: ProtocolText;
}

function AlarmsTable() {
  const { t, rules, lang } = useEditor();
  const { detail, save, canEdit } = useSection();
  const conditionText = useConditionText();
  const levelColor = { warning: 'orange', shutdown: 'red', trip: 'volcano' } as const;
  return (
    <SectionTable<AlarmDefinition, AlarmForm>
      name="alarms"
      rows={detail.alarms}
      rowKey={(row) => row.code}
      describe={(row) => row.code}
      canEdit={canEdit}
      matches={(row, q) => row.code.includes(q) || row.item.includes(q) || row.title[lang].toLowerCase().includes(q)}
      columns={[
        { key: 'code', title: t('protocols.fields.code'), dataIndex: 'code' },
        { key: 'title', title: t('protocols.fields.title'), render: (_v, row) => row.title[lang] },
        { key: 'item', title: t('protocols.fields.item'), dataIndex: 'item' },
        { key: 'condition', title: t('protocols.fields.condition'), render: (_v, row) => conditionText(row.condition) },
        {
          key: 'level',
          title: t('protocols.fields.level'),
          render: (_v, row) => <Tag color={levelColor[row.level]}>{t(`protocols.levels.${row.level}`)}</Tag>,
        },
      ]}
      fields={(editing) => (
        <>
          <Form.Item
            name="code"
            label={t('protocols.fields.code')}
            rules={rules.key(detail.alarms.filter((a) => a !== editing).map((a) => a.code))}
          >
            <Input maxLength={60} spellCheck={false} />
          </Form.Item>
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item name="item" label={t('protocols.fields.item')} rules={rules.required}>
                <Select showSearch={{ optionFilterProp: 'label' }} options={itemOptions(detail.items, lang)} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="level" label={t('protocols.fields.level')} rules={rules.required}>
                <Select options={LEVELS.map((value) => ({ value, label: t(`protocols.levels.${value}`) }))} />
              </Form.Item>
            </Col>
          </Row>
          <ConditionFields name="condition" label={t('protocols.fields.condition')} />
          <TextFields name="title" label={t('protocols.fields.title')} />
        </>
      )}
      toValues={(row) => ({ ...row, condition: conditionToForm(row.condition) })}
      newValues={() => ({ condition: { op: 'set' }, level: 'warning' })}
      fromValues={(values) => ({
        code: values.code.trim(),
        item: values.item,
        condition: conditionFromForm(values.condition),
        level: values.level,
        title: values.title,
      })}
      onSave={(alarms) => save({ alarms })}
    />
  );
}

function ItemsAndAlarms() {
  const { t } = useTranslation();
  return (
    <Tabs
      items={[
        { key: 'items', label: t('protocols.items.tab'), children: <DataItemsTable /> },
        { key: 'alarms', label: t('protocols.alarms.tab'), children: <AlarmsTable /> },
      ]}
    />
  );
}

export const ProtocolItemsPage = sectionScreen('items', ItemsAndAlarms);
