// Companies and the people in them: companies and the hosts they are reached at, departments, roles and the sets
// and stations a custom role chooses, invitations and the applications made through them, users and every
// company they belong to, sessions, SMS codes and sign-in throttling; the console's menu and the operation log.
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
  /** The console language the person last used, for what the server sends them ('' before then; migration 028). */
  language: ColumnType<string, string | undefined, string>;
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
