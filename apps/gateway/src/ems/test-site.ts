// Test parts for the EMS: controllers whose registers hold a station's role items (PCS, BMS, meter, PV) on unit
// ids of a real Modbus TCP server, recording every request, and a price template to run them with.
import {
  decodeFieldValue,
  emsRoleCoordinates,
  encodeFieldValue,
  fieldSpan,
  type EmsRoleItem,
  type EmsTacticInput,
  type RegisterField,
} from '@genset/protocol';
import { MODBUS_EXCEPTION, ModbusException, ModbusTcpHost, type ModbusUnit } from '@genset/simulator';

export type Item = EmsRoleItem & { key: string };

export const PCS: Item[] = [
  { key: 'pcs_power', fc: 4, address: 0, type: 's32', scale: 0.1, emsRole: 'pcsPowerKw' },
  { key: 'pcs_rating', fc: 4, address: 2, type: 'u16', scale: 1, emsRole: 'pcsRatingKw' },
  { key: 'pcs_fault', fc: 4, address: 10, type: 'u16', scale: 1, emsRole: 'pcsFault' },
  { key: 'pcs_setpoint', fc: 3, address: 100, type: 's32', scale: 0.1, emsRole: 'pcsSetpointKw' },
];
export const BMS: Item[] = [
  { key: 'soc', fc: 4, address: 0, type: 'u16', scale: 0.1, emsRole: 'soc' },
  { key: 'charge_limit', fc: 4, address: 1, type: 'u16', scale: 0.1, emsRole: 'bmsChargeLimitKw' },
  { key: 'discharge_limit', fc: 4, address: 2, type: 'u16', scale: 0.1, emsRole: 'bmsDischargeLimitKw' },
  { key: 'bms_fault', fc: 4, address: 12, type: 'u16', scale: 1, emsRole: 'bmsFault' },
];
export const METER: Item[] = [
  { key: 'grid_power', fc: 4, address: 0, type: 's32', scale: 0.1, emsRole: 'gridPowerKw' },
];
export const PV: Item[] = [
  { key: 'pv_power', fc: 4, address: 0, type: 'u16', scale: 0.1, emsRole: 'pvPowerKw' },
  { key: 'pv_limit', fc: 3, address: 100, type: 'u16', scale: 0.1, emsRole: 'pvLimitPct' },
];

function fieldOf(item: Item): RegisterField {
  return {
    fc: item.fc,
    address: item.address,
    type: item.type,
    scale: item.scale ?? 1,
    offset: 0,
    decimals: 3,
    noData: [],
  };
}

/** A controller whose registers hold the given items, recording every request. */
export class RoleUnit implements ModbusUnit {
  private readonly words = { 3: new Map<number, number>(), 4: new Map<number, number>() };
  readonly requests: string[] = [];
  /** Answers every request with this exception while set (a device gone quiet behind the gateway). */
  failing = false;

  constructor(private readonly items: Item[]) {}

  set(key: string, value: number): void {
    const item = this.item(key);
    encodeFieldValue(fieldOf(item), value).forEach((word, i) =>
      this.words[item.fc as 3 | 4].set(item.address + i, word),
    );
  }

  get(key: string): number | null {
    const item = this.item(key);
    const words = Array.from(
      { length: fieldSpan(item.type) },
      (_, i) => this.words[item.fc as 3 | 4].get(item.address + i) ?? 0,
    );
    return decodeFieldValue(fieldOf(item), words);
  }

  private item(key: string): Item {
    const item = this.items.find((entry) => entry.key === key);
    if (!item) throw new Error(`no item ${key}`);
    return item;
  }

  readBits(): boolean[] {
    throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
  }

  readRegisters(fc: 3 | 4, start: number, count: number): number[] {
    if (this.failing) throw new ModbusException(MODBUS_EXCEPTION.gatewayTargetFailed);
    this.requests.push(`read ${fc} ${start}+${count}`);
    return Array.from({ length: count }, (_, i) => this.words[fc].get(start + i) ?? 0);
  }

  writeCoils(): void {
    throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
  }

  writeRegisters(start: number, values: number[], fc: 6 | 16): void {
    if (this.failing) throw new ModbusException(MODBUS_EXCEPTION.gatewayTargetFailed);
    this.requests.push(`write ${fc} ${start}+${values.length}`);
    values.forEach((value, i) => this.words[3].set(start + i, value));
  }
}

/** The test tariffs' prices: each period's buying and selling price alike. */
export const PRICES = {
  sharp: { buy: 1.2, sell: 1.2 },
  peak: { buy: 0.9, sell: 0.9 },
  flat: { buy: 0.6, sell: 0.6 },
  valley: { buy: 0.3, sell: 0.3 },
};

export const TEMPLATE = {
  ranges: [
    { start: '00:00', end: '08:00', period: 'valley' },
    { start: '08:00', end: '18:00', period: 'peak' },
    { start: '18:00', end: '24:00', period: 'flat' },
  ],
  prices: PRICES,
  powerKw: 100,
  chargeCutoffSoc: 90,
  dischargeCutoffSoc: 10,
  socMargin: 5,
  reversePower: { enabled: true, marginKw: 5 },
  demandControl: { enabled: false, limitKw: 1000 },
} satisfies EmsTacticInput['template'];

export interface RoleSite {
  host: ModbusTcpHost;
  pcs: RoleUnit;
  bms: RoleUnit;
  meter: RoleUnit;
  pv: RoleUnit;
  /** The roles of the four controllers at units 1 (PCS) to 4 (PV) of `port`. */
  roles(port: string): EmsTacticInput['roles'];
}

/** A PCS (unit 1, 250 kW), a BMS (unit 2, SOC 50 %, 200 kW each way), a meter (unit 3, import 300 kW), PV (unit 4). */
export async function startRoleSite(): Promise<RoleSite> {
  const host = await ModbusTcpHost.listen();
  const pcs = new RoleUnit(PCS);
  const bms = new RoleUnit(BMS);
  const meter = new RoleUnit(METER);
  const pv = new RoleUnit(PV);
  host.attach(1, pcs);
  host.attach(2, bms);
  host.attach(3, meter);
  host.attach(4, pv);
  pcs.set('pcs_rating', 250);
  bms.set('soc', 50);
  bms.set('charge_limit', 200);
  bms.set('discharge_limit', 200);
  meter.set('grid_power', 300);
  pv.set('pv_power', 0);
  pv.set('pv_limit', 100);
  return {
    host,
    pcs,
    bms,
    meter,
    pv,
    roles: (port) => ({
      ...emsRoleCoordinates(PCS, port, 1),
      ...emsRoleCoordinates(BMS, port, 2),
      ...emsRoleCoordinates(METER, port, 3),
      ...emsRoleCoordinates(PV, port, 4),
    }),
  };
}
