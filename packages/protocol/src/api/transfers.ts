// Handing a set over (spec 3 "Handover", spec 7 "Genset": /genset/transferdevice, and the transfer lists of
// the console): the owner names the receiving account; the record stays untreated until the receiver accepts
// or rejects it, or the sender revokes it. On accept the set, its live data and its future history move to
// the receiver; the sender keeps a view or control subscription if they chose to.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_ROW_ID, PAGE_SIZES } from './codes.ts';
import { setToken } from './devices.ts';
import { V } from './rules.ts';

export const TRANSFER_STATUSES = ['untreated', 'accepted', 'rejected', 'revoked'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** What the sender keeps of the set once the receiver accepts: nothing, or a subscription with these rights. */
export const KEEP_SUBSCRIPTIONS = ['none', 'view', 'control'] as const;
export type KeepSubscription = (typeof KEEP_SUBSCRIPTIONS)[number];

/** pending: untreated records; done: accepted, rejected or revoked ones. */
export const TRANSFER_BOXES = ['pending', 'done'] as const;
export type TransferBox = (typeof TRANSFER_BOXES)[number];

export const TRANSFER_REMARK_MAX = 200;

export const transferDeviceRequest = z.strictObject({
  token: setToken(),
  /** The receiving user's account (e-mail address or mobile number). */
  account: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(254, { error: V.tooLong }),
  keepSubscription: z.enum(KEEP_SUBSCRIPTIONS, { error: V.invalid }).default('none'),
  remark: z.string({ error: V.invalid }).trim().max(TRANSFER_REMARK_MAX, { error: V.tooLong }).optional(),
});
export type TransferDeviceRequest = z.input<typeof transferDeviceRequest>;
export const transferDeviceResponse = z.object({ id: z.number().int() });

export const transferListRequest = z.strictObject({
  box: z.enum(TRANSFER_BOXES, { error: V.invalid }).default('pending'),
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.literal(PAGE_SIZES, { error: V.invalid }).default(DEFAULT_PAGE_SIZE),
});
export type TransferListRequest = z.input<typeof transferListRequest>;

export const transferParty = z.object({ account: z.string(), nickname: z.string() });

export const transferItem = z.object({
  id: z.number().int(),
  token: z.string(),
  gensetName: z.string(),
  /** incoming: the caller receives the set; outgoing: the caller hands it over. */
  direction: z.enum(['incoming', 'outgoing']),
  sender: transferParty,
  receiver: transferParty,
  status: z.enum(TRANSFER_STATUSES),
  keepSubscription: z.enum(KEEP_SUBSCRIPTIONS),
  remark: z.string(),
  /** Handover time. */
  createdAt: z.number(),
  /** Processing time (accepted, rejected or revoked); null while untreated. */
  processedAt: z.number().nullable(),
});
export type TransferItem = z.infer<typeof transferItem>;

export const transferListResponse = z.object({
  list: z.array(transferItem),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type TransferListResponse = z.infer<typeof transferListResponse>;

/** Accept or reject (the receiver), revoke (the sender): one untreated record. */
export const transferActionRequest = z.strictObject({
  id: z
    .number({ error: V.required })
    .int({ error: V.invalid })
    .positive({ error: V.invalid })
    .max(MAX_ROW_ID, { error: V.invalid }),
});
export const transferActionResponse = z.object({ id: z.number().int(), status: z.enum(TRANSFER_STATUSES) });
