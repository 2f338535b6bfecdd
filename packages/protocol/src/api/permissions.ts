// Permission strings and the one rule that reads them (spec 6): '*:*' grants all, any listed grants.

export const ALL_PERMISSIONS = '*:*';

export const Permission = {
  gensetView: 'genset:view',
  gensetManage: 'genset:manage',
  gensetControl: 'genset:control',
  gensetReport: 'genset:report',
  alarmView: 'alarm:view',
  protocolManage: 'protocol:manage',
  userManage: 'user:manage',
  roleManage: 'role:manage',
  departmentManage: 'department:manage',
  companyManage: 'company:manage',
  siteView: 'site:view',
  siteManage: 'site:manage',
  logView: 'log:view',
  /** Works the repair-request queue of the company's sets (accept, progress, finish, reject). */
  repairManage: 'repair:manage',
  /** Uploads firmware files and upgrades the modules and controllers of the sets one manages. */
  otaManage: 'ota:manage',
} as const;
export type PermissionString = (typeof Permission)[keyof typeof Permission];

/** True when the granted list holds '*:*' or any of the required strings. An empty requirement is a bug. */
export function hasAnyPermission(granted: readonly string[], required: readonly string[]): boolean {
  if (required.length === 0) throw new Error('A permission requirement must name at least one permission');
  if (granted.includes(ALL_PERMISSIONS)) return true;
  return required.some((p) => granted.includes(p));
}

/**
 * What a role's holder sees beyond their own sets and stations:
 * - `all`: every company's (the platform administrator);
 * - `company`: all of their company's;
 * - `departmentTree`: those of their department and every department below it;
 * - `department`: those of their own department only;
 * - `self`: only their own;
 * - `custom`: the sets and stations chosen on the role.
 */
export const DATA_SCOPES = ['all', 'company', 'departmentTree', 'department', 'self', 'custom'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];
