// Table types for Kysely. Times are UTC epoch milliseconds; flags are 0/1 integers; JSON is stored as text
// so one schema serves SQLite and PostgreSQL.
import type { ColumnType, Generated } from 'kysely';

export interface CompanyTable {
  id: Generated<number>;
  name: string;
  title: string;
  logo: string | null;
  baidu_key: string;
  index_template: string;
  created_at: number;
  deleted_at: number | null;
}

export interface CompanyHostTable {
  host: string;
  company_id: number;
}

export interface DepartmentTable {
  id: Generated<number>;
  company_id: number;
  parent_id: number | null;
  name: string;
  sort: number;
  created_at: number;
}

export interface RoleTable {
  id: Generated<number>;
  company_id: number;
  role_key: string;
  name: string;
  permissions: string;
  menus: string;
  data_scope: string;
  status: number;
  created_at: number;
}

export interface UserTable {
  id: Generated<number>;
  company_id: number;
  department_id: number | null;
  role_id: number | null;
  account: string | null;
  account_kind: string;
  nickname: string;
  type: string;
  password_hash: string | null;
  invite_code: string;
  status: string;
  message_settings: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** Moves with every change to the user's subscriptions (kept by triggers, migration 009). */
  subscriptions_version: Generated<number>;
}

export interface SessionTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoke_reason: string | null;
  ip: string;
  user_agent: string;
}

export interface SmsCodeTable {
  id: Generated<number>;
  target: string;
  purpose: string;
  code_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  attempts: number;
}

export interface AuthThrottleTable {
  throttle_key: string;
  failures: number;
  first_failure_at: number;
  locked_until: number | null;
}

export interface MenuTable {
  id: Generated<number>;
  parent_id: number | null;
  sort: number;
  type: string;
  url: string;
  name: string;
  ico: string;
  component: string;
  visible: number;
  external: number;
  permission: string | null;
}

export interface OperationLogTable {
  id: Generated<number>;
  company_id: number | null;
  user_id: number | null;
  account: string | null;
  nickname: string | null;
  matter: string;
  feedback: string;
  ip: string | null;
  target: string | null;
  created_at: number;
}

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

export interface AlarmTable {
  id: Generated<number>;
  genset_id: number;
  code: string;
  level: string;
  title: string;
  start_ts: number;
  end_ts: number | null;
  acknowledged: number;
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

export interface Database {
  company: CompanyTable;
  company_host: CompanyHostTable;
  department: DepartmentTable;
  role: RoleTable;
  users: UserTable;
  session: SessionTable;
  sms_code: SmsCodeTable;
  auth_throttle: AuthThrottleTable;
  menu: MenuTable;
  operation_log: OperationLogTable;
  protocol: ProtocolTable;
  modem: ModemTable;
  genset: GensetTable;
  subscription: SubscriptionTable;
  set_latest: SetLatestTable;
  sample: SampleTable;
  status_change: StatusChangeTable;
  alarm: AlarmTable;
  rollup_hour: RollupTable;
  rollup_day: RollupTable;
  ingest_state: IngestStateTable;
  command: CommandTable;
  item_selection: ItemSelectionTable;
  genset_group: GensetGroupTable;
  genset_group_member: GensetGroupMemberTable;
  report: ReportTable;
  camera: CameraTable;
}
