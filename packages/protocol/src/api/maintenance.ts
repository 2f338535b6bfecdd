// Maintenance plans (spec 3 "Maintenance item", the set's maintain tab): each set has items (name, cycle in
// days and/or run hours, the latest service, reminder ahead, planned date, replaced model, remark, enabled);
// each enabled item has one pending task, due on a date and/or at a number of run hours, which becomes done
// with what was done, by whom and at how many run hours; the next task is due from the actual date or hours.
// Companies keep templates of items per set model and apply them to many sets at once. A maintenance link
// (`mtoken`) shows a set's plan, read-only and for a limited time, to a technician without an account.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_ROW_ID, PAGE_SIZES } from './codes.ts';
import { setToken } from './devices.ts';
import { V } from './rules.ts';

export const MAINT_NAME_MAX = 100;
export const MAINT_MODEL_MAX = 100;
export const MAINT_REMARK_MAX = 200;
/** Longest cycle: ten years, or 100,000 run hours. */
export const MAINT_MAX_DAYS = 3650;
export const MAINT_MAX_HOURS = 100_000;
export const MAINT_MAX_RUN_HOURS = 10_000_000;
/** Items of one set, and of one template. */
export const MAINT_MAX_ITEMS = 100;
/** How long a maintenance link may stay valid, in days. */
export const MTOKEN_MAX_DAYS = 90;

/** ok: not yet in its reminder window; due: in it (or on the due date); overdue: past the due date or hours. */
export const MAINT_STATES = ['ok', 'due', 'overdue'] as const;
export type MaintState = (typeof MAINT_STATES)[number];
export const MAINT_TASK_STATUSES = ['pending', 'done'] as const;
export type MaintTaskStatus = (typeof MAINT_TASK_STATUSES)[number];

const rowId = () =>
  z
    .number({ error: V.required })
    .int({ error: V.invalid })
    .positive({ error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid });

/** A calendar date, YYYY-MM-DD (the set's own calendar). */
export const isoDate = () =>
  z
    .string({ error: V.invalid })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: V.invalid })
    .refine(
      (v) => {
        const d = new Date(`${v}T00:00:00Z`);
        return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
      },
      { error: V.invalid },
    );

const text = (max: number) => z.string({ error: V.invalid }).trim().max(max, { error: V.tooLong });
const wholeDays = (max: number) =>
  z.number({ error: V.invalid }).int({ error: V.invalid }).min(0, { error: V.invalid }).max(max, { error: V.invalid });
const hours = (max: number) =>
  z.number({ error: V.invalid }).min(0, { error: V.invalid }).max(max, { error: V.invalid });
const pageFields = {
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.literal(PAGE_SIZES, { error: V.invalid }).default(DEFAULT_PAGE_SIZE),
};

/** What an item (or a template's item) says; a cycle in days, in run hours or both is needed. */
export const maintItemFields = {
  name: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(MAINT_NAME_MAX, { error: V.tooLong }),
  /** Every so many days (0 or absent: no day cycle). */
  cycleDays: wholeDays(MAINT_MAX_DAYS).nullable().optional(),
  /** Every so many run hours (0 or absent: no hour cycle). */
  cycleHours: hours(MAINT_MAX_HOURS).nullable().optional(),
  /** Remind this many days before the due date. */
  remindDays: wholeDays(MAINT_MAX_DAYS).default(0),
  /** Remind this many run hours before the due hours. */
  remindHours: hours(MAINT_MAX_HOURS).default(0),
  replacedModel: text(MAINT_MODEL_MAX).default(''),
  remark: text(MAINT_REMARK_MAX).default(''),
};

export const maintPlanRequest = z.strictObject({ token: setToken() });

export const maintItemSaveRequest = z.strictObject({
  token: setToken(),
  /** Absent: a new item. */
  id: rowId().optional(),
  ...maintItemFields,
  /** The latest service before this plan (the next is due from it); absent: counted from today. */
  latestDate: isoDate().nullable().optional(),
  /** Run hours at the latest service; absent: the set's run hours now. */
  latestHours: hours(MAINT_MAX_RUN_HOURS).nullable().optional(),
  /** The date the next service is planned for, when it is not simply the cycle's. */
  plannedDate: isoDate().nullable().optional(),
  enabled: z.boolean({ error: V.invalid }).default(true),
});
export type MaintItemSaveRequest = z.input<typeof maintItemSaveRequest>;

export const maintItemRef = z.strictObject({ token: setToken(), id: rowId() });
export const maintItemToggleRequest = maintItemRef.extend({ enabled: z.boolean({ error: V.required }) });

export const maintTaskDoneRequest = z.strictObject({
  token: setToken(),
  /** The pending task. */
  id: rowId(),
  /** The day it was done (not in the future of the set's calendar). */
  actualDate: isoDate(),
  /** Run hours when it was done. */
  runHours: hours(MAINT_MAX_RUN_HOURS).nullable().optional(),
  replacedModel: text(MAINT_MODEL_MAX).default(''),
  remark: text(MAINT_REMARK_MAX).default(''),
});
export type MaintTaskDoneRequest = z.input<typeof maintTaskDoneRequest>;

export const maintHistoryRequest = z.strictObject({ token: setToken(), ...pageFields });

export const maintItem = z.object({
  id: z.number().int(),
  name: z.string(),
  cycleDays: z.number().int().nullable(),
  cycleHours: z.number().nullable(),
  remindDays: z.number().int(),
  remindHours: z.number(),
  latestDate: z.string().nullable(),
  latestHours: z.number().nullable(),
  plannedDate: z.string().nullable(),
  replacedModel: z.string(),
  remark: z.string(),
  enabled: z.boolean(),
  /** The pending task: when it is due and how it stands now. */
  taskId: z.number().int().nullable(),
  dueDate: z.string().nullable(),
  dueHours: z.number().nullable(),
  state: z.enum(MAINT_STATES),
});
export type MaintItem = z.infer<typeof maintItem>;

export const maintTask = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  name: z.string(),
  status: z.enum(MAINT_TASK_STATUSES),
  dueDate: z.string().nullable(),
  dueHours: z.number().nullable(),
  actualDate: z.string().nullable(),
  runHours: z.number().nullable(),
  replacedModel: z.string(),
  remark: z.string(),
  doneBy: z.string(),
  doneAt: z.number().nullable(),
});
export type MaintTask = z.infer<typeof maintTask>;

export const maintLink = z.object({ id: z.number().int(), createdAt: z.number(), expiresAt: z.number() });
export type MaintLink = z.infer<typeof maintLink>;

export const maintPlanResponse = z.object({
  token: z.string(),
  name: z.string(),
  timeZone: z.string(),
  /** Today in the set's calendar, and its run hours now. */
  today: z.string(),
  runHours: z.number().nullable(),
  items: z.array(maintItem),
  /** What the caller may do: edit items (manage), mark tasks done (control), or only read. */
  canEdit: z.boolean(),
  canMarkDone: z.boolean(),
  /** Valid maintenance links of the set (for those who manage it). */
  links: z.array(maintLink),
});
export type MaintPlanResponse = z.infer<typeof maintPlanResponse>;

export const maintHistoryResponse = z.object({
  list: z.array(maintTask),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type MaintHistoryResponse = z.infer<typeof maintHistoryResponse>;

export const maintIdResponse = z.object({ id: z.number().int() });
export const maintDoneResponse = z.object({
  id: z.number().int(),
  /** The next task of the item, due from the actual date and hours. */
  next: z.object({ id: z.number().int(), dueDate: z.string().nullable(), dueHours: z.number().nullable() }),
});

// ---- across the sets one sees ----

export const maintTasksRequest = z.strictObject({
  /** due: due and overdue ones; overdue: only those past due; all: every pending task. */
  state: z.enum(['due', 'overdue', 'all'], { error: V.invalid }).default('due'),
  ...pageFields,
});
export const maintFleetTask = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  name: z.string(),
  token: z.string(),
  setName: z.string(),
  dueDate: z.string().nullable(),
  dueHours: z.number().nullable(),
  runHours: z.number().nullable(),
  state: z.enum(MAINT_STATES),
});
export type MaintFleetTask = z.infer<typeof maintFleetTask>;
export const maintTasksResponse = z.object({
  list: z.array(maintFleetTask),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type MaintTasksResponse = z.infer<typeof maintTasksResponse>;
export const maintCountsResponse = z.object({ due: z.number().int(), overdue: z.number().int() });
export type MaintCountsResponse = z.infer<typeof maintCountsResponse>;

// ---- templates ----

export const maintTemplateItem = z.strictObject(maintItemFields);
export type MaintTemplateItem = z.infer<typeof maintTemplateItem>;

export const maintTemplateSaveRequest = z.strictObject({
  id: rowId().optional(),
  name: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(MAINT_NAME_MAX, { error: V.tooLong }),
  /** The set model it is for (a set's "model" field). */
  model: z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(MAINT_MODEL_MAX, { error: V.tooLong }),
  items: z
    .array(maintTemplateItem, { error: V.invalid })
    .min(1, { error: V.required })
    .max(MAINT_MAX_ITEMS, { error: V.invalid }),
});
export type MaintTemplateSaveRequest = z.input<typeof maintTemplateSaveRequest>;
export const maintTemplateListRequest = z.strictObject({});
export const maintTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  model: z.string(),
  items: z.array(
    z.object({
      name: z.string(),
      cycleDays: z.number().int().nullable(),
      cycleHours: z.number().nullable(),
      remindDays: z.number().int(),
      remindHours: z.number(),
      replacedModel: z.string(),
      remark: z.string(),
    }),
  ),
  /** Sets of the company with this model. */
  sets: z.number().int(),
  updatedAt: z.number(),
});
export type MaintTemplate = z.infer<typeof maintTemplate>;
export const maintTemplateListResponse = z.object({ list: z.array(maintTemplate) });
export const maintTemplateDeleteRequest = z.strictObject({ id: rowId() });
export const maintTemplateApplyRequest = z.strictObject({
  id: rowId(),
  /** The sets to apply it to; absent or empty with `all`: every set of the model the caller manages. */
  tokens: z.array(setToken(), { error: V.invalid }).max(1000, { error: V.invalid }).default([]),
  all: z.boolean({ error: V.invalid }).default(false),
});
export type MaintTemplateApplyRequest = z.input<typeof maintTemplateApplyRequest>;
export const maintTemplateApplyResponse = z.object({
  sets: z.number().int(),
  added: z.number().int(),
  /** Items a set already had under the same name. */
  skipped: z.number().int(),
});

// ---- maintenance links ----

export const mtokenCreateRequest = z.strictObject({
  token: setToken(),
  days: z
    .number({ error: V.required })
    .int({ error: V.invalid })
    .min(1, { error: V.invalid })
    .max(MTOKEN_MAX_DAYS, { error: V.invalid })
    .default(7),
});
export const mtokenCreateResponse = z.object({ id: z.number().int(), mtoken: z.string(), expiresAt: z.number() });
export const mtokenRevokeRequest = z.strictObject({ token: setToken(), id: rowId() });

export const maintPublicRequest = z.strictObject({
  mtoken: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(128, { error: V.tooLong }),
});
export const maintPublicResponse = z.object({
  name: z.string(),
  today: z.string(),
  runHours: z.number().nullable(),
  expiresAt: z.number(),
  items: z.array(maintItem),
  history: z.array(maintTask),
});
export type MaintPublicResponse = z.infer<typeof maintPublicResponse>;
