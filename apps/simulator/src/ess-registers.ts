// The Modbus faces of a simulated storage station: each device's engineering values by the item keys of its
// layout E document, encoded into a register image with the same codec the server decodes with, and the writes
// each device takes (setpoint, output limit, commands, configuration) found by the document's own addresses.
import {
  configParamField,
  decodeFieldValue,
  fieldSpan,
  LAYOUT_E_BMS_ALARM_BITS,
  LAYOUT_E_BMS_STATES,
  LAYOUT_E_DOCUMENTS,
  LAYOUT_E_PCS_ALARM_BITS,
  LAYOUT_E_PCS_CONTROL_MODES,
  LAYOUT_E_PCS_FAULT_CODES,
  LAYOUT_E_PCS_STATES,
  LAYOUT_E_PV_STATES,
  type LayoutEDevice,
  type ProtocolDocument,
  type RegisterField,
} from '@genset/protocol';
import {
  PCS_SETTING_KEYS,
  type EssSiteModel,
  type EssSiteSnapshot,
  type PcsCommand,
  type PcsFaultKind,
  type PcsSettingKey,
} from './ess-model.ts';
import type { ModbusUnit } from './modbus-host.ts';
import { MODBUS_EXCEPTION, ModbusException, RegisterBank, type ModbusExceptionCode } from './register-bank.ts';

export type DeviceValues = Record<string, number | null>;

const PCS_FAULT_CODES: Record<PcsFaultKind, number> = {
  internal: LAYOUT_E_PCS_FAULT_CODES.internal,
  over_temperature: LAYOUT_E_PCS_FAULT_CODES.overTemperature,
  grid_abnormal: LAYOUT_E_PCS_FAULT_CODES.gridAbnormal,
};
const PCS_FAULT_BITS: Record<PcsFaultKind, number> = {
  internal: LAYOUT_E_PCS_ALARM_BITS.internal,
  over_temperature: LAYOUT_E_PCS_ALARM_BITS.overTemperature,
  grid_abnormal: LAYOUT_E_PCS_ALARM_BITS.gridAbnormal,
};

const bit = (on: boolean, index: number) => (on ? 2 ** index : 0);

/** Each device's values by item (and configuration parameter) key of its layout E document. */
export function deviceValues(device: LayoutEDevice, site: EssSiteSnapshot): DeviceValues {
  switch (device) {
    case 'pcs': {
      const pcs = site.pcs;
      const alarms =
        (pcs.fault ? bit(true, PCS_FAULT_BITS[pcs.fault]) : 0) |
        bit(pcs.overTemperature && pcs.fault !== 'over_temperature', LAYOUT_E_PCS_ALARM_BITS.overTemperature) |
        bit(pcs.watchdogExpired, LAYOUT_E_PCS_ALARM_BITS.watchdogExpired);
      return {
        pcs_state: LAYOUT_E_PCS_STATES[pcs.state],
        active_power: pcs.powerKw,
        dc_voltage: pcs.dcVoltage,
        dc_current: pcs.dcCurrentA,
        ac_voltage_ab: pcs.acVoltage[0],
        ac_voltage_bc: pcs.acVoltage[1],
        ac_voltage_ca: pcs.acVoltage[2],
        ac_current_a: pcs.acCurrentA[0],
        ac_current_b: pcs.acCurrentA[1],
        ac_current_c: pcs.acCurrentA[2],
        ac_frequency: pcs.frequencyHz,
        module_temp: pcs.moduleTempC,
        pcs_fault: pcs.fault ? 1 : 0,
        fault_code: pcs.fault ? PCS_FAULT_CODES[pcs.fault] : LAYOUT_E_PCS_FAULT_CODES.none,
        alarm_bits: alarms,
        rated_power: pcs.ratingKw,
        charge_energy: pcs.chargeKwh,
        discharge_energy: pcs.dischargeKwh,
        power_setpoint: pcs.setpointKw,
        control_mode: LAYOUT_E_PCS_CONTROL_MODES[pcs.controlMode],
        ...pcs.settings,
      };
    }
    case 'bms': {
      const bms = site.bms;
      let alarms = 0;
      for (const alarm of bms.alarms) alarms |= 2 ** LAYOUT_E_BMS_ALARM_BITS[alarm];
      return {
        bms_state: LAYOUT_E_BMS_STATES[bms.state],
        soc: bms.soc,
        soh: bms.soh,
        pack_voltage: bms.packVoltage,
        pack_current: bms.packCurrentA,
        max_cell_voltage: bms.maxCellMv,
        max_cell_voltage_id: bms.maxCellId,
        min_cell_voltage: bms.minCellMv,
        min_cell_voltage_id: bms.minCellId,
        max_cell_temp: bms.maxCellTempC,
        max_cell_temp_id: bms.maxCellTempId,
        min_cell_temp: bms.minCellTempC,
        min_cell_temp_id: bms.minCellTempId,
        charge_power_limit: bms.chargeLimitKw,
        discharge_power_limit: bms.dischargeLimitKw,
        rated_capacity: bms.capacityKwh,
        remaining_energy: bms.energyKwh,
        bms_fault: bms.fault ? 1 : 0,
        alarm_bits: alarms,
      };
    }
    case 'meter': {
      const meter = site.meter;
      return {
        voltage_a: meter.voltage[0],
        voltage_b: meter.voltage[1],
        voltage_c: meter.voltage[2],
        current_a: meter.currentA[0],
        current_b: meter.currentA[1],
        current_c: meter.currentA[2],
        frequency: meter.frequencyHz,
        power_factor: meter.powerFactor,
        grid_power: meter.gridKw,
        reactive_power: meter.reactiveKvar,
        import_energy: meter.importKwh,
        export_energy: meter.exportKwh,
      };
    }
    case 'pv': {
      const pv = site.pv;
      if (!pv) return {};
      return {
        pv_state: LAYOUT_E_PV_STATES[pv.state],
        pv_power: pv.powerKw,
        daily_yield: pv.dailyYieldKwh,
        total_yield: pv.totalYieldKwh,
        rated_power: pv.ratedKw,
        power_limit: pv.limitPct,
      };
    }
  }
}

/** A holding register (or pair) a device takes writes at: checked whole before anything is applied. */
interface WritableField {
  field: RegisterField;
  /** Why the value is refused (a Modbus exception code), or null. */
  refuse(value: number): ModbusExceptionCode | null;
  apply(value: number): void;
}

function registerField(address: number, type: RegisterField['type'] = 'u16'): RegisterField {
  return { fc: 3, address, type, scale: 1, offset: 0, decimals: 0, noData: [] };
}

/** The command each fc 6 value at each register runs, as the document lists them. */
function commandRegisters(doc: ProtocolDocument): Map<number, Map<number, string>> {
  const registers = new Map<number, Map<number, string>>();
  for (const command of doc.commands) {
    for (const write of command.writes) {
      if (write.fc !== 6) continue;
      let values = registers.get(write.address);
      if (!values) registers.set(write.address, (values = new Map()));
      values.set(write.value, command.key);
    }
  }
  return registers;
}

function itemField(doc: ProtocolDocument, key: string): RegisterField {
  const item = doc.items.find((candidate) => candidate.key === key);
  if (!item) throw new Error(`${doc.key} has no item "${key}"`);
  return item;
}

/** One device of the station on the Modbus bus: its register image and the writes it accepts. */
export class EssModbusDevice implements ModbusUnit {
  private readonly bank: RegisterBank;
  private readonly writable = new Map<number, WritableField[]>();

  constructor(
    readonly device: LayoutEDevice,
    private readonly model: EssSiteModel,
    /** Called after an accepted write, so every device's registers show its effect. */
    private readonly afterWrite: () => void,
  ) {
    this.bank = new RegisterBank(this.document);
    for (const field of this.writableFields()) {
      for (let i = 0; i < fieldSpan(field.field.type); i++) {
        const address = field.field.address + i;
        this.writable.set(address, [...(this.writable.get(address) ?? []), field]);
      }
    }
  }

  get document(): ProtocolDocument {
    return LAYOUT_E_DOCUMENTS[this.device];
  }

  private writableFields(): WritableField[] {
    const doc = this.document;
    const model = this.model;
    const fields: WritableField[] = [];
    const illegal = MODBUS_EXCEPTION.illegalDataValue;
    // Under local control the PCS takes neither setpoints nor start/stop/reset from afar.
    const local = () => (model.pcsControlMode === 'local' ? MODBUS_EXCEPTION.illegalFunction : null);
    for (const [address, commands] of commandRegisters(doc)) {
      fields.push({
        field: registerField(address),
        refuse: (value) => {
          const command = commands.get(value);
          if (!command) return illegal;
          if (this.device === 'pcs' && !command.startsWith('mode_')) return local();
          return null;
        },
        apply: (value) => this.runCommand(commands.get(value)!),
      });
    }
    if (this.device === 'pcs') {
      fields.push({
        field: itemField(doc, 'power_setpoint'),
        refuse: local,
        apply: (kw) => model.writeSetpoint(kw),
      });
      for (const param of doc.configParams) {
        if (!(PCS_SETTING_KEYS as readonly string[]).includes(param.key)) continue;
        fields.push({
          field: configParamField(param),
          refuse: (value) => (value < param.min || value > param.max ? illegal : null),
          apply: (value) => model.setPcsSetting(param.key as PcsSettingKey, value),
        });
      }
    }
    if (this.device === 'pv') {
      fields.push({
        field: itemField(doc, 'power_limit'),
        refuse: (pct) => (pct < 0 || pct > 100 ? illegal : null),
        apply: (pct) => model.setPvLimit(pct),
      });
    }
    return fields;
  }

  private runCommand(command: string): void {
    switch (command) {
      case 'mode_remote':
        this.model.setControlMode('remote');
        return;
      case 'mode_local':
        this.model.setControlMode('local');
        return;
      case 'power_on':
        this.model.setPvEnabled(true);
        return;
      case 'power_off':
        this.model.setPvEnabled(false);
        return;
      default:
        // A start while faulted is refused, as the panel would refuse it.
        if (!this.model.pcsCommand(command as PcsCommand)) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
    }
  }

  /** Writes the device's values into its register image. */
  refresh(site: EssSiteSnapshot): void {
    this.bank.encode(deviceValues(this.device, site));
  }

  readBits(fc: 1 | 2, start: number, count: number): boolean[] {
    return this.bank.readBits(fc, start, count);
  }

  readRegisters(fc: 3 | 4, start: number, count: number): number[] {
    return this.bank.readWords(fc, start, count);
  }

  writeCoils(): void {
    // Layout E has no coils.
    throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
  }

  writeRegisters(start: number, values: number[]): void {
    const touched = new Set<WritableField>();
    for (let address = start; address < start + values.length; address++) {
      const fields = this.writable.get(address);
      // Measurements are read-only.
      if (!fields) throw new ModbusException(MODBUS_EXCEPTION.illegalDataAddress);
      for (const field of fields) touched.add(field);
    }
    const accepted: [WritableField, number][] = [];
    for (const writable of touched) {
      const span = fieldSpan(writable.field.type);
      // A 32-bit value may come in one write or word by word: the other word is what the register holds.
      const words = this.bank.holdingWith(start, values, writable.field.address, span);
      const value = decodeFieldValue(writable.field, words);
      if (value === null) throw new ModbusException(MODBUS_EXCEPTION.illegalDataValue);
      const refusal = writable.refuse(value);
      if (refusal !== null) throw new ModbusException(refusal);
      accepted.push([writable, value]);
    }
    for (const [writable, value] of accepted) writable.apply(value);
    this.afterWrite();
  }
}
