// What the stages of ingestion hand each other: a module, a set's live state, a snapshot waiting in the queue
// and the same snapshot decoded, plus the counters every stage adds to.
import type { ModemData } from '@genset/protocol';

export const STATUS = { offline: 0, closed: 1, standby: 2, running: 3 } as const;

export type Values = Record<string, number | null>;

export interface ModemInfo {
  id: number;
  key: string;
  companyId: number;
}

export interface OpenAlarm {
  id: number;
  code: string;
  level: string;
  title: Record<string, string>;
  start: number;
}

export interface ActiveAlarm {
  code: string;
  level: string;
  title: Record<string, string>;
}

export interface SetState {
  id: number;
  token: string;
  companyId: number;
  modemId: number;
  protocolKey: string;
  timeZone: string;
  status: number;
  values: Values;
  deviceTs: number;
  openAlarms: Map<string, OpenAlarm>;
  /**
   * The company's threshold rules whose condition holds but whose delay has not passed: rule id → the device time
   * the condition began (kept in memory by the instance that holds the set; a set taken up anew starts again).
   */
  rulesPending: Map<number, number>;
  /** The highest sample id merged into this set's rollups in memory. */
  mergedId: number;
}

export interface Queued {
  modemKey: string;
  message: ModemData;
}

/** A snapshot of a known set, decoded with its protocol; `json` is `values` as stored. */
export interface Decoded {
  modem: ModemInfo;
  message: ModemData;
  base: SetState;
  values: Values;
  status: number;
  active: ActiveAlarm[];
  json: string;
}

/** A sample newly stored (not a controller error), to go into its set's rollups once committed. */
export interface StoredSample {
  set: SetState;
  ts: number;
  values: Values;
  /** The set's status code in this sample. */
  status: number;
  id: number;
}

/** The seqs a batch held for each module (by module id), stored now or before. */
export type SeenSeqs = Map<number, { key: string; seqs: number[] }>;

export function newStats() {
  return {
    received: 0,
    stored: 0,
    duplicates: 0,
    refused: 0,
    batches: 0,
    persists: 0,
    recovered: 0,
    throttled: 0,
    peakQueue: 0,
  };
}
export type IngestStats = ReturnType<typeof newStats>;
