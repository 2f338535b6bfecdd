// Polls one controller as its plan says (blocks, online or offline rate, full or changes-only) and hands each
// snapshot on; a controller that does not answer yields a snapshot with an error rather than silence.
import type { ModemControllerPlan, ModemDataBlock, MqttPollBlock } from '@genset/protocol';
import { MQTT_MAX_ERROR_LENGTH } from '@genset/protocol';
import { errorText } from './logger.ts';
import { type ControllerChannel, ModbusError, type ModbusLink } from './modbus-link.ts';

export interface Snapshot {
  /** The module's clock when the read began. */
  ts: number;
  blocks: ModemDataBlock[];
  error?: string;
}

export interface ControllerStatus {
  port: string;
  address: number;
  polling: boolean;
  rateMs: number | undefined;
  lastReadAt: number | undefined;
  lastError: string | undefined;
  snapshotsSent: number;
}

/** Reads every block; a refused block is reported and the rest still read, a lost link ends the snapshot. */
export async function readBlocks(
  channel: ControllerChannel,
  blocks: readonly MqttPollBlock[],
): Promise<{ blocks: ModemDataBlock[]; error?: string }> {
  const read: ModemDataBlock[] = [];
  const problems: string[] = [];
  for (const block of blocks) {
    try {
      read.push(await channel.readBlock(block));
    } catch (error) {
      problems.push(`fc ${block.fc} at ${block.start}: ${errorText(error)}`);
      if (error instanceof ModbusError && error.linkFailure) break;
    }
  }
  if (problems.length === 0) return { blocks: read };
  return { blocks: read, error: truncate(problems.join('; ')) };
}

export function truncate(text: string): string {
  return text.length <= MQTT_MAX_ERROR_LENGTH ? text : `${text.slice(0, MQTT_MAX_ERROR_LENGTH - 1)}…`;
}

export class ControllerPoller {
  private plan: ModemControllerPlan | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = false;
  private lastStartedAt = 0;
  /** When the pending timer was meant to fire (the grid point), as opposed to when it does. */
  private scheduledFor: number | undefined;
  private lastSentKey: string | undefined;
  private periodsSinceSent = 0;
  private lastReadAt: number | undefined;
  private lastError: string | undefined;
  private snapshotsSent = 0;

  constructor(
    readonly port: string,
    readonly address: number,
    private readonly link: ModbusLink,
    private readonly defaultFullSnapshotEvery: number,
    private readonly send: (snapshot: Snapshot) => void,
  ) {}

  get status(): ControllerStatus {
    return {
      port: this.port,
      address: this.address,
      polling: this.plan !== undefined && !this.stopped,
      rateMs: this.plan && this.rateOf(this.plan),
      lastReadAt: this.lastReadAt,
      lastError: this.lastError,
      snapshotsSent: this.snapshotsSent,
    };
  }

  /** Takes a new plan (or none: stop polling). A faster rate takes effect at once, not after the slow period. */
  applyPlan(plan: ModemControllerPlan | undefined): void {
    if (this.stopped) return;
    const previous = this.plan;
    this.plan = plan;
    if (!plan || plan.blocks.length === 0) {
      this.plan = undefined;
      this.clearTimer();
      return;
    }
    if (!previous || JSON.stringify(previous.blocks) !== JSON.stringify(plan.blocks) || previous.mode !== plan.mode) {
      // Different blocks or mode: the next snapshot goes out whatever it holds.
      this.lastSentKey = undefined;
    }
    if (this.polling) return; // the running poll schedules the next one with the new rate
    if (previous && this.rateOf(previous) === this.rateOf(plan) && this.timer) return;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  private rateOf(plan: ModemControllerPlan): number {
    return plan.online ? plan.onlineRateMs : plan.offlineRateMs;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.clearTimer();
    if (this.stopped || !this.plan) return;
    // Fixed rate on a grid from the nominal start of the last poll, so neither a slow controller nor a late
    // timer stretches the period; after a long stall the grid starts again from now instead of bursting.
    const rate = this.rateOf(this.plan);
    const now = Date.now();
    const due = this.lastStartedAt + rate < now - rate ? now : this.lastStartedAt + rate;
    this.scheduledFor = due;
    this.timer = setTimeout(() => void this.poll(), Math.max(0, due - now));
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    const plan = this.plan;
    if (this.stopped || !plan) return;
    this.polling = true;
    const ts = Date.now();
    this.lastStartedAt = this.scheduledFor ?? ts;
    this.scheduledFor = undefined;
    let snapshot: Snapshot;
    try {
      const result = await this.link.run(this.address, (channel) => readBlocks(channel, plan.blocks));
      snapshot = { ts, ...result };
    } catch (error) {
      snapshot = { ts, blocks: [], error: truncate(errorText(error)) };
    } finally {
      this.polling = false;
    }
    if (this.stopped) return;
    this.lastError = snapshot.error;
    if (snapshot.blocks.length > 0) this.lastReadAt = ts;
    this.offer(snapshot, plan);
    this.schedule();
  }

  private offer(snapshot: Snapshot, plan: ModemControllerPlan): void {
    const key = JSON.stringify([snapshot.blocks, snapshot.error ?? null]);
    this.periodsSinceSent += 1;
    const fullEvery = plan.fullSnapshotEvery ?? this.defaultFullSnapshotEvery;
    const due = plan.mode === 'full' || key !== this.lastSentKey || this.periodsSinceSent >= fullEvery;
    if (!due) return;
    this.lastSentKey = key;
    this.periodsSinceSent = 0;
    this.snapshotsSent += 1;
    this.send(snapshot);
  }
}
