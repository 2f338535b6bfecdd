// Where each field of a set lives: the ones the server queries are columns of `genset` (name, number, port,
// address, protocol, time zone; the module through modem_id), the rest of spec 3 is the `details` JSON.
import type { GensetFields, GensetFieldsOutput, GensetPart } from '@genset/protocol';

/** Fields stored as columns (or, for the module id, as the link to the modem row). */
type ColumnField = 'name' | 'number' | 'port' | 'address' | 'protocolKey' | 'timeZone' | 'modemId';
export type DetailFields = Omit<GensetFieldsOutput, ColumnField>;

const NO_PART: GensetPart = { brand: null, model: null, number: null };

/** The details of a set with every field present (null when not given). */
export const EMPTY_DETAILS: DetailFields = {
  brand: null,
  model: null,
  factoryNumber: null,
  manufacturer: null,
  ratedPowerKw: null,
  ratedSpeedRpm: null,
  ratedVoltageV: null,
  ratedFrequencyHz: null,
  ratedCurrentA: null,
  ratedBatteryVoltageV: null,
  ratedChargingVoltageV: null,
  productionDate: null,
  phases: null,
  weightKg: null,
  size: null,
  longitude: null,
  latitude: null,
  altitudeM: null,
  iotCardNumber: null,
  lockingCode: null,
  fenceRadiusM: null,
  controllerBrand: null,
  controllerModel: null,
  controllerSeries: null,
  modemModel: null,
  baudRate: null,
  powerOnCount: null,
  fuelTheftDetection: false,
  maxFuelL: null,
  maxFuelDelayS: null,
  serviceLink: null,
  engine: NO_PART,
  alternator: NO_PART,
};
const DETAIL_KEYS = Object.keys(EMPTY_DETAILS) as (keyof DetailFields)[];

/** Reads a stored details text, keeping only known fields of the right kind; anything else is dropped. */
export function parseDetails(text: string): DetailFields {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') raw = parsed as Record<string, unknown>;
  } catch {
    // a broken details text reads as no details
  }
  const out: Record<string, unknown> = { ...EMPTY_DETAILS };
  for (const key of DETAIL_KEYS) {
    const value = raw[key];
    const empty = EMPTY_DETAILS[key];
    if (value === undefined || value === null) continue;
    if (key === 'engine' || key === 'alternator') {
      const part = value as Record<string, unknown>;
      out[key] = {
        brand: typeof part.brand === 'string' ? part.brand : null,
        model: typeof part.model === 'string' ? part.model : null,
        number: typeof part.number === 'string' ? part.number : null,
      };
    } else if (typeof empty === 'boolean') {
      out[key] = value === true;
    } else if (typeof value === 'number' || typeof value === 'string') {
      out[key] = value;
    }
  }
  return out as DetailFields;
}

/** The details part of validated fields (for add) or of a partial update merged over the stored ones. */
export function detailsOf(fields: Partial<GensetFields>, base: DetailFields = EMPTY_DETAILS): DetailFields {
  const out: Record<string, unknown> = { ...base };
  for (const key of DETAIL_KEYS) {
    if (fields[key] !== undefined) out[key] = fields[key];
  }
  return out as DetailFields;
}

/** Stored text of details: fields that are not given are left out. */
export function detailsText(details: DetailFields): string {
  const out: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) {
    const value = details[key];
    if (value === null || value === false) continue;
    if ((key === 'engine' || key === 'alternator') && Object.values(value as GensetPart).every((v) => v === null))
      continue;
    out[key] = value;
  }
  return JSON.stringify(out);
}
