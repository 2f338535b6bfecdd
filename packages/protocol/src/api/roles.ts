// Request and response schemas of a company's administration of roles (permissions, menus, data scope), member
// invitations and the applications made through them, and the operation-log page.
import { z } from 'zod';
import { setToken } from './devices.ts';
import { DATA_SCOPES, Permission } from './permissions.ts';
import { bodyRowId, pageQuery, pageTotals, queryRowId, required, V } from './rules.ts';

export const ROLE_NAME_MAX = 60;
/** Roles every company has; they can be edited but never deleted. */
export const BUILT_IN_ROLES = ['platformAdmin', 'companyAdmin', 'operator', 'viewer', 'personal'] as const;
export const MAX_ROLE_TARGETS = 2000;
export const MAX_INVITE_USES = 1000;
export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const INVITE_STATES = ['active', 'expired', 'revoked', 'usedUp'] as const;
export type InviteState = (typeof INVITE_STATES)[number];
export const PERMISSION_LIST = Object.values(Permission);

const queryTime = () =>
  z.coerce.number({ error: V.invalid }).int({ error: V.invalid }).min(0, { error: V.invalid }).optional();

// ---- roles ----------------------------------------------------------------------------------------------------

export const roleListRequest = z.strictObject({
  name: z.string({ error: V.invalid }).trim().max(ROLE_NAME_MAX, { error: V.tooLong }).optional(),
  status: z.enum(['0', '1'], { error: V.invalid }).optional(),
  ...pageQuery,
});
export type RoleListRequest = z.input<typeof roleListRequest>;

export const roleItem = z.object({
  id: z.number().int(),
  name: z.string(),
  roleKey: z.string(),
  builtIn: z.boolean(),
  /** The company administrator's role: always enabled, so a company can never lock itself out. */
  locked: z.boolean(),
  permissions: z.array(z.string()),
  menus: z.array(z.string()),
  dataScope: z.enum(DATA_SCOPES),
  status: z.number().int(),
  /** People holding the role. */
  users: z.number().int(),
  /** For the custom data scope: the chosen sets' and stations' tokens. */
  sets: z.array(z.string()),
  sites: z.array(z.string()),
  createdAt: z.number(),
  /**
   * Whether the caller may give the role to someone (it lies within what they hold) and, for a role editor, edit
   * it: the pickers offer only these.
   */
  assignable: z.boolean(),
});
export type RoleItem = z.infer<typeof roleItem>;

export const roleListResponse = z.object({ list: z.array(roleItem), ...pageTotals });
export type RoleListResponse = z.infer<typeof roleListResponse>;

export const roleIdParams = z.strictObject({ id: queryRowId() });

const roleFields = {
  name: required().max(ROLE_NAME_MAX, { error: V.tooLong }),
  permissions: z
    .array(z.enum(PERMISSION_LIST, { error: V.invalid }), { error: V.invalid })
    .max(50, { error: V.invalid }),
  menus: z
    .array(z.string({ error: V.invalid }).max(80, { error: V.tooLong }), { error: V.invalid })
    .max(300, { error: V.invalid })
    .default([]),
  dataScope: z.enum(DATA_SCOPES, { error: V.invalid }),
  sets: z.array(setToken(), { error: V.invalid }).max(MAX_ROLE_TARGETS, { error: V.invalid }).default([]),
  sites: z.array(setToken(), { error: V.invalid }).max(MAX_ROLE_TARGETS, { error: V.invalid }).default([]),
};
export const roleSaveRequest = z.strictObject(roleFields);
export type RoleSaveRequest = z.input<typeof roleSaveRequest>;
export const roleUpdateRequest = z.strictObject({ id: bodyRowId(), ...roleFields });
export type RoleUpdateRequest = z.input<typeof roleUpdateRequest>;
export const roleDeleteRequest = z.strictObject({ id: bodyRowId() });
export const roleStatusRequest = z.strictObject({
  id: bodyRowId(),
  status: z.union([z.literal(0), z.literal(1)], { error: V.invalid }),
});
export type RoleStatusRequest = z.input<typeof roleStatusRequest>;
export const roleSaveResponse = z.object({ id: z.number().int() });

/** A node of the editor's tree: `menu:<name>` for a page, `perm:<permission>` for an action. */
export interface PermissionNode {
  key: string;
  title: string;
  children: PermissionNode[];
}
export const permissionNode: z.ZodType<PermissionNode> = z.lazy(() =>
  z.object({ key: z.string(), title: z.string(), children: z.array(permissionNode) }),
);

export const dataAuthRoleResponse = z.object({
  /** Two branches: the pages (`menus`) and the actions (`actions`). */
  tree: z.array(permissionNode),
  dataScopes: z.array(z.object({ value: z.enum(DATA_SCOPES), label: z.string() })),
  /** What the custom scope can choose from: the company's sets and stations. */
  sets: z.array(z.object({ token: z.string(), name: z.string() })),
  sites: z.array(z.object({ token: z.string(), name: z.string() })),
});
export type DataAuthRoleResponse = z.infer<typeof dataAuthRoleResponse>;

// ---- invitations and applications -----------------------------------------------------------------------------

export const inviteCode = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(40, { error: V.tooLong })
    .regex(/^[A-Za-z0-9_-]+$/, { error: V.invalid });

export const inviteCreateRequest = z.strictObject({
  /** When the link stops working (epoch ms, in the future). */
  expiresAt: z.number({ error: V.required }).int({ error: V.invalid }).min(0, { error: V.invalid }),
  maxUses: z
    .number({ error: V.required })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(MAX_INVITE_USES, { error: V.invalid }),
  roleId: bodyRowId().nullish(),
  departmentId: bodyRowId().nullish(),
});
export type InviteCreateRequest = z.input<typeof inviteCreateRequest>;

export const inviteItem = z.object({
  id: z.number().int(),
  code: z.string(),
  /** The console path of the link (`/invite/<code>`). */
  link: z.string(),
  roleId: z.number().int().nullable(),
  roleName: z.string().nullable(),
  departmentId: z.number().int().nullable(),
  departmentName: z.string().nullable(),
  maxUses: z.number().int(),
  uses: z.number().int(),
  expiresAt: z.number(),
  revokedAt: z.number().nullable(),
  createdAt: z.number(),
  state: z.enum(INVITE_STATES),
});
export type InviteItem = z.infer<typeof inviteItem>;

export const inviteListRequest = z.strictObject({ ...pageQuery });
export const inviteListResponse = z.object({ list: z.array(inviteItem), ...pageTotals });
export type InviteListResponse = z.infer<typeof inviteListResponse>;
export const inviteRevokeRequest = z.strictObject({ id: bodyRowId() });
export const inviteCodeParams = z.strictObject({ code: inviteCode() });
export const inviteApplyRequest = z.strictObject({ code: inviteCode() });

/** What the public page shows of an invitation before one applies. */
export const invitePublicResponse = z.object({
  code: z.string(),
  companyName: z.string(),
  roleName: z.string().nullable(),
  departmentName: z.string().nullable(),
  expiresAt: z.number(),
  state: z.enum(INVITE_STATES),
  /** Why it cannot be used any more, in the reader's language (null while it can). */
  reason: z.string().nullable(),
});
export type InvitePublicResponse = z.infer<typeof invitePublicResponse>;

export const inviteApplyResponse = z.object({ id: z.number().int(), status: z.enum(APPLICATION_STATUSES) });

export const memberListRequest = z.strictObject({
  status: z.enum(APPLICATION_STATUSES, { error: V.invalid }).optional(),
  ...pageQuery,
});
export const memberItem = z.object({
  id: z.number().int(),
  status: z.enum(APPLICATION_STATUSES),
  appliedAt: z.number(),
  reviewedAt: z.number().nullable(),
  userId: z.number().int(),
  nickname: z.string(),
  account: z.string(),
  /** email | mobile */
  accountKind: z.string(),
  /** personal | corporate */
  accountType: z.string(),
  inviteCode: z.string(),
  /** What the invitation proposed, or what was given on approval. */
  roleId: z.number().int().nullable(),
  roleName: z.string().nullable(),
  departmentId: z.number().int().nullable(),
  departmentName: z.string().nullable(),
});
export type MemberItem = z.infer<typeof memberItem>;
export const memberListResponse = z.object({ list: z.array(memberItem), ...pageTotals });
export type MemberListResponse = z.infer<typeof memberListResponse>;

export const memberAuditRequest = z.strictObject({
  id: bodyRowId(),
  action: z.enum(['approve', 'reject'], { error: V.invalid }),
  roleId: bodyRowId().nullish(),
  departmentId: bodyRowId().nullish(),
});
export type MemberAuditRequest = z.input<typeof memberAuditRequest>;

// ---- operation log ---------------------------------------------------------------------------------------------

const logFilters = {
  /** Part of the operator's account or nickname. */
  keyword: z.string({ error: V.invalid }).trim().max(80, { error: V.tooLong }).optional(),
  /** A matter key as listed in the answer's `matters`. */
  matter: z.string({ error: V.invalid }).trim().max(200, { error: V.tooLong }).optional(),
  start: queryTime(),
  end: queryTime(),
  /** The platform only: one company's entries (all companies without it). */
  companyId: queryRowId().optional(),
};
export const logListRequest = z.strictObject({ ...logFilters, ...pageQuery });
export type LogListRequest = z.input<typeof logListRequest>;
export const logExportRequest = z.strictObject(logFilters);
export type LogExportRequest = z.input<typeof logExportRequest>;

export const logEntry = z.object({
  id: z.number().int(),
  time: z.number(),
  companyId: z.number().int().nullable(),
  account: z.string(),
  nickname: z.string(),
  matterKey: z.string(),
  matter: z.string(),
  ip: z.string(),
  /** The set's or station's token (or `protocol:<key>`, …) as recorded. */
  target: z.string(),
  /** The target in words: the set's or station's name when it is one, else the target as recorded. */
  targetName: z.string(),
  /** How a command or setting write ended (ok, timeout, offline, refused, failed, notTaken); null for changes. */
  outcome: z.string().nullable(),
  /** The outcome in the reader's language ('' when there is none). */
  outcomeText: z.string(),
  feedback: z.record(z.string(), z.unknown()),
});
export type LogEntry = z.infer<typeof logEntry>;
export const logListResponse = z.object({
  list: z.array(logEntry),
  /** The matters one can filter by, with their titles. */
  matters: z.array(z.object({ key: z.string(), title: z.string() })),
  ...pageTotals,
});
export type LogListResponse = z.infer<typeof logListResponse>;
