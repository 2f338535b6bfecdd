// Repairs and maintenance: repair requests and their steps; a set's maintenance items and tasks, a company's
// templates of items, and the links that let someone without an account record maintenance.
import type { Generated } from 'kysely';

export interface RepairRequestTable {
  id: Generated<number>;
  /** Names the request in addresses (random, URL-safe). */
  token: string;
  genset_id: number;
  requester_id: number;
  contact: string;
  phone: string;
  address: string;
  description: string;
  /** submitted, accepted, in_progress, done or rejected. */
  state: string;
  /** JSON: [{ name, type, size }] of the files under DATA_DIR/uploads/repairs. */
  pictures: string;
  created_at: number;
  updated_at: number;
}

/** One step of a repair request: the state it went to, the note, who (their nickname as it was) and when. */
export interface RepairEventTable {
  id: Generated<number>;
  request_id: number;
  state: string;
  note: string;
  user_id: number | null;
  author: string;
  created_at: number;
}

/** An item of a set's maintenance plan (migration 016). */
export interface MaintenanceItemTable {
  id: Generated<number>;
  genset_id: number;
  name: string;
  cycle_days: number | null;
  cycle_hours: number | null;
  remind_days: number;
  remind_hours: number;
  /** The latest service (YYYY-MM-DD in the set's calendar) and the run hours then: the next is due from them. */
  latest_date: string;
  latest_hours: number | null;
  planned_date: string | null;
  replaced_model: string;
  remark: string;
  /** 1 enabled, 0 disabled. */
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** A maintenance task: pending (one per item) or done, with what was done, by whom and at how many run hours. */
export interface MaintenanceTaskTable {
  id: Generated<number>;
  item_id: number;
  genset_id: number;
  name: string;
  status: string;
  due_date: string | null;
  due_hours: number | null;
  /** When the reminder and the overdue notice were raised. */
  reminded_at: number | null;
  overdue_at: number | null;
  actual_date: string | null;
  run_hours: number | null;
  replaced_model: string;
  remark: string;
  done_by_user_id: number | null;
  done_by: string;
  created_at: number;
  done_at: number | null;
}

/** A company's template of maintenance items for a set model. */
export interface MaintenanceTemplateTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  model: string;
  items: string;
  created_at: number;
  updated_at: number;
}

/** A time-limited, revocable maintenance link of a set (the token itself is only kept hashed). */
export interface MaintenanceLinkTable {
  id: Generated<number>;
  genset_id: number;
  token_hash: string;
  created_by: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}
