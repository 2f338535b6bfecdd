// /com/module/configProtocol/{id}: the configuration parameters — holding register (and the bits of it a
// parameter sharing the register holds), type, scale, unit, range accepted for writes and the menu each sits in.
// Dropdowns are attached on the dropdown-coordinate screen.
import { Col, Form, Input, InputNumber, Row, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldSpan, type ConfigParam, type PollBlock, type ProtocolText } from '@genset/protocol';
import { storedLanguage } from '../../i18n/languages.ts';
import { bitsFromValues, BitsFields, bitsText, bitsToValues, type BitsValues } from './bits-fields.tsx';
import { menuTree } from './config-menus-page.tsx';
import { useDocumentRules } from './document-rules.ts';
import { SectionPage } from './section-page.tsx';
import { SectionTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';

const PARAM_TYPES = ['u16', 's16', 'u32', 's32', 'float32'] as const;
type ParamType = (typeof PARAM_TYPES)[number];

interface ParamForm extends BitsValues {
  key: string;
  name: ProtocolText;
  menu: string;
  address: number;
  type: ParamType;
  wordOrder?: 'hi-lo' | 'lo-hi';
  scale: number;
  offset: number;
  unit?: string;
  decimals: number;
  min: number;
  max: number;
  writeFc?: 6 | 16;
}

/** Whether a configuration read fetches every register of the parameter. */
export function isCovered(blocks: readonly PollBlock[], address: number, type: ParamType): boolean {
  const end = address + fieldSpan(type);
  return blocks.some((b) => b.fc === 3 && b.start <= address && end <= b.start + b.count);
}

export function rangeText(param: { min: number; max: number; unit: string }): string {
  return `${param.min} … ${param.max}${param.unit ? ` ${param.unit}` : ''}`;
}

export function ConfigParamsPage() {
  const { t } = useTranslation();
  const rules = useDocumentRules();
  const lang = storedLanguage();
  return (
    <SectionPage section="configParams">
      {({ detail, save, canEdit }) => {
        const menus = menuTree(detail.configMenus);
        const menuName = (key: string) => detail.configMenus.find((m) => m.key === key)?.name[lang] ?? key;
        const blocksText = detail.configReadBlocks
          .filter((b) => b.fc === 3)
          .map((b) => `${b.start}–${b.start + b.count - 1}`)
          .join(', ');
        return (
          <SectionTable<ConfigParam, ParamForm>
            name="configParams"
            rows={detail.configParams}
            rowKey={(row) => row.key}
            describe={(row) => row.key}
            canEdit={canEdit}
            matches={(row, q) =>
              row.key.includes(q) ||
              row.name[lang].toLowerCase().includes(q) ||
              row.menu.includes(q) ||
              String(row.address) === q
            }
            columns={[
              { key: 'key', title: t('protocols.fields.key'), dataIndex: 'key' },
              { key: 'name', title: t('protocols.fields.name'), render: (_v, row) => row.name[lang] },
              { key: 'menu', title: t('protocols.fields.menu'), render: (_v, row) => menuName(row.menu) },
              {
                key: 'address',
                title: t('protocols.fields.register'),
                render: (_v, row) =>
                  row.bits ? (
                    <>
                      {row.address} <Tag color="purple">{bitsText(t, row.bits)}</Tag>
                    </>
                  ) : (
                    row.address
                  ),
              },
              { key: 'type', title: t('protocols.fields.type'), dataIndex: 'type' },
              { key: 'scale', title: t('protocols.fields.scale'), dataIndex: 'scale' },
              { key: 'range', title: t('protocols.fields.range'), render: (_v, row) => rangeText(row) },
              {
                key: 'dropdown',
                title: t('protocols.fields.dropdown'),
                render: (_v, row) =>
                  row.optionList ? (
                    <Tag color="blue">{row.optionList}</Tag>
                  ) : row.options ? (
                    <Tag>{t('protocols.coordinates.ownOptions')}</Tag>
                  ) : (
                    t('common.none')
                  ),
              },
            ]}
            fields={(editing) => (
              <ParamFields
                taken={detail.configParams.filter((p) => p !== editing).map((p) => p.key)}
                menus={menus.map((entry) => ({
                  value: entry.menu.key,
                  label: `${'— '.repeat(entry.depth)}${entry.menu.name[lang]} (${entry.menu.key})`,
                }))}
                blocks={detail.configReadBlocks}
                blocksText={blocksText}
                params={detail.configParams}
                editing={editing}
                rules={rules}
              />
            )}
            toValues={(row) => ({ ...row, ...bitsToValues(row.bits) })}
            newValues={() => ({
              type: 'u16',
              scale: 1,
              offset: 0,
              decimals: 0,
              min: 0,
              max: 65535,
              placement: 'whole',
            })}
            fromValues={(values, editing) => {
              const wide = fieldSpan(values.type) === 2;
              const param: ConfigParam = {
                key: values.key.trim(),
                name: values.name,
                address: values.address,
                type: values.type,
                scale: values.scale,
                offset: values.offset,
                unit: (values.unit ?? '').trim(),
                decimals: values.decimals,
                min: values.min,
                max: values.max,
                menu: values.menu,
              };
              if (wide && values.wordOrder) param.wordOrder = values.wordOrder;
              const bits = values.type === 'u16' || values.type === 's16' ? bitsFromValues(values) : undefined;
              if (bits) param.bits = bits;
              if (values.writeFc && !(wide && values.writeFc === 6)) param.writeFc = values.writeFc;
              // The dropdown stays as it was; it is edited on the coordinate screen.
              if (editing?.optionList) param.optionList = editing.optionList;
              if (editing?.options) param.options = editing.options;
              return param;
            }}
            onSave={(configParams) => save({ configParams })}
            addText={t('protocols.configParams.add')}
            createTitle={t('protocols.configParams.create')}
            editTitle={t('protocols.configParams.edit')}
            modalWidth={860}
          />
        );
      }}
    </SectionPage>
  );
}

function ParamFields(props: {
  taken: string[];
  menus: { value: string; label: string }[];
  blocks: readonly PollBlock[];
  blocksText: string;
  params: readonly ConfigParam[];
  editing: ConfigParam | null;
  rules: ReturnType<typeof useDocumentRules>;
}) {
  const { t } = useTranslation();
  const { rules } = props;
  const type = Form.useWatch<ParamType | undefined>('type');
  const wide = type !== undefined && fieldSpan(type) === 2;
  const narrow = type === 'u16' || type === 's16';
  return (
    <>
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="key"
            label={t('protocols.fields.key')}
            rules={rules.key(props.taken)}
            tooltip={t('protocols.hints.key')}
          >
            <Input maxLength={60} spellCheck={false} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="menu" label={t('protocols.fields.menu')} rules={rules.required}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={props.menus} />
          </Form.Item>
        </Col>
      </Row>
      <TextFields name="name" label={t('protocols.fields.name')} />
      <Row gutter={12}>
        <Col xs={12} sm={6}>
          <Form.Item
            name="address"
            label={t('protocols.fields.register')}
            extra={t('protocols.hints.readBlocks', { blocks: props.blocksText || t('common.none') })}
            dependencies={['type']}
            rules={[
              ...rules.address,
              ({ getFieldValue }) => ({
                validator: (_r, value: unknown) =>
                  typeof value !== 'number' || isCovered(props.blocks, value, getFieldValue('type') as ParamType)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('protocols.rules.notCovered'))),
              }),
            ]}
          >
            <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="type" label={t('protocols.fields.type')} rules={rules.required}>
            <Select options={PARAM_TYPES.map((value) => ({ value, label: value }))} />
          </Form.Item>
        </Col>
        {wide && (
          <Col xs={12} sm={6}>
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
        <Col xs={12} sm={6}>
          <Form.Item name="writeFc" label={t('protocols.fields.writeFc')}>
            <Select
              allowClear
              placeholder={t('protocols.writeFc.auto')}
              options={(wide ? [16] : [6, 16]).map((value) => ({ value, label: t(`protocols.writeFc.${value}`) }))}
            />
          </Form.Item>
        </Col>
      </Row>
      {narrow && (
        <BitsFields
          params={props.params}
          dependencies={['address', 'type']}
          target={(get) => ({
            key: props.editing?.key,
            address: get('address') as number | undefined,
            type: get('type') as ParamType | undefined,
          })}
        />
      )}
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
        <Col xs={12}>
          <Form.Item name="min" label={t('protocols.fields.min')} rules={rules.required}>
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item
            name="max"
            label={t('protocols.fields.max')}
            dependencies={['min']}
            rules={[
              ...rules.required,
              ({ getFieldValue }) => ({
                validator: (_r, value: unknown) => {
                  const min = getFieldValue('min') as unknown;
                  return typeof value === 'number' && typeof min === 'number' && value < min
                    ? Promise.reject(new Error(t('protocols.rules.minMax')))
                    : Promise.resolve();
                },
              }),
            ]}
          >
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
