// A common bus that several gensets feed in parallel. Each controller measures the bus, synchronises its set
// to it (frequency, voltage and phase within limits) before closing its breaker, and shares the bus load with
// the others in proportion to its rating, over the load-share line (isochronous) or by speed droop; the bus
// values every member reports (voltage, frequency, total kW and kVA) come from here.

/** Isochronous: the frequency stays at rated whatever the load. Droop: it falls as the load rises. */
export type LoadSharing = 'isochronous' | 'droop';

/** What the bus needs from a member; GensetModel implements it. */
export interface BusMember {
  readonly ratedKw: number;
  readonly ratedFrequency: number;
  readonly genBreakerClosed: boolean;
  readonly genKw: number;
  readonly genFrequency: number;
  readonly genVoltage: number;
  /** Apparent power now, kVA. */
  readonly genKva: number;
  /** The governor's own wander (fraction of rated speed); the sets on the bus wander together. */
  readonly speedWander: number;
  attachBus(bus: ParallelBus | null): void;
}

export interface ParallelBusOptions {
  /** The load the bus feeds, kW. */
  loadKw?: number;
  sharing?: LoadSharing;
  /** Speed droop from no load to full load, percent of rated frequency (droop sharing only). */
  droopPercent?: number;
}

/** Synchronising limits: the breaker closes only while all three hold. */
export const SYNC_LIMITS = { frequencyHz: 0.2, voltagePercent: 5, phaseDegrees: 10 } as const;
/** The synchroniser runs the incoming set this much faster than the bus, so the phase slides towards a match. */
export const SYNC_SLIP_HZ = 0.1;

export class ParallelBus {
  private readonly list: BusMember[] = [];
  loadKw: number;
  readonly sharing: LoadSharing;
  readonly droopPercent: number;

  constructor(options: ParallelBusOptions = {}) {
    this.loadKw = Math.max(0, options.loadKw ?? 0);
    this.sharing = options.sharing ?? 'isochronous';
    this.droopPercent = options.droopPercent ?? 4;
  }

  get members(): readonly BusMember[] {
    return this.list;
  }

  join(member: BusMember): void {
    if (this.list.includes(member)) return;
    this.list.push(member);
    member.attachBus(this);
  }

  leave(member: BusMember): void {
    const index = this.list.indexOf(member);
    if (index === -1) return;
    this.list.splice(index, 1);
    member.attachBus(null);
  }

  setLoad(kw: number): void {
    this.loadKw = Math.max(0, kw);
  }

  /** The members whose breakers are closed onto the bus. */
  get online(): BusMember[] {
    return this.list.filter((member) => member.genBreakerClosed);
  }

  /** Energised: at least one set feeds it. */
  get live(): boolean {
    return this.list.some((member) => member.genBreakerClosed && member.genVoltage > 0);
  }

  /** Rating of the sets on the bus, kW. */
  get onlineKw(): number {
    return this.online.reduce((sum, member) => sum + member.ratedKw, 0);
  }

  /**
   * The load the bus carries: the demand, less what the power management sheds beyond the sets online (a
   * plant starting up picks its loads up as sets come on, instead of tripping the first set on overload).
   */
  get servedKw(): number {
    return Math.min(this.loadKw, this.onlineKw);
  }

  /** What a member on the bus should carry: the served load in proportion to its rating. */
  shareKw(member: BusMember): number {
    const online = this.onlineKw;
    return online > 0 && member.genBreakerClosed ? (this.servedKw * member.ratedKw) / online : 0;
  }

  /**
   * The speed, as a fraction of rated, that the sets on the bus run at: rated when isochronous; with droop,
   * half the droop above rated at no load and half below at full load.
   */
  speedFactor(): number {
    const online = this.onlineKw;
    const wander = this.online.reduce((sum, member) => sum + member.speedWander, 0) / (this.online.length || 1);
    if (this.sharing === 'isochronous' || online === 0) return 1 + wander;
    return 1 + (this.droopPercent / 100) * (0.5 - this.servedKw / online) + wander;
  }

  private weighted(read: (member: BusMember) => number): number {
    const online = this.online;
    const rated = online.reduce((sum, member) => sum + member.ratedKw, 0);
    if (rated === 0) return 0;
    return online.reduce((sum, member) => sum + read(member) * member.ratedKw, 0) / rated;
  }

  /** Bus frequency, Hz (0 when dead). */
  get frequencyHz(): number {
    return this.live ? this.weighted((member) => member.genFrequency) : 0;
  }

  /** Bus phase voltage, V (0 when dead). */
  get voltageV(): number {
    return this.live ? this.weighted((member) => member.genVoltage) : 0;
  }

  get totalKw(): number {
    return this.online.reduce((sum, member) => sum + member.genKw, 0);
  }

  get totalKva(): number {
    return this.online.reduce((sum, member) => sum + member.genKva, 0);
  }
}
