import { describe, expect, it } from 'vitest';
import type { SiteDevicesResponse } from '@genset/protocol';
import type { LiveSet } from '../../realtime/index.ts';
import { deviceRows } from './devices-page.tsx';

const value = (key: string, name: string, unit: string, v: number | null) => ({
  key,
  name,
  unit,
  decimals: 0,
  value: v,
  emsRole: null,
  options: [] as { value: number; label: string }[],
});

const bms: SiteDevicesResponse['list'][number] = {
  token: 'bms',
  name: 'BMS',
  role: 'bms',
  status: 3,
  runs: true,
  online: true,
  alarmNum: 0,
  lastSeen: 1,
  protocolKey: 'ess-bms',
  values: [value('soc', 'SOC', '%', 50), value('max_cell_voltage', 'Highest cell voltage', 'mV', 3300)],
};

describe('a device card', () => {
  it('shows the pushed values, and a cell extreme with the id of its cell', () => {
    const live = { values: { soc: 51, max_cell_voltage: 3310, max_cell_voltage_id: 17 } } as unknown as LiveSet;
    expect(deviceRows(bms, live)).toEqual([
      { key: 'soc', name: 'SOC', text: '51%', cell: null },
      { key: 'max_cell_voltage', name: 'Highest cell voltage', text: '3,310 mV', cell: 17 },
    ]);
  });

  it('shows a coded value (operating state, control mode) in its word, the pushed one too', () => {
    const pcs = {
      ...bms,
      values: [
        {
          ...value('pcs_state', 'Operating state', '', 2),
          options: [
            { value: 1, label: 'Standby' },
            { value: 2, label: 'Charging' },
          ],
        },
        { ...value('control_mode', 'Control mode', '', 0), options: [{ value: 0, label: 'Remote control' }] },
      ],
    };
    expect(deviceRows(pcs, undefined).map((r) => r.text)).toEqual(['Charging', 'Remote control']);
    const live = { values: { pcs_state: 1 } } as unknown as LiveSet;
    expect(deviceRows(pcs, live).map((r) => r.text)).toEqual(['Standby', 'Remote control']);
  });

  it('keeps an id item of the call beside its extreme rather than on a row of its own', () => {
    const withId = { ...bms, values: [...bms.values, value('max_cell_voltage_id', 'Cell', '', 4)] };
    expect(deviceRows(withId, undefined).map((r) => [r.key, r.cell])).toEqual([
      ['soc', null],
      ['max_cell_voltage', 4],
    ]);
  });
});
