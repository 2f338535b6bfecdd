// Administration of companies, their departments and their people (spec 7, "Company", "Department", "User"):
// the platform administrator keeps the companies (white-label host names, logo, contact, map key, currency, time
// zone); a company's administrators keep its department tree and its users; a person who belongs to several
// companies switches between them (the company travels in X-Companyid).
import { z } from 'zod';
import { ACCOUNT_TYPES } from './auth.ts';
import { V, bodyRowId, newPasswordField, pageQuery, queryRowId, usernameField } from './rules.ts';
import { timeZoneField } from './sites.ts';

export const COMPANY_NAME_MAX = 120;
export const COMPANY_HOSTS_MAX = 20;
export const DEPARTMENT_NAME_MAX = 60;
export const NICKNAME_MAX = 40;
/** A company logo: PNG, JPEG or SVG (checked by its bytes), at most this many bytes. */
export const LOGO_BYTES_MAX = 1024 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
/** Where a kept logo is served from: the upload answers such an address, a company saves it. */
export const LOGO_PATH = /^\/uploads\/logos\/[a-f0-9]{32}\.(png|jpg|svg)$/;

export const USER_STATUSES = ['enabled', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

const text = (max: number) => z.string({ error: V.invalid }).trim().max(max, { error: V.tooLong });
const requiredText = (max: number) =>
  z.string({ error: V.required }).trim().min(1, { error: V.required }).max(max, { error: V.tooLong });

/** A host name as a browser sends it (lower-cased, no port, no scheme). */
export const HOSTNAME_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const hostField = () =>
  z
    .string({ error: V.invalid })
    .trim()
    .toLowerCase()
    .refine((v) => HOSTNAME_RE.test(v), { error: V.invalid });

/* ---------------------------------------------------------------- companies */

export const companyListRequest = z.strictObject({
  ...pageQuery,
  /** Part of the name, title or a host name. */
  search: text(120).optional(),
});
export type CompanyListRequest = z.infer<typeof companyListRequest>;

export const companyItem = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  logo: z.string().nullable(),
  contactPerson: z.string(),
  contactPhone: z.string(),
  contactEmail: z.string(),
  hosts: z.array(z.string()),
  mapKey: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  /** Sets the company owns. */
  sets: z.number().int(),
  /** People who belong to it. */
  users: z.number().int(),
  createdAt: z.number(),
});
export type CompanyItem = z.infer<typeof companyItem>;

export const companyListResponse = z.object({ list: z.array(companyItem), total: z.number().int() });
export type CompanyListResponse = z.infer<typeof companyListResponse>;

const companyFields = {
  name: requiredText(COMPANY_NAME_MAX),
  title: text(COMPANY_NAME_MAX).default(''),
  contactPerson: text(80).default(''),
  contactPhone: z
    .string({ error: V.invalid })
    .trim()
    .max(40, { error: V.tooLong })
    .regex(/^[+\d][\d\s()-]*$|^$/, { error: V.invalid })
    .default(''),
  contactEmail: z
    .string({ error: V.invalid })
    .trim()
    .max(254, { error: V.tooLong })
    .regex(/^$|^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, { error: V.invalid })
    .default(''),
  hosts: z.array(hostField(), { error: V.invalid }).max(COMPANY_HOSTS_MAX, { error: V.tooLong }).default([]),
  /** An address answered by /company/uploadLogo, or null for none. */
  logo: z.string({ error: V.invalid }).regex(LOGO_PATH, { error: V.invalid }).nullable().default(null),
  mapKey: text(200).default(''),
  /** ISO 4217 code. */
  currency: z
    .string({ error: V.required })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { error: V.invalid }),
  /** IANA time-zone name. */
  timeZone: timeZoneField(),
};

export const companyAddRequest = z.strictObject(companyFields);
export type CompanyAddRequest = z.infer<typeof companyAddRequest>;
export const companyUpdateRequest = z.strictObject({ id: bodyRowId(), ...companyFields });
export type CompanyUpdateRequest = z.infer<typeof companyUpdateRequest>;
export const companyIdRequest = z.strictObject({ id: bodyRowId() });

export const companyIdentifie = z.object({ id: z.number().int(), name: z.string(), hosts: z.array(z.string()) });

export const logoUploadResponse = z.object({ logo: z.string() });

/** A company the signed-in person belongs to, for the company switcher. */
export const userCompanyItem = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  logo: z.string().nullable(),
  roleName: z.string().nullable(),
  /** Their home company (the one a sign-in starts in). */
  home: z.boolean(),
  /** The company this call acted for. */
  current: z.boolean(),
});
export type UserCompanyItem = z.infer<typeof userCompanyItem>;
export const userCompanyListResponse = z.array(userCompanyItem);

/* ---------------------------------------------------------------- departments */

export interface DepartmentNode {
  id: number;
  name: string;
  parentId: number | null;
  sort: number;
  /** People of this department itself (not of those below). */
  users: number;
  children: DepartmentNode[];
}
export const departmentNode: z.ZodType<DepartmentNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    parentId: z.number().int().nullable(),
    sort: z.number().int(),
    users: z.number().int(),
    children: z.array(departmentNode),
  }),
);
export const departmentTreeResponse = z.array(departmentNode);

export const departmentAddRequest = z.strictObject({
  name: requiredText(DEPARTMENT_NAME_MAX),
  parentId: bodyRowId().nullable().default(null),
  sort: z.number({ error: V.invalid }).int({ error: V.invalid }).min(0).max(100_000).default(0),
});
export type DepartmentAddRequest = z.infer<typeof departmentAddRequest>;

export const departmentUpdateRequest = z.strictObject({
  id: bodyRowId(),
  name: requiredText(DEPARTMENT_NAME_MAX).optional(),
  /** Moves the department under another one (null: to the top); a move into its own branch is refused. */
  parentId: bodyRowId().nullable().optional(),
  sort: z.number({ error: V.invalid }).int({ error: V.invalid }).min(0).max(100_000).optional(),
});
export type DepartmentUpdateRequest = z.infer<typeof departmentUpdateRequest>;
export const departmentIdRequest = z.strictObject({ id: bodyRowId() });

/* ---------------------------------------------------------------- users */

export const userListRequest = z.strictObject({
  ...pageQuery,
  /** Part of the account or the nickname. */
  search: text(120).optional(),
  departmentId: queryRowId().optional(),
  roleId: queryRowId().optional(),
  status: z.enum(USER_STATUSES, { error: V.invalid }).optional(),
  type: z.enum(ACCOUNT_TYPES, { error: V.invalid }).optional(),
});
export type UserListRequest = z.infer<typeof userListRequest>;

export const userItem = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  status: z.enum(USER_STATUSES),
  departmentId: z.number().int().nullable(),
  departmentName: z.string().nullable(),
  roleId: z.number().int().nullable(),
  roleName: z.string().nullable(),
  /** The company is the person's home company (its administrators may reset the password, disable the account). */
  home: z.boolean(),
  /** A temporary password is waiting to be changed. */
  mustChangePassword: z.boolean(),
  createdAt: z.number(),
});
export type UserItem = z.infer<typeof userItem>;
export const userListResponse = z.object({ list: z.array(userItem), total: z.number().int() });
export type UserListResponse = z.infer<typeof userListResponse>;

export const userAddRequest = z.strictObject({
  account: usernameField(),
  nickname: text(NICKNAME_MAX).default(''),
  type: z.enum(ACCOUNT_TYPES, { error: V.invalid }).default('corporate'),
  departmentId: bodyRowId().nullable().default(null),
  roleId: bodyRowId(),
  /** A temporary password: the person changes it at the first sign-in. */
  password: newPasswordField(),
});
export type UserAddRequest = z.infer<typeof userAddRequest>;

export const userUpdateRequest = z.strictObject({
  userId: bodyRowId(),
  nickname: text(NICKNAME_MAX).optional(),
  type: z.enum(ACCOUNT_TYPES, { error: V.invalid }).optional(),
  departmentId: bodyRowId().nullable().optional(),
  roleId: bodyRowId().optional(),
});
export type UserUpdateRequest = z.infer<typeof userUpdateRequest>;

/** Moves a person to another department and/or role. */
export const userMoveRequest = z.strictObject({
  userId: bodyRowId(),
  departmentId: bodyRowId().nullable().optional(),
  roleId: bodyRowId().optional(),
});
export type UserMoveRequest = z.infer<typeof userMoveRequest>;

export const userIdRequest = z.strictObject({ userId: bodyRowId() });

export const userResetPasswordRequest = z.strictObject({ userId: bodyRowId(), password: newPasswordField() });
export type UserResetPasswordRequest = z.infer<typeof userResetPasswordRequest>;

export const userStatusRequest = z.strictObject({
  userId: bodyRowId(),
  status: z.enum(USER_STATUSES, { error: V.invalid }),
});
export type UserStatusRequest = z.infer<typeof userStatusRequest>;
