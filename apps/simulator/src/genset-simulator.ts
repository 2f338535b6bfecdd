// One simulated genset controller: the model, its layout's register image, the Modbus writes it accepts
// (commands and configuration), its clock, and the control API that tests and the demo use.
import {
  configParamField,
  decodeFieldValue,
  fieldSpan,
  type ConfigParam,
  type ProtocolDocument,
} from '@genset/protocol';
import {
  GensetModel,
  type AlarmCode,
  type ControllerMode,
  type GensetCommand,
  type GensetModelOptions,
  type GensetSnapshot,
  type LoadProfile,
  type Position,
  type Sensor,
  type SettingKey,
  SETTING_KEYS,
  GENSET_COMMANDS,
  ALARM_CODES,
} from './genset-model.ts';
import { LAYOUTS, layoutValues, type LayoutAdapter, type LayoutName } from './layouts.ts';
import { ModbusTcpHost, type ModbusUnit } from './modbus-host.ts';
import type { ParallelBus } from './parallel-bus.ts';
import { FirmwareSlot } from './firmware-slot.ts';
import { MODBUS_EXCEPTION, ModbusException, RegisterBank } from './register-bank.ts';
import { RealtimeClock } from './realtime-clock.ts';

export interface GensetSimulatorOptions extends GensetModelOptions {
  layout: LayoutName;
  /** Modbus unit id (slave address), 1…247; default 1. */
  unitId?: number;
  /** A name for the control endpoint and logs. */
  id?: string;
  /** Simulated time per real time in real-time mode: 60 runs a minute of genset life per second. */
  timeScale?: number;
  /** true (default): a timer advances the clock; false: time moves only by tick(). */
  realtime?: boolean;
  /** Real-time timer period. */
  tickIntervalMs?: number;
  /** The controller's model, which a firmware image must name (default by layout: HGM6120, DSE7320). */
  controllerModel?: string;
  /** The firmware it runs at start (default 1.0.0). */
  firmwareVersion?: string;
  /** How long installing a firmware takes (a restart of the controller), default 1 s. */
  firmwareInstallMs?: number;
}

export interface GensetSimulatorState extends GensetSnapshot {
  id: string;
  layout: LayoutName;
  unitId: number;
  port: number | null;
  controllerModel: string;
  firmwareVersion: string;
}

/** The controller model of each layout, as the demo's plate data names them. */
export const CONTROLLER_MODELS: Record<LayoutName, string> = { S: 'HGM6120', G: 'DSE7320' };

/** A write that runs a command: a coil (fc 5), exact register values, or a key with its complement. */
type CommandWriteMatch = { command: GensetCommand; values: number[] | null; key: number | null };

function isCommand(key: string): key is GensetCommand {
  return (GENSET_COMMANDS as readonly string[]).includes(key);
}

export function isAlarmCode(code: string): code is AlarmCode {
  return (ALARM_CODES as readonly string[]).includes(code);
}

export class GensetSimulator implements ModbusUnit {
  readonly id: string;
  readonly layout: LayoutName;
  readonly unitId: number;
  readonly document: ProtocolDocument;
  readonly model: GensetModel;
  readonly timeScale: number;
  /** The slot through which a module writes a new firmware (registers at 0xF000). */
  readonly firmware: FirmwareSlot;
  private readonly adapter: LayoutAdapter;
  private readonly bank: RegisterBank;
  private readonly clock: RealtimeClock;
  private modbusHost: ModbusTcpHost | undefined;
  private ownsHost = false;
  /** Command writes by "fc:address" (coil address for fc 5, first register otherwise). */
  private readonly commandWrites = new Map<string, CommandWriteMatch[]>();
  private readonly configByRegister = new Map<number, ConfigParam[]>();

  constructor(options: GensetSimulatorOptions) {
    this.layout = options.layout;
    this.adapter = LAYOUTS[options.layout];
    if (!this.adapter) throw new Error(`unknown layout "${String(options.layout)}": use S or G`);
    this.document = this.adapter.document;
    this.unitId = options.unitId ?? 1;
    this.id = options.id ?? `${this.layout}-${this.unitId}`;
    this.timeScale = options.timeScale ?? 1;
    this.clock = new RealtimeClock(
      options.tickIntervalMs ?? 100,
      () => this.timeScale,
      (ms) => this.tick(ms),
    );
    this.model = new GensetModel(options);
    this.bank = new RegisterBank(this.document);
    this.firmware = new FirmwareSlot(
      options.controllerModel ?? CONTROLLER_MODELS[this.layout],
      options.firmwareVersion ?? '1.0.0',
      options.firmwareInstallMs,
    );

    for (const command of this.document.commands) {
      if (!isCommand(command.key)) continue;
      for (const write of command.writes) {
        const match: CommandWriteMatch =
          write.fc === 5
            ? { command: command.key, values: null, key: null }
            : write.fc === 6
              ? { command: command.key, values: [write.value], key: null }
              : 'key' in write
                ? { command: command.key, values: null, key: write.key }
                : { command: command.key, values: write.values, key: null };
        const slot = `${write.fc}:${write.address}`;
        this.commandWrites.set(slot, [...(this.commandWrites.get(slot) ?? []), match]);
      }
    }
    for (const param of this.document.configParams) {
      for (let i = 0; i < fieldSpan(param.type); i++) {
        const address = param.address + i;
        this.configByRegister.set(address, [...(this.configByRegister.get(address) ?? []), param]);
      }
    }
    this.refresh();
    if (options.realtime ?? true) this.startClock();
  }

  // ---- clock --------------------------------------------------------------------------------------------

  /** Advances simulated time by ms (not scaled) and updates the registers. */
  tick(ms: number): void {
    this.model.advance(ms);
    this.refresh();
  }

  startClock(): void {
    this.clock.start();
  }

  stopClock(): void {
    this.clock.stop();
  }

  private refresh(): void {
    this.bank.encode(layoutValues(this.adapter, this.model));
  }

  // ---- Modbus -------------------------------------------------------------------------------------------

  readBits(fc: 1 | 2, start: number, count: number): boolean[] {
    return this.bank.readBits(fc, start, count);
  }

  readRegisters(fc: 3 | 4, start: number, count: number): number[] {
    if (fc === 3 && FirmwareSlot.covers(start, count)) return this.firmware.read(start, count);
    return this.bank.readWords(fc, start, count);
  }

  writeCoils(start: number, values: boolean[]): void {
    const commands = values.map((_, i) => this.commandWrites.get(`5:${start + i}`)?.[0]);
    // Status coils are the controller's to set; only command coils accept writes.
    if (commands.some((match) => !match)) throw new ModbusException(MODBUS_EXCEPTION.illegalDataAddress);
    if (values.some(Boolean)) this.refuseWhileLocked();
    values.forEach((pressed, i) => {
      if (pressed) this.model.command(commands[i]!.command);
    });
    this.refresh();
  }

  writeRegisters(start: number, values: number[], fc: 6 | 16): void {
    if (FirmwareSlot.covers(start, values.length)) {
      this.firmware.write(start, values);
      return;
    }
    const commands = this.commandWrites.get(`${fc}:${start}`);
    if (commands) {
      this.runRegisterCommand(commands, values);
      return;
    }
    this.writeConfig(start, values, fc);
  }

  private runRegisterCommand(commands: CommandWriteMatch[], values: number[]): void {
    const match = commands.find((candidate) =>
      candidate.key !== null
        ? values.length === 2 && values[0] === candidate.key
        : candidate.values?.length === values.length && candidate.values.every((v, i) => v === values[i]),
    );
    // An unknown key, or a key without its complement, is a stray write: refuse it rather than act on it.
    if (!match || (match.key !== null && values[1] !== 65535 - match.key)) {
      throw new ModbusException(MODBUS_EXCEPTION.illegalDataValue);
    }
    this.refuseWhileLocked();
    this.model.command(match.command);
    this.refresh();
  }

  /** Remote control locked at the panel: commands are refused the way controllers refuse a disabled function. */
  private refuseWhileLocked(): void {
    if (this.model.remoteLock) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
  }

  private writeConfig(start: number, values: number[], fc: 6 | 16): void {
    const touched = new Set<ConfigParam>();
    for (let address = start; address < start + values.length; address++) {
      const params = this.configByRegister.get(address);
      // Measurements are read-only; only configuration registers take writes.
      if (!params) throw new ModbusException(MODBUS_EXCEPTION.illegalDataAddress);
      // A register of several bit fields sets every one of them.
      for (const param of params) touched.add(param);
    }
    const accepted: [SettingKey, number][] = [];
    for (const param of touched) {
      if (fc === 6 && param.writeFc === 16) throw new ModbusException(MODBUS_EXCEPTION.illegalFunction);
      const span = fieldSpan(param.type);
      const words = this.bank.holdingWith(start, values, param.address, span);
      const value = decodeFieldValue(configParamField(param), words);
      const inRange = value !== null && value >= param.min && value <= param.max;
      const allowed = !param.options || param.options.some((option) => option.value === value);
      if (!inRange || !allowed) throw new ModbusException(MODBUS_EXCEPTION.illegalDataValue);
      if ((SETTING_KEYS as readonly string[]).includes(param.key)) accepted.push([param.key as SettingKey, value]);
    }
    for (const [key, value] of accepted) this.model.setSetting(key, value);
    this.refresh();
  }

  // ---- control API --------------------------------------------------------------------------------------

  /** Presses a panel button (start, stop, auto, manual, test, gen_breaker, mains_breaker, fault_reset). */
  command(command: GensetCommand): boolean {
    const accepted = this.model.command(command);
    this.refresh();
    return accepted;
  }

  setMode(mode: ControllerMode): void {
    this.model.setMode(mode);
    this.refresh();
  }

  setLoad(kw: number): void {
    this.model.setLoad(kw);
    this.refresh();
  }

  setLoadProfile(profile: LoadProfile | null): void {
    this.model.setLoadProfile(profile);
    this.refresh();
  }

  cutMains(): void {
    this.model.cutMains();
    this.refresh();
  }

  restoreMains(): void {
    this.model.restoreMains();
    this.refresh();
  }

  injectFault(code: AlarmCode | string): void {
    if (!isAlarmCode(code)) throw new Error(`unknown alarm code "${code}"; known: ${ALARM_CODES.join(', ')}`);
    this.model.injectFault(code);
    this.refresh();
  }

  clearFault(code: AlarmCode | string): void {
    if (!isAlarmCode(code)) throw new Error(`unknown alarm code "${code}"; known: ${ALARM_CODES.join(', ')}`);
    this.model.clearFault(code);
    this.refresh();
  }

  refuel(toPercent = 100): void {
    this.model.refuel(toPercent);
    this.refresh();
  }

  moveTo(position: Position): void {
    this.model.moveTo(position);
    this.refresh();
  }

  followPath(points: readonly Position[], speedKmh: number, loop = true): void {
    this.model.followPath(points, speedKmh, loop);
    this.refresh();
  }

  /** Puts the set into a parallel group: from now on it synchronises to the bus and shares its load. */
  joinBus(bus: ParallelBus): void {
    bus.join(this.model);
    this.refresh();
  }

  leaveBus(): void {
    this.model.bus?.leave(this.model);
    this.refresh();
  }

  setRemoteLock(locked: boolean): void {
    this.model.setRemoteLock(locked);
    this.refresh();
  }

  setSensorOpen(sensor: Sensor, open: boolean): void {
    this.model.setSensorOpen(sensor, open);
    this.refresh();
  }

  setSetting(key: SettingKey, value: number): void {
    this.model.setSetting(key, value);
    this.refresh();
  }

  get state(): GensetSimulatorState {
    return {
      id: this.id,
      layout: this.layout,
      unitId: this.unitId,
      port: this.port,
      controllerModel: this.firmware.model,
      firmwareVersion: this.firmware.version,
      ...this.model.snapshot(),
    };
  }

  // ---- hosting ------------------------------------------------------------------------------------------

  /** The TCP port it answers on, once attached to a Modbus host. */
  get port(): number | null {
    return this.modbusHost?.port ?? null;
  }

  attachTo(host: ModbusTcpHost, ownsHost = false): void {
    host.attach(this.unitId, this);
    this.modbusHost = host;
    this.ownsHost = ownsHost;
  }

  async close(): Promise<void> {
    this.stopClock();
    this.firmware.close();
    const host = this.modbusHost;
    this.modbusHost = undefined;
    if (!host) return;
    host.detach(this.unitId);
    if (this.ownsHost) await host.close();
  }
}

export interface StartGensetSimulatorOptions extends GensetSimulatorOptions {
  /** TCP port; 0 (the default) takes a free one, reported as `port`. */
  port?: number;
  host?: string;
  /** Share an existing server (several unit ids on one port) instead of opening a port. */
  modbusHost?: ModbusTcpHost;
}

export type RunningGensetSimulator = GensetSimulator & { readonly port: number };

/** Starts one controller on its own port (or on a shared host), ready for Modbus clients. */
export async function startGensetSimulator(options: StartGensetSimulatorOptions): Promise<RunningGensetSimulator> {
  const simulator = new GensetSimulator(options);
  try {
    if (options.modbusHost) {
      simulator.attachTo(options.modbusHost);
    } else {
      const host = await ModbusTcpHost.listen({ port: options.port ?? 0, host: options.host });
      simulator.attachTo(host, true);
    }
  } catch (error) {
    simulator.stopClock();
    throw error;
  }
  return simulator as RunningGensetSimulator;
}
