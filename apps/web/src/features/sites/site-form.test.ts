import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { siteAddRequest } from '@genset/protocol';
import { toRequest, type SiteFormValues } from './site-form.tsx';

const values: SiteFormValues = {
  name: 'Pier 4 storage',
  address: '',
  lat: null,
  lon: null,
  timeZone: 'Asia/Shanghai',
  currency: 'CNY',
  capacityKwh: 500,
  ratingKw: 250,
  transformerKw: null,
  buildDate: dayjs('2026-03-01'),
  modemId: 'DEMO-E001',
  templateId: null,
  devices: [{ token: 'setPcs0000000001', role: 'pcs' }, { role: 'bms' }, { token: 'setMeter00000001', role: 'meter' }],
};

describe('the station form', () => {
  it('sends empty texts as null, the build date as a day and only the rows with a set', () => {
    const request = toRequest(values);
    expect(request).toMatchObject({ address: null, buildDate: '2026-03-01', modemId: 'DEMO-E001' });
    expect(request.devices).toEqual([
      { token: 'setPcs0000000001', role: 'pcs' },
      { token: 'setMeter00000001', role: 'meter' },
    ]);
    expect(siteAddRequest.safeParse(request).success).toBe(true);
  });

  it('sends a missing capacity as null, which the contract refuses naming it', () => {
    const parsed = siteAddRequest.safeParse(toRequest({ ...values, capacityKwh: null }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['capacityKwh']);
  });
});
