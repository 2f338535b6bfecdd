// A station's EMS cycle on the cloud module: every tactic.cycleMs it reads the role registers (one job per
// controller, contiguous registers in one request), decides from that snapshot, and writes the PCS setpoint
// (and the PV limit when reverse power needs it). A PCS or BMS fault, a stale meter or a lost link holds the
// battery at 0 kW. It runs from the tactic kept on disk and never waits for the cloud.
import {
  EMS_STALE_MS,
  EMS_WRITTEN_ROLES,
  decodeFieldValue,
  encodeFieldValue,
  fieldSpan,
  localClock,
  missingEmsRole,
  type EmsDemandResponse,
  type EmsRole,
  type EmsRoleCoordinate,
  type EmsSafeReason,
  type EmsStatus,
  type EmsTactic,
  type ModemDataBlock,
  type MqttPollBlock,
  type RegisterField,
} from '@genset/protocol';
import { errorText, type GatewayLogger } from '../logger.ts';
import type { ModbusLink } from '../modbus-link.ts';
import type { EmsStore } from './ems-store.ts';
import {
  SOC_LATCH_OPEN,
  activeDemandResponse,
  decide,
  type EmsDecision,
  type EmsMeasurements,
  type SocLatch,
} from './strategies.ts';

export interface EmsCycleOptions {
  /** The module's Modbus ports by name (shared with the poller: each port serialises its requests). */
  links: ReadonlyMap<string, ModbusLink>;
  store: EmsStore;
  logger: GatewayLogger;
  /**
   * The station's clock for tariff periods (default: the real one); a site simulated faster than real time passes
   * its own. Staleness and demand-response events keep real time.
   */
  clock?: () => number;
  /** Reports a status even before any tactic arrives (version 0, safe: noTactic): a station's module. */
  station?: boolean;
  /** Called when the running tactic or the reason for holding the battery safe changes. */
  onChange?: (status: EmsStatus) => void;
}

export type EmsAcceptance = { ok: true; version: number } | { ok: false; error: string };

/** Unused registers read across to join two roles' registers into one request (as poll blocks do). */
const MAX_REGISTER_GAP = 16;
const MAX_READ_REGISTERS = 125;
/** Field decoding keeps this many decimals (the codec rounds). */
const DECIMALS = 6;

/** What the cycle reads: every role but the setpoint, which it only writes. */
const READ_ROLES = (role: EmsRole) => role !== 'pcsSetpointKw';

interface ControllerReads {
  port: string;
  address: number;
  blocks: MqttPollBlock[];
  roles: { role: EmsRole; field: RegisterField }[];
}

function fieldOf(coordinate: EmsRoleCoordinate): RegisterField {
  return {
    fc: coordinate.fc,
    address: coordinate.register,
    type: coordinate.type,
    wordOrder: coordinate.wordOrder,
    scale: coordinate.scale,
    offset: coordinate.offset,
    decimals: DECIMALS,
    noData: [],
  };
}

/** The reads of a tactic's roles, grouped per controller and merged into as few requests as the limits allow. */
export function planRoleReads(roles: EmsTactic['roles']): ControllerReads[] {
  const controllers = new Map<string, ControllerReads>();
  for (const [role, coordinate] of Object.entries(roles) as [EmsRole, EmsRoleCoordinate][]) {
    if (!READ_ROLES(role)) continue;
    const key = `${coordinate.port}/${coordinate.address}`;
    let entry = controllers.get(key);
    if (!entry) {
      entry = { port: coordinate.port, address: coordinate.address, blocks: [], roles: [] };
      controllers.set(key, entry);
    }
    entry.roles.push({ role, field: fieldOf(coordinate) });
  }
  for (const entry of controllers.values()) {
    const spans = entry.roles
      .map(({ field }) => ({ fc: field.fc, start: field.address, end: field.address + fieldSpan(field.type) }))
      .sort((a, b) => a.fc - b.fc || a.start - b.start);
    let current: (typeof spans)[number] | undefined;
    for (const span of spans) {
      if (
        current &&
        current.fc === span.fc &&
        span.start <= current.end + MAX_REGISTER_GAP &&
        Math.max(current.end, span.end) - current.start <= MAX_READ_REGISTERS
      ) {
        current.end = Math.max(current.end, span.end);
        continue;
      }
      if (current) entry.blocks.push({ fc: current.fc, start: current.start, count: current.end - current.start });
      current = { ...span };
    }
    if (current) entry.blocks.push({ fc: current.fc, start: current.start, count: current.end - current.start });
  }
  return [...controllers.values()];
}

function valueFrom(field: RegisterField, blocks: readonly ModemDataBlock[]): number | undefined {
  const span = fieldSpan(field.type);
  for (const block of blocks) {
    if (block.fc !== field.fc || !block.words) continue;
    const at = field.address - block.start;
    if (at < 0 || at + span > block.words.length) continue;
    return decodeFieldValue(field, block.words.slice(at, at + span)) ?? undefined;
  }
  return undefined;
}

/**
 * Why a tactic cannot run on this module, or null. The schema is checked by the message parser; this checks it
 * against the module: every required role present, every controller on one of its ports, written roles in
 * holding registers.
 */
export function tacticProblem(tactic: EmsTactic, links: ReadonlyMap<string, ModbusLink>): string | null {
  const missing = missingEmsRole(tactic.roles);
  if (missing) return `role ${missing} missing`;
  for (const [role, coordinate] of Object.entries(tactic.roles) as [EmsRole, EmsRoleCoordinate][]) {
    if (!links.get(coordinate.port)?.hasController(coordinate.address)) {
      return `role ${role}: no controller at port ${coordinate.port} address ${coordinate.address}`;
    }
    if (coordinate.register + fieldSpan(coordinate.type) > 0x10000) return `role ${role}: register past 65535`;
    if ((EMS_WRITTEN_ROLES as readonly EmsRole[]).includes(role) && coordinate.fc !== 3) {
      return `role ${role} is written: it must be a holding register (fc 3), not fc ${coordinate.fc}`;
    }
  }
  try {
    localClock(0, tactic.timeZone);
  } catch {
    return `unknown time zone ${tactic.timeZone}`;
  }
  return null;
}

export class EmsCycle {
  private tactic: EmsTactic | undefined;
  private reads: ControllerReads[] = [];
  private events: EmsDemandResponse[] = [];
  private latch: SocLatch = SOC_LATCH_OPEN;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private nextDueAt = 0;
  /** Real time of the last successful read of the grid power, and the site's load (grid + PCS) at that read. */
  private gridReadAt: number | undefined;
  private lastBaseKw: number | undefined;
  private current: EmsStatus | undefined;
  private readonly clock: () => number;
  /** The last problem logged, so a lasting one is logged once. */
  private lastProblem: string | undefined;
  private cycles = 0;

  constructor(private readonly options: EmsCycleOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Resumes the tactic and events kept on disk, and starts cycling if there is a tactic. */
  start(): void {
    const stored = this.options.store.tactic();
    this.events = this.options.store.events();
    if (stored) {
      const problem = tacticProblem(stored, this.options.links);
      if (problem) this.options.logger.warn(`stored tactic ${stored.version} does not fit this module: ${problem}`);
      else {
        this.options.logger.info(`EMS: resuming tactic ${stored.version} (${stored.strategy})`);
        this.apply(stored);
      }
    }
    if (!this.tactic && this.options.station) {
      this.current = { version: 0, setpointKw: 0, safe: 'noTactic', ts: Date.now() };
    }
  }

  /** The status the module reports: undefined for a module that never ran a tactic and is not a station's. */
  get status(): EmsStatus | undefined {
    return this.current;
  }

  /** Cycles run since start. */
  get cycleCount(): number {
    return this.cycles;
  }

  /**
   * Takes a tactic from the cloud: checked against this module, kept on disk, run from the next cycle. The same
   * version again is taken (a re-sent request); an older one is refused.
   */
  acceptTactic(tactic: EmsTactic): EmsAcceptance {
    if (this.stopped) return { ok: false, error: 'the module is shutting down' };
    const running = this.tactic?.version ?? 0;
    if (tactic.version < running) return { ok: false, error: `older than version ${running}` };
    const problem = tacticProblem(tactic, this.options.links);
    if (problem) return { ok: false, error: problem };
    this.options.store.saveTactic(tactic);
    this.options.logger.info(`EMS: tactic ${tactic.version} (${tactic.strategy}) accepted`);
    this.apply(tactic);
    return { ok: true, version: tactic.version };
  }

  /** Adds a demand-response event, or replaces the one with its id. */
  addDemandResponse(event: EmsDemandResponse): EmsAcceptance {
    if (this.stopped) return { ok: false, error: 'the module is shutting down' };
    if (!this.tactic) return { ok: false, error: 'no tactic: a demand-response event needs one to run with' };
    this.options.store.saveEvent(event);
    this.events = this.options.store.events();
    this.options.logger.info(
      `EMS: demand response ${event.id}: ${event.kw} kW from ${new Date(event.startTs).toISOString()} ` +
        `to ${new Date(event.endTs).toISOString()}`,
    );
    return { ok: true, version: this.tactic.version };
  }

  /** Stops cycling after the cycle under way (if any); the PCS's own watchdog takes the setpoint to 0. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One cycle now (tests); cycles never overlap. */
  async runOnce(): Promise<void> {
    while (this.running) await this.running;
    this.running = this.cycle().finally(() => {
      this.running = undefined;
    });
    await this.running;
  }

  private apply(tactic: EmsTactic): void {
    const previous = this.tactic;
    this.tactic = tactic;
    this.reads = planRoleReads(tactic.roles);
    this.current = {
      version: tactic.version,
      strategy: tactic.strategy,
      setpointKw: this.current?.setpointKw ?? 0,
      ts: Date.now(),
    };
    if (previous?.version !== tactic.version) this.options.onChange?.(this.current);
    if (!this.timer && !this.running && !this.stopped) this.schedule(Date.now());
  }

  private schedule(due: number): void {
    if (this.stopped) return;
    this.nextDueAt = due;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.tick();
      },
      Math.max(0, due - Date.now()),
    );
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    await this.runOnce().catch((error: unknown) => this.problem(`EMS cycle failed: ${errorText(error)}`));
    const cycleMs = this.tactic?.cycleMs ?? 1000;
    // On a fixed grid, so a slow read does not stretch the period; after a long stall start again from now.
    const now = Date.now();
    const due = this.nextDueAt + cycleMs;
    this.schedule(due < now ? now : due);
  }

  private async cycle(): Promise<void> {
    const tactic = this.tactic;
    if (!tactic || this.stopped) return;
    this.cycles += 1;
    const read = await this.read();
    const now = Date.now();
    if (this.events.some((event) => event.endTs <= now)) this.events = this.events.filter((event) => event.endTs > now);
    const safe = this.safeReason(read, now);
    let decision: EmsDecision | undefined;
    if (!safe) {
      const m = this.measurements(read);
      decision = decide({
        measurements: m,
        tactic,
        minuteOfDay: localClock(this.clock(), tactic.timeZone).minute,
        demandResponse: activeDemandResponse(this.events, now),
        latch: this.latch,
      });
      this.latch = decision.latch;
    }
    const setpointKw = decision?.setpointKw ?? 0;
    let writeFailed: string | undefined;
    try {
      await this.write('pcsSetpointKw', setpointKw);
    } catch (error) {
      writeFailed = errorText(error);
    }
    if (decision?.pvLimitPct !== undefined && !writeFailed) {
      await this.write('pvLimitPct', decision.pvLimitPct).catch((error: unknown) =>
        this.problem(`EMS: PV limit not written: ${errorText(error)}`),
      );
    }
    const reason: EmsSafeReason | undefined = safe ?? (writeFailed ? 'linkLost' : undefined);
    if (writeFailed) this.problem(`EMS: setpoint not written: ${writeFailed}`);
    else if (safe) this.problem(`EMS: battery held at 0 kW (${safe})`);
    else this.problem(undefined);
    const previous = this.current;
    this.current = {
      version: tactic.version,
      strategy: tactic.strategy,
      setpointKw: reason ? 0 : setpointKw,
      ...(decision?.limitedBy && !reason ? { limitedBy: decision.limitedBy } : {}),
      ...(reason ? { safe: reason } : {}),
      ...(decision?.demandResponse && !reason ? { demandResponse: decision.demandResponse } : {}),
      ts: Date.now(),
    };
    if (previous?.safe !== this.current.safe || previous?.demandResponse !== this.current.demandResponse) {
      this.options.onChange?.(this.current);
    }
  }

  /** Reads every controller's role registers; a controller that fails is reported by its error. */
  private async read(): Promise<{ values: Partial<Record<EmsRole, number>>; failed: Map<EmsRole, string> }> {
    const values: Partial<Record<EmsRole, number>> = {};
    const failed = new Map<EmsRole, string>();
    await Promise.all(
      this.reads.map(async (controller) => {
        const link = this.options.links.get(controller.port);
        try {
          if (!link) throw new Error(`no port ${controller.port}`);
          const blocks = await link.run(controller.address, async (channel) => {
            const out: ModemDataBlock[] = [];
            for (const block of controller.blocks) out.push(await channel.readBlock(block));
            return out;
          });
          for (const { role, field } of controller.roles) {
            const value = valueFrom(field, blocks);
            if (value === undefined || !Number.isFinite(value)) failed.set(role, 'no value');
            else values[role] = value;
          }
        } catch (error) {
          for (const { role } of controller.roles) failed.set(role, errorText(error));
        }
      }),
    );
    const grid = values.gridPowerKw;
    if (grid !== undefined) {
      this.gridReadAt = Date.now();
      if (values.pcsPowerKw !== undefined) this.lastBaseKw = grid + values.pcsPowerKw;
    }
    return { values, failed };
  }

  private safeReason(
    read: { values: Partial<Record<EmsRole, number>>; failed: Map<EmsRole, string> },
    now: number,
  ): EmsSafeReason | undefined {
    const { values, failed } = read;
    for (const role of failed.keys()) {
      if (role !== 'gridPowerKw' && role !== 'pvPowerKw' && role !== 'pvLimitPct') return 'linkLost';
    }
    if (values.pcsFault !== 0) return 'pcsFault';
    if (values.bmsFault !== 0) return 'bmsFault';
    if (this.gridReadAt === undefined || now - this.gridReadAt > EMS_STALE_MS) return 'meterStale';
    if (values.gridPowerKw === undefined && this.lastBaseKw === undefined) return 'meterStale';
    return undefined;
  }

  private measurements(read: { values: Partial<Record<EmsRole, number>> }): EmsMeasurements {
    const v = read.values;
    const pcs = v.pcsPowerKw!;
    // A meter that missed this cycle (but is not stale yet) stands for the load it measured last.
    const grid = v.gridPowerKw ?? this.lastBaseKw! - pcs;
    return {
      gridPowerKw: grid,
      pcsPowerKw: pcs,
      pcsRatingKw: v.pcsRatingKw!,
      soc: v.soc!,
      bmsChargeLimitKw: v.bmsChargeLimitKw!,
      bmsDischargeLimitKw: v.bmsDischargeLimitKw!,
      pvPowerKw: v.pvPowerKw,
      // curtailing needs both the PV output and its limit read this cycle
      pvLimitPct: v.pvPowerKw !== undefined ? v.pvLimitPct : undefined,
    };
  }

  private async write(role: 'pcsSetpointKw' | 'pvLimitPct', value: number): Promise<void> {
    const coordinate = this.tactic?.roles[role];
    if (!coordinate) return;
    const link = this.options.links.get(coordinate.port);
    if (!link) throw new Error(`no port ${coordinate.port}`);
    const field = fieldOf(coordinate);
    const words = encodeFieldValue(field, value);
    await link.run(coordinate.address, (channel) =>
      channel.write(
        words.length === 1
          ? { fc: 6, address: coordinate.register, value: words[0]! }
          : { fc: 16, address: coordinate.register, values: words },
      ),
    );
  }

  /** Logs a problem when it starts (or changes) and its end, not on every cycle. */
  private problem(text: string | undefined): void {
    if (text === this.lastProblem) return;
    if (text) this.options.logger.warn(text);
    else if (this.lastProblem) this.options.logger.info('EMS: running normally again');
    this.lastProblem = text;
  }
}
