// Where a configuration parameter's value sits in its holding register: the whole register, or a field of bits
// (first bit and number of bits) that it shares with other parameters, e.g. a switch at bit 0 and the panel
// language at bits 4–5. Used by the dropdown-coordinate and config-protocol screens.
import { Col, Form, InputNumber, Radio, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { bitFieldRange, fieldSpan, type BitField, type ConfigParam } from '@genset/protocol';
import { storedLanguage } from '../../i18n/languages.ts';

export type Placement = 'whole' | 'bits';
export type ParamType = ConfigParam['type'];

/** The form fields of a placement. */
export interface BitsValues {
  placement?: Placement;
  bitStart?: number;
  bitCount?: number;
}

/** "Whole register", "Bit 3" or "Bits 4–5". */
export function bitsText(t: TFunction, bits: BitField | null | undefined): string {
  if (!bits) return t('protocols.bits.whole');
  return bits.count === 1
    ? t('protocols.bits.one', { start: bits.start })
    : t('protocols.bits.range', { start: bits.start, end: bits.start + bits.count - 1 });
}

export function bitsToValues(bits: BitField | null | undefined): BitsValues {
  return bits ? { placement: 'bits', bitStart: bits.start, bitCount: bits.count } : { placement: 'whole' };
}

export function bitsFromValues(values: BitsValues): BitField | undefined {
  if (values.placement !== 'bits' || values.bitStart === undefined || values.bitCount === undefined) return undefined;
  return { start: values.bitStart, count: values.bitCount };
}

export function takesBits(type: ParamType | undefined): boolean {
  return type === 'u16' || type === 's16';
}

/** The other parameters whose registers (and, when both sit at bits, whose bits) this placement would overlap. */
export function clashingParams(
  params: readonly ConfigParam[],
  self: string | undefined,
  address: number,
  type: ParamType,
  bits: BitField | undefined,
): ConfigParam[] {
  const end = address + fieldSpan(type);
  return params.filter((other) => {
    if (other.key === self) return false;
    if (other.address >= end || other.address + fieldSpan(other.type) <= address) return false;
    if (!bits || !other.bits) return true;
    return other.bits.start < bits.start + bits.count && bits.start < other.bits.start + other.bits.count;
  });
}

/** Engineering values that a field of these bits cannot hold (after scale and offset). */
export function valuesOutsideBits(
  param: Pick<ConfigParam, 'type' | 'scale' | 'offset'>,
  bits: BitField,
  values: readonly number[],
): number[] {
  const [low, high] = bitFieldRange(param.type, bits);
  return values.filter((value) => {
    const raw = Math.round((value - param.offset) / param.scale);
    return raw < low || raw > high;
  });
}

/**
 * The placement fields. `target` gives the parameter being placed (its key, register and type) from the form's
 * current values; `params` are all parameters of the document, to refuse bits another one uses.
 */
export function BitsFields(props: {
  target: (get: (name: string) => unknown) => { key?: string; address?: number; type?: ParamType };
  params: readonly ConfigParam[];
  dependencies: string[];
}) {
  const { t } = useTranslation();
  const lang = storedLanguage();
  const form = Form.useFormInstance();
  const placement = Form.useWatch<Placement | undefined>('placement', form);
  const start = Form.useWatch<number | undefined>('bitStart', form);
  const count = Form.useWatch<number | undefined>('bitCount', form);
  // Watched so that the raw range below follows the parameter being placed.
  Form.useWatch('type', form);
  Form.useWatch('param', form);
  const { type } = props.target((name) => form.getFieldValue(name) as unknown);
  const bits = placement === 'bits' && start !== undefined && count !== undefined ? { start, count } : undefined;
  const range = bits && start! + count! <= 16 && takesBits(type) ? bitFieldRange(type ?? 'u16', bits) : undefined;
  return (
    <>
      <Form.Item
        name="placement"
        label={t('protocols.fields.placement')}
        tooltip={t('protocols.hints.bits')}
        dependencies={[...props.dependencies, 'bitStart', 'bitCount']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_r, value: unknown) => {
              const target = props.target(getFieldValue);
              if (value === 'bits' && target.type !== undefined && !takesBits(target.type)) {
                return Promise.reject(new Error(t('protocols.rules.bitsType')));
              }
              if (target.address === undefined || target.type === undefined) return Promise.resolve();
              const placed = bitsFromValues({
                placement: value as Placement,
                bitStart: getFieldValue('bitStart') as number | undefined,
                bitCount: getFieldValue('bitCount') as number | undefined,
              });
              const clashes = clashingParams(props.params, target.key, target.address, target.type, placed);
              return clashes.length > 0
                ? Promise.reject(
                    new Error(
                      t('protocols.rules.bitsTaken', {
                        names: clashes.map((p) => `${p.name[lang]} (${bitsText(t, p.bits)})`).join(', '),
                      }),
                    ),
                  )
                : Promise.resolve();
            },
          }),
        ]}
      >
        <Radio.Group
          options={[
            { value: 'whole', label: t('protocols.bits.placeWhole') },
            { value: 'bits', label: t('protocols.bits.placeBits') },
          ]}
        />
      </Form.Item>
      {placement === 'bits' && (
        <Row gutter={12}>
          <Col xs={12}>
            <Form.Item
              name="bitStart"
              label={t('protocols.fields.bitStart')}
              rules={[{ required: true, type: 'integer', min: 0, max: 15, message: t('protocols.rules.bit15') }]}
            >
              <InputNumber min={0} max={15} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item
              name="bitCount"
              label={t('protocols.fields.bitCount')}
              dependencies={['bitStart']}
              extra={range ? t('protocols.bits.holds', { low: range[0], high: range[1] }) : undefined}
              rules={[
                { required: true, type: 'integer', min: 1, max: 16, message: t('protocols.rules.bitCount') },
                ({ getFieldValue }) => ({
                  validator: (_r, value: unknown) => {
                    const first = getFieldValue('bitStart') as unknown;
                    return typeof value === 'number' && typeof first === 'number' && first + value > 16
                      ? Promise.reject(new Error(t('protocols.rules.bitsPast')))
                      : Promise.resolve();
                  },
                }),
              ]}
            >
              <InputNumber min={1} max={16} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      )}
    </>
  );
}
