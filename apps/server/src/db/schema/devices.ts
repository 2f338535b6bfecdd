// Protocols, modules and sets, and what the sets send: subscriptions to a set, its latest values, its samples,
// status changes, alarms and hour/day rollups, how far ingestion has merged them, and the commands sent to
// modules.
import type { ColumnType, Generated } from 'kysely';

export interface ProtocolTable {
  id: Generated<number>;
  protocol_key: string;
  version: number;
  name: string;
  document: string;
  status: string;
  created_at: number;
  published_at: number | null;
}

export interface ModemTable {
  id: Generated<number>;
  modem_key: string;
  secret_hash: string;
  company_id: number;
  model: string;
  firmware: string;
  imei: string;
  iccid: string;
  online: number;
  last_seen_at: number | null;
  last_seq: number;
  telemetry: string;
  created_at: number;
  /** The secret as an external broker checks it (Mosquitto PBKDF2-SHA512, migration 007); null before. */
  broker_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The SIM's IMSI when the module reports it (migration 017). */
  imsi: ColumnType<string, string | undefined, string>;
  /** A demo module's secret, kept so the demo fleet can sign in after a restart (migration 026); null otherwise. */
  demo_secret: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface GensetTable {
  id: Generated<number>;
  token: string;
  company_id: number;
  owner_user_id: number | null;
  name: string;
  modem_id: number | null;
  port: string;
  address: number;
  protocol_key: string;
  time_zone: string;
  subscription_code: string;
  control_code: string;
  details: string;
  created_at: number;
  deleted_at: number | null;
  /** The set's own number (migration 004). */
  number: ColumnType<string | null, string | null | undefined, string | null>;
  /** Lower-cased name and number for the lists' search (migration 004). */
  search_text: ColumnType<string, string | undefined, string>;
  /** The firmware its controller says it runs (migration 020). */
  controller_firmware: ColumnType<string | null, string | null | undefined, string | null>;
  /** The department it belongs to; null: its owner's (migration 025). */
  department_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SubscriptionTable {
  id: Generated<number>;
  genset_id: number;
  user_id: number;
  rights: string;
  created_at: number;
}

export interface SetLatestTable {
  genset_id: number;
  status: number;
  alarm_count: number;
  values: string;
  device_ts: number;
  updated_at: number;
  merged_id: number | null;
}

export interface SampleTable {
  id: Generated<number>;
  modem_id: number;
  seq: number;
  genset_id: number;
  ts: number;
  status: number;
  values: string;
}

export interface StatusChangeTable {
  id: Generated<number>;
  genset_id: number;
  status: number;
  previous: number | null;
  ts: number;
  reason: string;
}

/** A company's threshold alarm (migration 035). */
export interface AlarmRuleTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  item: string;
  op: string;
  threshold: number;
  hysteresis: number;
  delay_s: number;
  level: string;
  scope: string;
  /** JSON: protocol keys (scope `protocols`) or set ids (scope `sets`); [] for the whole fleet. */
  targets: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** A company's alarm policy: episode hold time and escalation (migration 036). */
export interface CompanyAlarmPolicyTable {
  company_id: number;
  hold_s: number;
  /** null: episodes are not escalated. */
  escalate_after_s: number | null;
  /** JSON: the ids of the people an episode is escalated to. */
  escalate_to: string;
  updated_at: number;
}

export interface AlarmTable {
  id: Generated<number>;
  genset_id: number;
  code: string;
  level: string;
  title: string;
  start_ts: number;
  end_ts: number | null;
  acknowledged: number;
  /** Times it was raised in this episode (it came back within the hold time after clearing). */
  occurrences: Generated<number>;
  /** When it was last raised (start_ts is the episode's first). */
  last_start_ts: number | null;
  /** JSON: the start times of its last few raises, to tell flapping. */
  recent_starts: string | null;
  /** 1 once it came back FLAP_CYCLES times within FLAP_WINDOW_MS. */
  flapping: Generated<number>;
  /**
   * While it is cleared but its end is still to be told (it may come back within the hold time): when the server
   * recorded the end (its own clock, not the device's: a backlog sent at once is judged as it arrives).
   */
  end_pending_since: number | null;
  ack_by: number | null;
  ack_at: number | null;
  ack_comment: string | null;
  /** While shelved: until when it notifies no one (a new episode of the same code on the set inherits it). */
  shelved_until: number | null;
  /** When it was escalated, not acknowledged in its company's time (migration 036). */
  escalated_at: ColumnType<number | null, number | null | undefined, number | null>;
  shelved_by: number | null;
  shelved_at: number | null;
  shelve_reason: string | null;
}

export interface RollupTable {
  genset_id: number;
  bucket: number;
  stats: string;
  samples: number;
}

export interface IngestStateTable {
  name: string;
  value: number;
}

export interface CommandTable {
  id: Generated<number>;
  request_id: string;
  genset_id: number | null;
  modem_id: number;
  user_id: number | null;
  kind: string;
  name: string;
  request: string;
  status: string;
  reply: string | null;
  created_at: number;
  finished_at: number | null;
}
