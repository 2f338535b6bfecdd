// Request and response schemas of sign-in, accounts and companies (spec 1, 5, 6, 7).
import { z } from 'zod';
import { MAX_ROW_ID } from './codes.ts';
import { newPasswordField, passwordField, required, smsCodeField, usernameField, V } from './rules.ts';

const hostname = z.string().max(253).optional();

export const loginRequest = z.strictObject({
  username: usernameField(),
  password: passwordField(),
  hostname,
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const codeLoginRequest = z.strictObject({
  username: usernameField(),
  code: smsCodeField(),
  hostname,
});
export type CodeLoginRequest = z.infer<typeof codeLoginRequest>;

export const loginResponse = z.object({
  utoken: z.string(),
  indextemplate: z.string(),
  companyid: z.number().int(),
  /** An administrator set a temporary password: the console sends the person to change it first. */
  mustChangePassword: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * An embedded console (iframe=1) is opened with a one-time code in its address, never a session token: the host
 * page asks for a code with its own session and the frame exchanges it by POST for a session of its own.
 */
export const EMBED_CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const embedCodeResponse = z.object({ code: z.string(), expiresIn: z.number().int() });
export type EmbedCodeResponse = z.infer<typeof embedCodeResponse>;
export const embedLoginRequest = z.strictObject({
  code: z.string().regex(EMBED_CODE_PATTERN, { error: V.invalid }),
});
export type EmbedLoginRequest = z.infer<typeof embedLoginRequest>;

export const SMS_PURPOSES = ['login', 'register', 'reset'] as const;
export const sendMessageRequest = z.strictObject({
  username: usernameField(),
  purpose: z.enum(SMS_PURPOSES, { error: V.invalid }).default('login'),
  hostname,
});
export type SendMessageRequest = z.infer<typeof sendMessageRequest>;
export const sendMessageResponse = z.object({ retryAfter: z.number().int() });

function samePasswords<T extends { newPassword: string; newPasswords: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.newPassword !== value.newPasswords) {
    ctx.addIssue({ code: 'custom', path: ['newPasswords'], message: V.passwordMismatch });
  }
}

export const changePasswordRequest = z
  .strictObject({
    password: passwordField(),
    newPassword: newPasswordField(),
    newPasswords: z.string({ error: V.required }).min(1, { error: V.required }),
  })
  .superRefine(samePasswords);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

export const ACCOUNT_TYPES = ['personal', 'corporate'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const registerRequest = z
  .strictObject({
    username: usernameField(),
    code: smsCodeField(),
    newPassword: newPasswordField(),
    newPasswords: z.string({ error: V.required }).min(1, { error: V.required }),
    nickname: z.string().trim().max(40, { error: V.tooLong }).optional(),
    type: z.enum(ACCOUNT_TYPES, { error: V.invalid }).default('personal'),
    inviteCode: z.string().trim().max(32, { error: V.tooLong }).optional(),
    hostname,
  })
  .superRefine(samePasswords);
export type RegisterRequest = z.infer<typeof registerRequest>;

export const forgetPasswordRequest = z
  .strictObject({
    username: usernameField(),
    code: smsCodeField(),
    newPassword: newPasswordField(),
    newPasswords: z.string({ error: V.required }).min(1, { error: V.required }),
  })
  .superRefine(samePasswords);
export type ForgetPasswordRequest = z.infer<typeof forgetPasswordRequest>;

export const deleteAccountRequest = z.strictObject({ password: passwordField() });

/** Which alarms reach a person: every level, or only those that stop the set (shutdown and trip). */
export const ALARM_NOTICE_LEVELS = ['all', 'shutdown'] as const;
/** Alarms of the sets one owns or subscribed to, or of every set one may see (a company's operator). */
export const ALARM_NOTICE_SCOPES = ['mine', 'all'] as const;
/** The longest "offline for more than N minutes" a person can ask to be told about (a day). */
export const OFFLINE_NOTICE_MAX_MINUTES = 1440;
const clock = z.union([z.literal(''), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: V.invalid })]);

/**
 * What a person is told, and how (spec 3, message settings). Channels: `alarmPush` the message centre,
 * `alarmEmail` e-mail, `alarmSms` SMS; they carry every kind of notice the person keeps on. Quiet hours
 * (in `timeZone`) hold e-mail and SMS until they end, except for alarms that stop a set.
 */
export const setMessageRequest = z.strictObject({
  alarmSms: z.boolean().optional(),
  alarmEmail: z.boolean().optional(),
  alarmPush: z.boolean().optional(),
  maintenanceReminder: z.boolean().optional(),
  alarmLevel: z.enum(ALARM_NOTICE_LEVELS, { error: V.invalid }).optional(),
  alarmScope: z.enum(ALARM_NOTICE_SCOPES, { error: V.invalid }).optional(),
  alarmCleared: z.boolean().optional(),
  offlineMinutes: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .min(0, { error: V.invalid })
    .max(OFFLINE_NOTICE_MAX_MINUTES, { error: V.invalid })
    .optional(),
  transfers: z.boolean().optional(),
  repairs: z.boolean().optional(),
  quietFrom: clock.optional(),
  quietTo: clock.optional(),
  timeZone: z.string().max(64).optional(),
  /** Where e-mail notices go; empty: the account, when it is an e-mail address. */
  email: z.union([z.literal(''), z.email({ error: V.invalid }).max(120, { error: V.tooLong })]).optional(),
  /** Where SMS notices go; empty: the account, when it is a phone number. */
  phone: z.union([z.literal(''), z.string().regex(/^\+?\d{6,15}$/, { error: V.invalid })]).optional(),
  /** The language notices are written in (the console sends the one in use). */
  language: z.string().max(20).optional(),
});
export type SetMessageRequest = z.infer<typeof setMessageRequest>;

export const updateProfileRequest = z.strictObject({
  nickname: required().max(40, { error: V.tooLong }),
});

export const messageSettings = z.object({
  alarmSms: z.boolean(),
  alarmEmail: z.boolean(),
  alarmPush: z.boolean(),
  maintenanceReminder: z.boolean(),
  alarmLevel: z.enum(ALARM_NOTICE_LEVELS),
  alarmScope: z.enum(ALARM_NOTICE_SCOPES),
  alarmCleared: z.boolean(),
  offlineMinutes: z.number().int(),
  transfers: z.boolean(),
  repairs: z.boolean(),
  quietFrom: z.string(),
  quietTo: z.string(),
  timeZone: z.string(),
  email: z.string(),
  phone: z.string(),
  language: z.string(),
});
export type MessageSettings = z.infer<typeof messageSettings>;

export const companyInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  logo: z.string().nullable(),
  ws: z.string(),
  baidukey: z.string(),
});
export type CompanyInfo = z.infer<typeof companyInfo>;

export const userInfoResponse = z.object({
  info: z.object({
    id: z.number().int(),
    name: z.string(),
    nickname: z.string(),
    account: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    companyId: z.number().int(),
    departmentId: z.number().int().nullable(),
    departmentName: z.string().nullable(),
    roleId: z.number().int().nullable(),
    roleName: z.string().nullable(),
    /** A temporary password set by an administrator is waiting to be changed. */
    mustChangePassword: z.boolean().optional(),
    inviteCode: z.string(),
    createdAt: z.number(),
    messages: messageSettings,
  }),
  permissions: z.array(z.string()),
  companyinfo: companyInfo,
});
export type UserInfoResponse = z.infer<typeof userInfoResponse>;

export const MENU_TYPES = ['C', 'M', 'T', 'E'] as const;
export type MenuType = (typeof MENU_TYPES)[number];

export interface RouteEntry {
  id: number;
  type: MenuType;
  url: string;
  name: string;
  title: string;
  ico: string;
  component: string;
  visible: boolean;
  external: boolean;
  children: RouteEntry[];
}
export const routeEntry: z.ZodType<RouteEntry> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    type: z.enum(MENU_TYPES),
    url: z.string(),
    name: z.string(),
    title: z.string(),
    ico: z.string(),
    component: z.string(),
    visible: z.boolean(),
    external: z.boolean(),
    children: z.array(routeEntry),
  }),
);

export const companyPublic = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  logo: z.string().nullable(),
});
export type CompanyPublic = z.infer<typeof companyPublic>;

export const hostnameQuery = z.strictObject({ hostname: z.string().max(253).optional() });
export const idParams = z.strictObject({
  id: z.coerce.number().int().positive({ error: V.invalid }).max(MAX_ROW_ID, { error: V.invalid }),
});

export const fieldErrors = z.object({ fields: z.record(z.string(), z.string()) });
