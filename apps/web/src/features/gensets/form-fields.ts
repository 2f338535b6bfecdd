// The fields of the set form (spec 3) in their groups, with units and the ranges of the contract, and the
// conversion between the form's values and the add/update requests.
import dayjs, { type Dayjs } from 'dayjs';
import {
  BAUD_RATES,
  PHASE_COUNTS,
  type GensetAddRequest,
  type GensetFieldsOutput,
  type GensetUpdateRequest,
} from '@genset/protocol';

export type FieldKind = 'text' | 'number' | 'int' | 'select' | 'date' | 'switch' | 'timezone' | 'protocol';

export interface FieldDef {
  name: keyof GensetFieldsOutput;
  kind: FieldKind;
  unit?: string;
  min?: number;
  max?: number;
  /** Decimals an input accepts. */
  precision?: number;
  maxLength?: number;
  options?: readonly number[];
  required?: boolean;
  /** The value is a code or an id: monospace, no spell check. */
  code?: boolean;
  /** Wide fields take a whole row on desktop. */
  wide?: boolean;
  /** Free text of numbers with their units (dimensions as on the plate): the units shown the reader's way. */
  measures?: boolean;
}

export interface FieldGroup {
  key: 'basic' | 'rated' | 'location' | 'module' | 'engine' | 'alternator' | 'fuel';
  fields: FieldDef[];
}

const text = (name: FieldDef['name'], maxLength = 64, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  kind: 'text',
  maxLength,
  ...extra,
});
const num = (name: FieldDef['name'], unit: string, min: number, max: number, precision = 2): FieldDef => ({
  name,
  kind: 'number',
  unit,
  min,
  max,
  precision,
});
const int = (name: FieldDef['name'], unit: string, min: number, max: number): FieldDef => ({
  name,
  kind: 'int',
  unit,
  min,
  max,
  precision: 0,
});

export const FIELD_GROUPS: FieldGroup[] = [
  {
    key: 'basic',
    fields: [
      text('name', 120, { required: true }),
      text('number', 64, { code: true }),
      text('brand'),
      text('model'),
      text('factoryNumber', 64, { code: true }),
      text('manufacturer', 120),
      { name: 'productionDate', kind: 'date' },
      { name: 'phases', kind: 'select', options: PHASE_COUNTS },
      num('weightKg', 'kg', 0, 1_000_000, 1),
      text('size', 64, { measures: true }),
      { name: 'protocolKey', kind: 'protocol', required: true },
      { name: 'timeZone', kind: 'timezone', required: true },
      text('serviceLink', 500, { wide: true }),
    ],
  },
  {
    key: 'rated',
    fields: [
      num('ratedPowerKw', 'kW', 0, 100_000, 1),
      num('ratedSpeedRpm', 'r/min', 0, 10_000, 0),
      num('ratedVoltageV', 'V', 0, 50_000, 1),
      num('ratedFrequencyHz', 'Hz', 0, 1_000, 1),
      num('ratedCurrentA', 'A', 0, 100_000, 1),
      num('ratedBatteryVoltageV', 'V', 0, 100, 1),
      num('ratedChargingVoltageV', 'V', 0, 100, 1),
    ],
  },
  {
    key: 'location',
    fields: [
      num('latitude', '°', -90, 90, 6),
      num('longitude', '°', -180, 180, 6),
      num('altitudeM', 'm', -500, 9_000, 1),
      num('fenceRadiusM', 'm', 0, 1_000_000, 0),
    ],
  },
  {
    key: 'module',
    fields: [
      text('modemId', 64, { code: true }),
      text('modemModel'),
      text('port', 32, { required: true, code: true }),
      { name: 'baudRate', kind: 'select', options: BAUD_RATES, unit: 'bit/s' },
      int('address', '', 1, 247),
      text('iotCardNumber', 32, { code: true }),
      text('controllerBrand'),
      text('controllerModel'),
      text('controllerSeries'),
      text('lockingCode', 32, { code: true }),
      int('powerOnCount', '', 0, 1_000_000_000),
    ],
  },
  { key: 'engine', fields: [] },
  { key: 'alternator', fields: [] },
  {
    key: 'fuel',
    fields: [
      num('maxFuelL', 'L', 0, 1_000_000, 1),
      int('maxFuelDelayS', 's', 0, 86_400),
      { name: 'fuelTheftDetection', kind: 'switch' },
    ],
  },
];

export const PART_FIELDS = ['brand', 'model', 'number'] as const;

/** The form's values: the contract's fields, with the production date as a day. */
export type FormValues = Omit<GensetFieldsOutput, 'productionDate'> & { productionDate: Dayjs | null };

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function emptyValues(): Partial<FormValues> {
  return {
    port: 'port1',
    address: 1,
    timeZone: browserTimeZone(),
    fuelTheftDetection: false,
    engine: { brand: null, model: null, number: null },
    alternator: { brand: null, model: null, number: null },
  };
}

export function toFormValues(fields: GensetFieldsOutput): FormValues {
  return {
    ...fields,
    productionDate: fields.productionDate ? dayjs(fields.productionDate) : null,
  };
}

const emptyToNull = (v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : (v ?? null));

/** Every field as the contract reads it: trimmed text, empty → null, the date as YYYY-MM-DD. */
export function toFields(values: FormValues): GensetAddRequest {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === 'productionDate') out[key] = value ? (value as Dayjs).format('YYYY-MM-DD') : null;
    else if (key === 'engine' || key === 'alternator') {
      const part = (value ?? {}) as Record<string, unknown>;
      out[key] = Object.fromEntries(PART_FIELDS.map((p) => [p, emptyToNull(part[p])]));
    } else out[key] = emptyToNull(value);
  }
  out.name = typeof values.name === 'string' ? values.name.trim() : values.name;
  out.fuelTheftDetection = Boolean(values.fuelTheftDetection);
  return out as GensetAddRequest;
}

/** Only what changed since `before` (the update call leaves absent fields unchanged). */
export function changedFields(token: string, values: FormValues, before: GensetFieldsOutput): GensetUpdateRequest {
  const next = toFields(values) as Record<string, unknown>;
  const prev = toFields(toFormValues(before)) as Record<string, unknown>;
  const out: Record<string, unknown> = { token };
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(value) !== JSON.stringify(prev[key])) out[key] = value;
  }
  return out as GensetUpdateRequest;
}
