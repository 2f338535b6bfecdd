// What people keep about their sets: the items each person chose to see, groups of sets, reports, cameras and
// handovers of a set to another person.
import type { ColumnType, Generated } from 'kysely';

export interface ItemSelectionTable {
  id: Generated<number>;
  user_id: number;
  genset_id: number;
  /** JSON array of item keys, in display order. */
  items: string;
  updated_at: number;
}

export interface GensetGroupTable {
  id: Generated<number>;
  token: string;
  company_id: number;
  name: string;
  /** 'parallel' (one bus) or 'multi' (one site). */
  kind: string;
  /** JSON array of the item keys shown for each member. */
  items: string;
  created_at: number;
  updated_at: number;
}

export interface GensetGroupMemberTable {
  group_id: number;
  genset_id: number;
  /** The group's kind again: a set is in at most one group of each kind (unique with genset_id). */
  kind: string;
  position: number;
}

/** A command to a whole group, run by the server set by set (migration 029). */
export interface GroupCommandTable {
  id: Generated<number>;
  group_id: number;
  company_id: number;
  user_id: number;
  group_name: string;
  kind: string;
  command: string;
  ip: string;
  lang: string;
  /** 'running' until every set has its outcome, then 'done'. */
  state: string;
  created_at: number;
  finished_at: number | null;
}

/** One set's part of a group command: 'pending', 'sending', then 'ok', 'failed' or 'refused'. */
export interface GroupCommandSetTable {
  job_id: number;
  position: number;
  genset_id: number;
  set_name: string;
  state: string;
  code: number | null;
  /** The outcome as a message key, its parameters as JSON (a parameter may hold a text in each language). */
  message: string | null;
  params: string;
  updated_at: number;
}

export interface ReportTable {
  id: Generated<number>;
  genset_id: number;
  /** 1 diesel generator, 2 air compressor. */
  type: number;
  version: number;
  period_from: string;
  period_to: string;
  /** The form as JSON text. */
  form: string;
  user_id: number | null;
  author: string;
  created_at: number;
}

export interface CameraTable {
  id: Generated<number>;
  genset_id: number;
  name: string;
  /** The address without sign-in (rtsp, http or https). */
  url: string;
  /** The camera's user name and password, encrypted (modules/video/secrets.ts); null without sign-in. */
  login: string | null;
  sort: number;
  created_at: number;
  updated_at: number;
}
export interface TransferTable {
  id: Generated<number>;
  genset_id: number;
  /** The handing-over user (sender) and the receiving user (null: no account of the name given exists). */
  from_user_id: number;
  to_user_id: number | null;
  /** The receiving account as the sender named it (migration 027). */
  to_account: ColumnType<string | null, string | null | undefined, string | null>;
  /** untreated, accepted, rejected or revoked (migration 013). */
  status: string;
  /** What the sender keeps once the receiver accepts: none, or a view or control subscription. */
  keep_subscription: string;
  remark: ColumnType<string, string | undefined, string>;
  /** Handover time and processing time (accepted, rejected or revoked). */
  created_at: number;
  processed_at: number | null;
}
