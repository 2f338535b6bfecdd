// Table types for Kysely. Times are UTC epoch milliseconds; flags are 0/1 integers; JSON is stored as text
// so one schema serves SQLite and PostgreSQL.
//
// The tables are described by domain in ./schema/: accounts.ts (companies, people, sessions, the operation
// log), devices.ts (protocols, modules, sets and what they send), sets.ts (what people keep about sets),
// notifications.ts, maintenance.ts (repairs and maintenance), tracks.ts, iotcard.ts, ota.ts and sites.ts
// (energy-storage stations). This file names each table.
import type {
  AuthThrottleTable,
  CompanyHostTable,
  CompanyTable,
  DepartmentTable,
  InvitationTable,
  MemberApplicationTable,
  MenuTable,
  OperationLogTable,
  RoleTable,
  RoleTargetTable,
  SessionTable,
  SmsCodeTable,
  UserCompanyTable,
  UserTable,
} from './schema/accounts.ts';
import type {
  AlarmTable,
  AlarmRuleTable,
  CompanyAlarmPolicyTable,
  CommandTable,
  GensetTable,
  IngestStateTable,
  ModemTable,
  ProtocolTable,
  RollupTable,
  SampleTable,
  SetLatestTable,
  StatusChangeTable,
  SubscriptionTable,
} from './schema/devices.ts';
import type { SimCardTable, SimUsageDayTable, SimUsageMonthTable } from './schema/iotcard.ts';
import type {
  MaintenanceItemTable,
  MaintenanceLinkTable,
  MaintenanceTaskTable,
  MaintenanceTemplateTable,
  RepairEventTable,
  RepairRequestTable,
} from './schema/maintenance.ts';
import type {
  JobLeaseTable,
  NotificationDeliveryTable,
  NotificationEventTable,
  NotificationTable,
  WebhookTable,
} from './schema/notifications.ts';
import type { OtaCampaignTable, OtaFileTable, OtaJobTable } from './schema/ota.ts';
import type {
  CameraTable,
  GensetGroupMemberTable,
  GroupCommandSetTable,
  GroupCommandTable,
  GensetGroupTable,
  ItemSelectionTable,
  ReportTable,
  TransferTable,
} from './schema/sets.ts';
import type {
  PriceTemplateTable,
  PriceTemplateVersionTable,
  SiteDeviceTable,
  SiteEnergyTable,
  SiteRunRecordTable,
  SiteTable,
  SiteTacticTable,
} from './schema/sites.ts';
import type { GeofenceTable, PositionTable, SetPositionTable } from './schema/tracks.ts';
import type { PushKeyTable, PushSubscriptionTable } from './schema/push.ts';
import type { MessageLogTable } from './schema/messages.ts';

export type * from './schema/accounts.ts';
export type * from './schema/devices.ts';
export type * from './schema/sets.ts';
export type * from './schema/notifications.ts';
export type * from './schema/maintenance.ts';
export type * from './schema/tracks.ts';
export type * from './schema/iotcard.ts';
export type * from './schema/ota.ts';
export type * from './schema/sites.ts';
export type * from './schema/messages.ts';
export type * from './schema/push.ts';

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
  alarm_rule: AlarmRuleTable;
  company_alarm_policy: CompanyAlarmPolicyTable;
  rollup_hour: RollupTable;
  rollup_day: RollupTable;
  ingest_state: IngestStateTable;
  command: CommandTable;
  item_selection: ItemSelectionTable;
  genset_group: GensetGroupTable;
  genset_group_member: GensetGroupMemberTable;
  group_command: GroupCommandTable;
  group_command_set: GroupCommandSetTable;
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
  push_subscription: PushSubscriptionTable;
  push_key: PushKeyTable;
  message_log: MessageLogTable;
}
