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
  /** Contact, currency and time zone (migration 023). */
  contact_person: ColumnType<string, string | undefined, string>;
  contact_phone: ColumnType<string, string | undefined, string>;
  contact_email: ColumnType<string, string | undefined, string>;
  currency: ColumnType<string, string | undefined, string>;
  time_zone: ColumnType<string, string | undefined, string>;
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

/** A `custom` data-scope role's chosen sets (kind 'set', genset.id) and stations (kind 'site', site.id) (migration 024). */
export interface RoleTargetTable {
  id: Generated<number>;
  role_id: number;
  kind: 'set' | 'site';
  target_id: number;
}

/** A link that lets a person apply to join a company, proposing a role and department (migration 024). */
export interface InvitationTable {
  id: Generated<number>;
  company_id: number;
  code: string;
  role_id: number | null;
  department_id: number | null;
  max_uses: number;
  uses: Generated<number>;
  expires_at: number;
  revoked_at: number | null;
  created_by: number | null;
  created_at: number;
}

/** A person's application to join a company through an invitation (migration 024). */
export interface MemberApplicationTable {
  id: Generated<number>;
  company_id: number;
  invitation_id: number | null;
  invite_code: string;
  user_id: number;
  /** pending | approved | rejected */
  status: string;
  applied_at: number;
  reviewed_at: number | null;
  reviewed_by: number | null;
  role_id: number | null;
  department_id: number | null;
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
  /** 1 after an administrator set a temporary password: every call but changing it is refused (migration 023). */
  must_change_password: Generated<number>;
}

/** Every company a person belongs to, with the role and department held there (migration 023). */
export interface UserCompanyTable {
  user_id: number;
  company_id: number;
  role_id: number | null;
  department_id: number | null;
  created_at: number;
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
  /** The SIM's IMSI when the module reports it (migration 017). */
  imsi: ColumnType<string, string | undefined, string>;
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

export interface NotificationEventTable {
  id: Generated<number>;
  kind: string;
  company_id: number | null;
  genset_id: number | null;
  payload: string;
  dedupe_key: string | null;
  created_at: number;
  processed_at: number | null;
}

export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  event_id: number;
  kind: string;
  level: string;
  genset_id: number | null;
  payload: string;
  created_at: number;
  read_at: number | null;
}

export interface WebhookTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  url: string;
  secret: string;
  events: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface NotificationDeliveryTable {
  id: Generated<number>;
  event_id: number;
  company_id: number | null;
  user_id: number | null;
  webhook_id: number | null;
  channel: string;
  target: string;
  group_key: string;
  payload: string;
  status: string;
  attempts: Generated<number>;
  not_before: number;
  locked_until: number | null;
  last_error: string | null;
  response_status: number | null;
  created_at: number;
  sent_at: number | null;
}

export interface JobLeaseTable {
  name: string;
  holder: string;
  expires_at: number;
}

export interface TransferTable {
  id: Generated<number>;
  genset_id: number;
  /** The handing-over user (sender) and the receiving user. */
  from_user_id: number;
  to_user_id: number;
  /** untreated, accepted, rejected or revoked (migration 013). */
  status: string;
  /** What the sender keeps once the receiver accepts: none, or a view or control subscription. */
  keep_subscription: string;
  remark: ColumnType<string, string | undefined, string>;
  /** Handover time and processing time (accepted, rejected or revoked). */
  created_at: number;
  processed_at: number | null;
}

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

/** A GPS fix of a set, as its module reported it (migration 018). */
export interface PositionTable {
  genset_id: number;
  ts: number;
  lat: number;
  lon: number;
  speed: number | null;
  alt: number | null;
}

/** A set's latest fix, the last one stored, and whether it is inside its fence (migration 018). */
export interface SetPositionTable {
  genset_id: number;
  ts: number;
  lat: number;
  lon: number;
  speed: number | null;
  stored_ts: number;
  stored_lat: number;
  stored_lon: number;
  fence_state: ColumnType<string, string | undefined, string>;
}

/** A set's drawn fence: a circle or a polygon as JSON (migration 018). */
export interface GeofenceTable {
  genset_id: number;
  shape: string;
  updated_at: number;
  updated_by: number | null;
}

/** A SIM card (by ICCID): its plan and the latest counter reading counted (migration 017). */
export interface SimCardTable {
  iccid: string;
  plan_mb: number | null;
  start_day: number;
  alarm_share: number;
  last_ts: number | null;
  last_rx: number | null;
  last_tx: number | null;
  created_at: number;
  updated_at: number;
}

/** Bytes a card used on one day of its set's calendar, or in one billing month (migration 017). */
export interface SimUsageDayTable {
  iccid: string;
  day: string;
  rx_bytes: number;
  tx_bytes: number;
}
export interface SimUsageMonthTable {
  iccid: string;
  month: string;
  rx_bytes: number;
  tx_bytes: number;
}

/** A firmware file for cloud modules or controllers of one model (migration 019). */
export interface OtaFileTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  version: string;
  target: string;
  model: string;
  size: number;
  md5: string;
  sha256: string;
  stored_name: string;
  created_by: number | null;
  created_at: number;
}

/** One assignment of a file to sets: how many may download at once, and when (migration 019). */
export interface OtaCampaignTable {
  id: Generated<number>;
  file_id: number;
  company_id: number;
  concurrency: number;
  window_start: number | null;
  window_end: number | null;
  created_by: number | null;
  created_at: number;
}

/** One set's upgrade: its state, progress and reason (migration 019). */
export interface OtaJobTable {
  id: Generated<number>;
  campaign_id: number;
  file_id: number;
  genset_id: number;
  modem_id: number;
  state: string;
  progress: number;
  reason: string;
  from_version: string;
  request_id: string | null;
  download_token: string | null;
  created_at: number;
  started_at: number | null;
  updated_at: number;
  finished_at: number | null;
}

/** A price template of a company (migration 021); its bodies are its versions. */
export interface PriceTemplateTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** One version of a price template, in force from valid_from (migration 021). */
export interface PriceTemplateVersionTable {
  id: Generated<number>;
  template_id: number;
  version: number;
  body: string;
  valid_from: number;
  created_by: number | null;
  created_by_name: string;
  created_at: number;
}

/** An energy-storage station (migration 021). */
export interface SiteTable {
  id: Generated<number>;
  token: string;
  company_id: number;
  owner_user_id: number | null;
  name: string;
  address: string | null;
  lat: number | null;
  lon: number | null;
  time_zone: string;
  currency: string;
  capacity_kwh: number;
  rating_kw: number;
  transformer_kw: number | null;
  build_date: string | null;
  modem_id: number | null;
  template_id: number | null;
  tactic_version: number;
  tactic_outcome: string | null;
  tactic_sent_at: number | null;
  strategy: string | null;
  template_version: number | null;
  running_version: number | null;
  running_strategy: string | null;
  ems_state: string | null;
  safe_reason: string | null;
  setpoint_kw: number | null;
  demand_response: string | null;
  /** Since the station was built: kept as its energy is counted (migration 022). */
  total_charge_kwh: number;
  total_discharge_kwh: number;
  total_charge_cost: number;
  total_discharge_income: number;
  ems_ts: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** The department it belongs to; null: its owner's (migration 025). */
  department_id: number | null;
}

/** A set of a station and its role; the PCS's energy counters as last counted (migration 021). */
export interface SiteDeviceTable {
  id: Generated<number>;
  site_id: number;
  genset_id: number;
  role: string;
  sort: number;
  last_ts: number | null;
  last_charge_kwh: number | null;
  last_discharge_kwh: number | null;
}

/** Each tactic sent to a station's module and what became of it (migration 021). */
export interface SiteTacticTable {
  id: Generated<number>;
  site_id: number;
  version: number;
  strategy: string;
  template_id: number | null;
  template_version: number | null;
  body: string;
  user_id: number | null;
  account: string;
  request_id: string | null;
  outcome: string;
  reason: string;
  created_at: number;
  finished_at: number | null;
}

/** Energy and money of a station per local day, tariff period and template version (migration 021). */
export interface SiteEnergyTable {
  site_id: number;
  day: string;
  period: string;
  template_version_id: number;
  charge_kwh: number;
  discharge_kwh: number;
  charge_cost: number;
  discharge_income: number;
}

/** What a station did: tactics, strategy changes, safe stops, demand response, state changes (migration 021). */
export interface SiteRunRecordTable {
  id: Generated<number>;
  site_id: number;
  ts: number;
  kind: string;
  version: number | null;
  detail: string;
  created_at: number;
}

export interface Database {
  position: PositionTable;
  set_position: SetPositionTable;
  geofence: GeofenceTable;
  company: CompanyTable;
  company_host: CompanyHostTable;
  department: DepartmentTable;
  role: RoleTable;
  role_target: RoleTargetTable;
  invitation: InvitationTable;
  member_application: MemberApplicationTable;
  users: UserTable;
  user_company: UserCompanyTable;
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
  repair_request: RepairRequestTable;
  repair_event: RepairEventTable;
  transfer: TransferTable;
  notification_event: NotificationEventTable;
  notification: NotificationTable;
  webhook: WebhookTable;
  notification_delivery: NotificationDeliveryTable;
  job_lease: JobLeaseTable;
  maintenance_item: MaintenanceItemTable;
  maintenance_task: MaintenanceTaskTable;
  maintenance_template: MaintenanceTemplateTable;
  maintenance_link: MaintenanceLinkTable;
  sim_card: SimCardTable;
  sim_usage_day: SimUsageDayTable;
  sim_usage_month: SimUsageMonthTable;
  ota_file: OtaFileTable;
  ota_campaign: OtaCampaignTable;
  ota_job: OtaJobTable;
  price_template: PriceTemplateTable;
  price_template_version: PriceTemplateVersionTable;
  site: SiteTable;
  site_device: SiteDeviceTable;
  site_tactic: SiteTacticTable;
  site_energy: SiteEnergyTable;
  site_run_record: SiteRunRecordTable;
}
