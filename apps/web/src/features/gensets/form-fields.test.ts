import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { gensetAddRequest, type GensetFieldsOutput } from '@genset/protocol';
import { changedFields, toFields, toFormValues, type FormValues } from './form-fields.ts';

const STORED: GensetFieldsOutput = {
  ...(gensetAddRequest.parse({
    name: 'Quarry',
    protocolKey: 'genset-layout-g',
    timeZone: 'UTC',
  }) as GensetFieldsOutput),
  ratedPowerKw: 320,
  productionDate: '2024-05-17',
  engine: { brand: 'Cummins', model: null, number: null },
};

describe('set form values', () => {
  it('become a request the contract accepts: text trimmed, empty text null, the day as YYYY-MM-DD', () => {
    const values = {
      ...toFormValues(STORED),
      name: '  Quarry 2 ',
      brand: '   ',
      productionDate: dayjs('2025-01-02T10:00:00'),
      alternator: { brand: ' Stamford ', model: '', number: null },
    } as FormValues;
    const request = toFields(values);
    expect(request).toMatchObject({
      name: 'Quarry 2',
      brand: null,
      productionDate: '2025-01-02',
      alternator: { brand: 'Stamford', model: null, number: null },
    });
    expect(gensetAddRequest.safeParse(request).success).toBe(true);
  });

  it('send only what changed on edit, and null for a cleared field', () => {
    const values = { ...toFormValues(STORED), ratedPowerKw: null, name: 'Quarry' } as FormValues;
    expect(changedFields('tok', values, STORED)).toEqual({ token: 'tok', ratedPowerKw: null });
    expect(changedFields('tok', toFormValues(STORED), STORED)).toEqual({ token: 'tok' });
    const engine = { ...toFormValues(STORED), engine: { brand: 'Perkins', model: null, number: null } } as FormValues;
    expect(changedFields('tok', engine, STORED)).toEqual({
      token: 'tok',
      engine: { brand: 'Perkins', model: null, number: null },
    });
  });
});
