// Repair requests (spec 7, "Repair": /baoxiu/add, /baoxiu/my, /baoxiu/list, /baoxiu/update): someone who
// sees a set asks for it to be repaired (contact, phone, service address, fault description, pictures); the
// set's company works through its queue and moves each request along submitted → accepted → in progress →
// done, or rejects it, with a note; the requester follows every step.
import { z } from 'zod';
import { setToken } from './devices.ts';
import { V } from './checks.ts';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './codes.ts';

export const REPAIR_STATES = ['submitted', 'accepted', 'in_progress', 'done', 'rejected'] as const;
export type RepairState = (typeof REPAIR_STATES)[number];

/** Where each state may go next; done and rejected are final. */
export const REPAIR_TRANSITIONS: Record<RepairState, readonly RepairState[]> = {
  submitted: ['accepted', 'rejected'],
  accepted: ['in_progress', 'rejected'],
  in_progress: ['done', 'rejected'],
  done: [],
  rejected: [],
};

export function canMoveRepair(from: RepairState, to: RepairState): boolean {
  return REPAIR_TRANSITIONS[from].includes(to);
}

/** Most pictures one request may carry. */
export const REPAIR_PICTURES_MAX = 6;
/** Largest picture taken, in bytes. */
export const REPAIR_PICTURE_BYTES_MAX = 10 * 1024 * 1024;
/** The picture types taken (checked by their content, not by their name). */
export const REPAIR_PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const REPAIR_CONTACT_MAX = 64;
export const REPAIR_PHONE_MAX = 32;
export const REPAIR_ADDRESS_MAX = 200;
export const REPAIR_DESCRIPTION_MAX = 1000;
export const REPAIR_NOTE_MAX = 500;

/** Message keys of these schemas beyond the shared ones (translated by each side). */
export const RV = {
  phone: 'validation.phone',
  noteRequired: 'validation.rejectNote',
} as const;

/** Digits with the usual separators, optionally starting with +: what people write as a phone number. */
const PHONE_RE = /^\+?[0-9][0-9 ()-]{4,30}$/;

export function isPhoneNumber(value: string): boolean {
  return PHONE_RE.test(value);
}
/** Whether the text holds control characters other than line breaks and tabs: nothing anyone typed. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

const text = (max: number) =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(max, { error: V.tooLong })
    .refine((v) => !hasControl(v), { error: V.invalid });

export const repairToken = () =>
  z
    .string({ error: V.required })
    .trim()
    .min(1, { error: V.required })
    .max(64, { error: V.tooLong })
    .regex(/^[A-Za-z0-9_-]+$/, { error: V.invalid });

/** The text fields of the request form (multipart: the pictures come as files beside them). */
export const repairAddFields = z.strictObject({
  token: setToken(),
  contact: text(REPAIR_CONTACT_MAX),
  phone: text(REPAIR_PHONE_MAX).refine((v) => isPhoneNumber(v), { error: RV.phone }),
  address: text(REPAIR_ADDRESS_MAX),
  description: text(REPAIR_DESCRIPTION_MAX),
});
export type RepairAddFields = z.input<typeof repairAddFields>;

export const repairAddResponse = z.object({ token: z.string() });
export type RepairAddResponse = z.infer<typeof repairAddResponse>;

const page = z.coerce
  .number({ error: V.invalid })
  .int({ error: V.invalid })
  .min(1, { error: V.invalid })
  .max(100_000, { error: V.invalid })
  .default(1);
const size = z.coerce
  .number({ error: V.invalid })
  .pipe(z.literal(PAGE_SIZES, { error: V.invalid }))
  .default(DEFAULT_PAGE_SIZE);

/** GET /baoxiu/my and /baoxiu/list (query): a page, optionally one state only. */
export const repairListRequest = z.strictObject({
  page,
  size,
  state: z.enum(REPAIR_STATES, { error: V.invalid }).optional(),
});
export type RepairListRequest = z.input<typeof repairListRequest>;

export const repairListItem = z.object({
  token: z.string(),
  setToken: z.string(),
  setName: z.string(),
  requester: z.string(),
  contact: z.string(),
  phone: z.string(),
  address: z.string(),
  description: z.string(),
  state: z.enum(REPAIR_STATES),
  pictures: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type RepairListItem = z.infer<typeof repairListItem>;

export const repairListResponse = z.object({
  list: z.array(repairListItem),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type RepairListResponse = z.infer<typeof repairListResponse>;

export const repairDetailRequest = z.strictObject({ token: repairToken() });

export const repairHistoryEntry = z.object({
  state: z.enum(REPAIR_STATES),
  note: z.string(),
  by: z.string(),
  at: z.number(),
});
export type RepairHistoryEntry = z.infer<typeof repairHistoryEntry>;

export const repairPicture = z.object({
  /** Names the picture in /baoxiu/picture. */
  name: z.string(),
  type: z.enum(REPAIR_PICTURE_TYPES),
  size: z.number().int(),
});
export type RepairPicture = z.infer<typeof repairPicture>;

export const repairDetailResponse = repairListItem.extend({
  pictureList: z.array(repairPicture),
  history: z.array(repairHistoryEntry),
  /** The caller works on the service side of this request (may move its state). */
  service: z.boolean(),
  /** The states the caller may move it to now. */
  next: z.array(z.enum(REPAIR_STATES)),
});
export type RepairDetailResponse = z.infer<typeof repairDetailResponse>;

export const repairUpdateRequest = z
  .strictObject({
    token: repairToken(),
    state: z.enum(REPAIR_STATES, { error: V.invalid }),
    note: z
      .string({ error: V.invalid })
      .trim()
      .max(REPAIR_NOTE_MAX, { error: V.tooLong })
      .refine((v) => !hasControl(v), { error: V.invalid })
      .default(''),
  })
  .refine((v) => v.state !== 'rejected' || v.note.length > 0, { error: RV.noteRequired, path: ['note'] });
export type RepairUpdateRequest = z.input<typeof repairUpdateRequest>;

export const repairUpdateResponse = z.object({ state: z.enum(REPAIR_STATES) });

/** GET /baoxiu/picture (query): one picture of a request, or its thumbnail. */
export const repairPictureRequest = z.strictObject({
  token: repairToken(),
  name: z.string({ error: V.required }).regex(/^[a-f0-9]{32}$/, { error: V.invalid }),
  thumb: z.enum(['0', '1'], { error: V.invalid }).default('0'),
});
export type RepairPictureRequest = z.input<typeof repairPictureRequest>;
