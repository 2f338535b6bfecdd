// /com/module/configProtocol/{id}: the configuration parameters — holding register (and the bits of it a
// parameter sharing the register holds), type, scale, unit, range accepted for writes and the menu each sits in.
// Dropdowns are attached on the dropdown-coordinate screen.
import { Col, Form, InputNumber, Row, Select, Tag } from 'antd';
import { fieldSpan, type ConfigParam, type PollBlock, type ProtocolText } from '@genset/protocol';
import { bitsFromValues, BitsFields, bitsText, bitsToValues, type BitsValues } from './bits-fields.tsx';
import { menuOptions, menuTree } from './config-menus-page.tsx';
import { check } from './document-rules.ts';
import { KeyField, ScalingFields, useEditor, WordInput, WordOrderField } from './editor-fields.tsx';
import { sectionScreen, useSection } from './section-page.tsx';
import { ListTable } from './section-table.tsx';
import { TextFields } from './text-fields.tsx';
import { formatNumber, localUnit } from '../../components/format.ts';

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
  return `${formatNumber(param.min, 9)} … ${formatNumber(param.max, 9)}${param.unit ? ` ${localUnit(param.unit)}` : ''}`;
}

function ConfigParamsTable() {
  const { t, lang } = useEditor();
  const { detail } = useSection();
  const menus = menuTree(detail.configMenus);
  const menuName = (key: string) => detail.configMenus.find((m) => m.key === key)?.name[lang] ?? key;
  const blocksText = detail.configReadBlocks
    .filter((b) => b.fc === 3)
    .map((b) => `${b.start}–${b.start + b.count - 1}`)
    .join(', ');
  return (
    <ListTable<'configParams', ParamForm>
      list="configParams"
      text="name"
      matches={(row, q) => row.menu.includes(q) || String(row.address) === q}
      columns={[
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
      fields={(editing, taken) => (
        <ParamFields
          taken={taken}
          menus={menuOptions(menus, lang)}
          blocks={detail.configReadBlocks}
          blocksText={blocksText}
          params={detail.configParams}
          editing={editing}
        />
      )}
      toValues={(row) => ({ ...row, ...bitsToValues(row.bits) })}
      newValues={() => ({ type: 'u16', scale: 1, offset: 0, decimals: 0, min: 0, max: 65535, placement: 'whole' })}
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
      modalWidth={860}
    />
  );
}

export const ConfigParamsPage = sectionScreen('configParams', ConfigParamsTable);

function ParamFields(props: {
  taken: string[];
  menus: { value: string; label: string }[];
  blocks: readonly PollBlock[];
  blocksText: string;
  params: readonly ConfigParam[];
  editing: ConfigParam | null;
}) {
  const { t, rules } = useEditor();
  const type = Form.useWatch<ParamType | undefined>('type');
  const wide = type !== undefined && fieldSpan(type) === 2;
  const narrow = type === 'u16' || type === 's16';
  return (
    <>
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <KeyField taken={props.taken} />
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
              check(
                (value, get) => typeof value !== 'number' || isCovered(props.blocks, value, get('type') as ParamType),
                t('protocols.rules.notCovered'),
              ),
            ]}
          >
            <WordInput />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="type" label={t('protocols.fields.type')} rules={rules.required}>
            <Select options={PARAM_TYPES.map((value) => ({ value, label: value }))} />
          </Form.Item>
        </Col>
        {wide && (
          <Col xs={12} sm={6}>
            <WordOrderField />
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
      <ScalingFields />
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
              check((value, get) => {
                const min = get('min');
                return !(typeof value === 'number' && typeof min === 'number' && value < min);
              }, t('protocols.rules.minMax')),
            ]}
          >
            <InputNumber style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}
