// /com/module/xieyi/{id}: protocol management — the data items of a register map (function code, address,
// type, scale, unit, enumerations, group, realtime) and the alarms that read them.
import { Col, Form, Input, InputNumber, Row, Select, Switch, Tabs, Tag } from 'antd';
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
import { storedLanguage } from '../../i18n/languages.ts';
import {
  ConditionFields,
  conditionFromForm,
  conditionToForm,
  useConditionText,
  type ConditionForm,
} from './condition-fields.tsx';
import { parseNumberList, useDocumentRules } from './document-rules.ts';
import { OptionsEditor } from './options-editor.tsx';
import { SectionPage, type SectionContext } from './section-page.tsx';
import { SectionTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';

const FUNCTION_CODES = [1, 2, 3, 4] as const;
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

function ItemFields({ taken }: { taken: string[] }) {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const form = Form.useFormInstance<ItemForm>();
  const fc = Form.useWatch<number | undefined>('fc');
  const type = Form.useWatch<string | undefined>('type');
  const bitFc = fc === 1 || fc === 2;
  return (
    <>
      <Form.Item
        name="key"
        label={t('protocols.fields.key')}
        rules={rules.key(taken)}
        tooltip={t('protocols.hints.key')}
      >
        <Input maxLength={60} spellCheck={false} />
      </Form.Item>
      <TextFields name="name" label={t('protocols.fields.name')} />
      <Row gutter={12}>
        <Col xs={24} sm={8}>
          <Form.Item name="fc" label={t('protocols.fields.fc')} rules={rules.required}>
            <Select
              options={FUNCTION_CODES.map((value) => ({ value, label: t(`protocols.fc.${value}`) }))}
              onChange={(value: number) => {
                // Coils and discrete inputs are single bits; a register needs a word type.
                if (value === 1 || value === 2) form.setFieldValue('type', 'bit');
                else if (form.getFieldValue('type') === 'bit') form.setFieldValue('type', 'u16');
              }}
            />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="address" label={t('protocols.fields.address')} rules={rules.address}>
            <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item name="type" label={t('protocols.fields.type')} rules={rules.required}>
            <Select
              disabled={bitFc}
              options={(bitFc ? ['bit'] : DATA_TYPES).map((value) => ({ value, label: value }))}
            />
          </Form.Item>
        </Col>
        {!bitFc && type === 'bit' && (
          <Col xs={12} sm={8}>
            <Form.Item
              name="bit"
              label={t('protocols.fields.bit')}
              rules={[...rules.required, { type: 'integer', min: 0, max: 15, message: t('protocols.rules.bit15') }]}
            >
              <InputNumber min={0} max={15} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        )}
        {type !== undefined && WIDE_TYPES.has(type) && (
          <Col xs={12} sm={8}>
            <Form.Item name="wordOrder" label={t('protocols.fields.wordOrder')}>
              <Select
                allowClear
                options={[
                  { value: 'hi-lo', label: t('protocols.wordOrder.hi-lo') },
                  { value: 'lo-hi', label: t('protocols.wordOrder.lo-hi') },
                ]}
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Row gutter={12}>
        <Col xs={12} sm={6}>
          <Form.Item
            name="scale"
            label={t('protocols.fields.scale')}
            rules={[
              ...rules.required,
              {
                validator: (_r, v: unknown) =>
                  v === 0 ? Promise.reject(new Error(t('protocols.rules.scale'))) : Promise.resolve(),
              },
            ]}
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
          <Form.Item
            name="unit"
            label={t('protocols.fields.unit')}
            rules={[{ max: 20, message: t('validation.tooLong') }]}
          >
            <Input maxLength={20} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="decimals" label={t('protocols.fields.decimals')} rules={rules.required}>
            <InputNumber min={0} max={9} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
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
              {
                validator: (_r, v: unknown) =>
                  typeof v !== 'string' || parseNumberList(v)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('protocols.rules.numberList'))),
              },
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

function DataItemsTable({ detail, save, canEdit }: SectionContext) {
  const { t } = useTranslation();
  const lang = storedLanguage();
  const usedBy = (key: string) => [
    ...detail.alarms.filter((a) => a.item === key).map((a) => a.code),
    ...detail.commands.filter((c) => c.preconditions.some((p) => p.item === key)).map((c) => c.key),
  ];
  return (
    <SectionTable<DataItem, ItemForm>
      name="items"
      rows={detail.items}
      rowKey={(row) => row.key}
      describe={(row) => row.key}
      canEdit={canEdit}
      matches={(row, q) => row.key.includes(q) || row.name[lang].toLowerCase().includes(q) || String(row.address) === q}
      columns={[
        { key: 'key', title: t('protocols.fields.key'), dataIndex: 'key' },
        { key: 'name', title: t('protocols.fields.name'), render: (_v, row) => row.name[lang] },
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
      fields={(editing) => <ItemFields taken={detail.items.filter((i) => i !== editing).map((i) => i.key)} />}
      toValues={itemToForm}
      newValues={() => ({ fc: 3, type: 'u16', scale: 1, offset: 0, decimals: 0, group: 'engine', realtime: false })}
      fromValues={(values) => itemFromForm(values)}
      onSave={(items) => save({ items })}
      addText={t('protocols.items.add')}
      createTitle={t('protocols.items.create')}
      editTitle={t('protocols.items.edit')}
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

function AlarmsTable({ detail, save, canEdit }: SectionContext) {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const lang = storedLanguage();
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
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  options={detail.items.map((item) => ({ value: item.key, label: `${item.key} · ${item.name[lang]}` }))}
                />
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
      addText={t('protocols.alarms.add')}
      createTitle={t('protocols.alarms.create')}
      editTitle={t('protocols.alarms.edit')}
    />
  );
}

export function ProtocolItemsPage() {
  const { t } = useTranslation();
  return (
    <SectionPage section="items">
      {(ctx) => (
        <Tabs
          items={[
            { key: 'items', label: t('protocols.items.tab'), children: <DataItemsTable {...ctx} /> },
            { key: 'alarms', label: t('protocols.alarms.tab'), children: <AlarmsTable {...ctx} /> },
          ]}
        />
      )}
    </SectionPage>
  );
}
