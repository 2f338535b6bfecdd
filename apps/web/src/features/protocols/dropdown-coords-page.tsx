// /com/configSelect/configCoord/{id}: dropdown coordinates — which parameter uses which option list, with where
// the parameter sits (menu path, holding register, registers, write function code), at which bits of the
// register (or the whole register) and the value each label writes there.
import { Form, Select, Tag, Typography } from 'antd';
import type { BitField, ConfigParam } from '@genset/protocol';
import {
  bitsFromValues,
  BitsFields,
  bitsText,
  bitsToValues,
  takesBits,
  valuesOutsideBits,
  type BitsValues,
} from './bits-fields.tsx';
import { rangeText } from './config-params-page.tsx';
import { useEditor } from './editor-fields.tsx';
import { sectionScreen, type SectionContext } from './section-page.tsx';
import { SectionTable } from './section-table.tsx';

/** A parameter with a dropdown: a shared list by key, or (older documents) options of its own. */
interface Coordinate {
  param: string;
  list: string | null;
  /** At which bits of the register the option value goes; null: it is the whole register's value. */
  bits: BitField | null;
}

interface CoordinateForm extends BitsValues {
  param: string;
  list: string;
}

function CoordinatesTable({ detail, save, canEdit }: SectionContext) {
  const { t, lang } = useEditor();
  const paramOf = (key: string) => detail.configParams.find((p) => p.key === key);
  const listOf = (key: string | null) => detail.optionLists.find((l) => l.key === key);
  const where = (key: string) => detail.coordinates.find((c) => c.param === key);
  const rows: Coordinate[] = detail.configParams
    .filter((p) => p.options && p.options.length > 0)
    .map((p) => ({ param: p.key, list: p.optionList ?? null, bits: p.bits ?? null }));

  // A parameter whose dropdown is detached keeps its place in the register.
  const toParams = (coordinates: Coordinate[]): ConfigParam[] =>
    detail.configParams.map((param) => {
      const { optionList: _list, options, ...rest } = param;
      const coordinate = coordinates.find((c) => c.param === param.key);
      if (!coordinate) return rest;
      const { bits: _bits, ...unplaced } = rest;
      const placed = coordinate.bits ? { ...unplaced, bits: coordinate.bits } : unplaced;
      if (coordinate.list === null) return { ...placed, ...(options ? { options } : {}) };
      return { ...placed, optionList: coordinate.list, options: listOf(coordinate.list)?.options ?? [] };
    });

  return (
    <SectionTable<Coordinate, CoordinateForm>
      name="coordinates"
      rows={rows}
      rowKey={(row) => row.param}
      describe={(row) => row.param}
      canEdit={canEdit}
      matches={(row, q) =>
        row.param.includes(q) ||
        (row.list ?? '').includes(q) ||
        (paramOf(row.param)?.name[lang].toLowerCase().includes(q) ?? false)
      }
      columns={[
        {
          key: 'param',
          title: t('protocols.fields.param'),
          render: (_v, row) => (
            <>
              {paramOf(row.param)?.name[lang]} <Typography.Text code>{row.param}</Typography.Text>
            </>
          ),
        },
        {
          key: 'list',
          title: t('protocols.fields.optionList'),
          render: (_v, row) =>
            row.list ? (
              <Tag color="blue">{listOf(row.list)?.name[lang] ?? row.list}</Tag>
            ) : (
              <Tag>{t('protocols.coordinates.ownOptions')}</Tag>
            ),
        },
        {
          key: 'menuPath',
          title: t('protocols.fields.menuPath'),
          render: (_v, row) =>
            (where(row.param)?.menuPath ?? [])
              .map((key) => detail.configMenus.find((m) => m.key === key)?.name[lang] ?? key)
              .join(' › '),
        },
        {
          key: 'register',
          title: t('protocols.fields.register'),
          render: (_v, row) => {
            const c = where(row.param);
            return c
              ? t('protocols.coordinates.register', { address: c.address, registers: c.registers, fc: c.writeFc })
              : t('common.none');
          },
        },
        {
          key: 'bits',
          title: t('protocols.fields.bits'),
          render: (_v, row) => (row.bits ? <Tag color="purple">{bitsText(t, row.bits)}</Tag> : bitsText(t, row.bits)),
        },
        {
          key: 'values',
          title: t('protocols.fields.values'),
          render: (_v, row) =>
            (paramOf(row.param)?.options ?? []).map((o) => `${o.value} = ${o.label[lang]}`).join(' · '),
        },
      ]}
      fields={(editing) => (
        <CoordinateFields
          editing={editing}
          params={detail.configParams.filter(
            (p) => p.key === editing?.param || !rows.some((row) => row.param === p.key),
          )}
          lists={detail.optionLists.map((l) => ({
            value: l.key,
            label: `${l.name[lang]} (${l.key}): ${l.options.map((o) => o.value).join(', ')}`,
          }))}
          paramOf={paramOf}
          listOf={listOf}
          allParams={detail.configParams}
        />
      )}
      toValues={(row) => ({ param: row.param, list: row.list ?? '', ...bitsToValues(row.bits) })}
      newValues={() => ({ placement: 'whole' })}
      fromValues={(values) => ({
        param: values.param,
        list: values.list,
        bits: takesBits(paramOf(values.param)?.type) ? (bitsFromValues(values) ?? null) : null,
      })}
      onSave={(coordinates) => save({ configParams: toParams(coordinates) })}
      modalWidth={640}
    />
  );
}

export const DropdownCoordsPage = sectionScreen('coordinates', CoordinatesTable);

function CoordinateFields(props: {
  editing: Coordinate | null;
  params: ConfigParam[];
  lists: { value: string; label: string }[];
  paramOf: (key: string) => ConfigParam | undefined;
  listOf: (key: string | null) => { options: { value: number }[] } | undefined;
  allParams: readonly ConfigParam[];
}) {
  const { t, rules, lang } = useEditor();
  const paramKey = Form.useWatch<string | undefined>('param');
  const param = paramKey ? props.paramOf(paramKey) : undefined;
  return (
    <>
      <Form.Item name="param" label={t('protocols.fields.param')} rules={rules.required}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          disabled={props.editing !== null}
          options={props.params.map((p) => ({ value: p.key, label: `${p.name[lang]} (${p.key})` }))}
        />
      </Form.Item>
      <Form.Item
        name="list"
        label={t('protocols.fields.optionList')}
        extra={param ? t('protocols.coordinates.range', { range: rangeText(param) }) : undefined}
        dependencies={['param', 'placement', 'bitStart', 'bitCount']}
        rules={[
          ...rules.required,
          ({ getFieldValue }) => ({
            validator: (_r, value: unknown) => {
              const target = props.paramOf(getFieldValue('param') as string);
              const list = typeof value === 'string' ? props.listOf(value) : undefined;
              const outside =
                list && target ? list.options.filter((o) => o.value < target.min || o.value > target.max) : [];
              if (outside.length > 0) {
                return Promise.reject(
                  new Error(t('protocols.rules.optionsOutside', { values: outside.map((o) => o.value).join(', ') })),
                );
              }
              const bits = bitsFromValues({
                placement: getFieldValue('placement') as BitsValues['placement'],
                bitStart: getFieldValue('bitStart') as number | undefined,
                bitCount: getFieldValue('bitCount') as number | undefined,
              });
              const tooWide =
                list && target && bits && bits.start + bits.count <= 16
                  ? valuesOutsideBits(
                      target,
                      bits,
                      list.options.map((o) => o.value),
                    )
                  : [];
              return tooWide.length > 0
                ? Promise.reject(new Error(t('protocols.rules.optionsTooWide', { values: tooWide.join(', ') })))
                : Promise.resolve();
            },
          }),
        ]}
      >
        <Select options={props.lists} notFoundContent={t('protocols.coordinates.noLists')} />
      </Form.Item>
      {(param === undefined || takesBits(param.type)) && (
        <BitsFields
          params={props.allParams}
          dependencies={['param']}
          target={(get) => {
            const target = props.paramOf(get('param') as string);
            return target ? { key: target.key, address: target.address, type: target.type } : {};
          }}
        />
      )}
    </>
  );
}
