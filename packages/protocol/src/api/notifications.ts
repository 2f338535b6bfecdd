// Notifications (spec 3, message settings; the message centre): what a person finds under the bell, and the
// webhooks a company has notices posted to. Every notice has a kind; its words are made in the reader's
// language from the kind and its facts (`params`), so the centre reads right whatever language is chosen later.
import { z } from 'zod';
import { V } from './checks.ts';
import { MAX_ROW_ID } from './codes.ts';
import { required } from './rules.ts';

export const NOTICE_KINDS = [
  'alarm.raised',
  'alarm.cleared',
  'alarm.escalated',
  'set.offline',
  'maintenance.due',
  'maintenance.overdue',
  'transfer.requested',
  'transfer.accepted',
  'transfer.rejected',
  'transfer.revoked',
  'repair.submitted',
  'repair.state',
  'sim.usage',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const NOTICE_LEVELS = ['alarm', 'warning', 'info'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

/** The most notices one page of the message centre shows. */
export const NOTICE_PAGE_MAX = 50;
export const WEBHOOK_NAME_MAX = 64;
export const WEBHOOK_URL_MAX = 500;
/** Webhooks one company may have. */
export const WEBHOOKS_PER_COMPANY_MAX = 10;
/** A webhook message that cannot be delivered is tried again for this long, then given up. */
export const WEBHOOK_RETRY_HOURS = 24;
/** Names of the headers every webhook POST carries (the signature is HMAC-SHA256 of `<timestamp>.<body>`). */
export const WEBHOOK_HEADERS = {
  event: 'x-genset-event',
  delivery: 'x-genset-delivery',
  timestamp: 'x-genset-timestamp',
  signature: 'x-genset-signature',
} as const;

const id = z.number({ error: V.invalid }).int({ error: V.invalid }).positive({ error: V.invalid }).max(MAX_ROW_ID);

export const noticeListRequest = z.strictObject({
  page: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1, { error: V.invalid }).default(1),
  size: z.number({ error: V.invalid }).int({ error: V.invalid }).min(1).max(NOTICE_PAGE_MAX).default(20),
  unread: z.boolean().optional(),
});
export type NoticeListRequest = z.input<typeof noticeListRequest>;

export const noticeItem = z.object({
  id: z.number().int(),
  kind: z.enum(NOTICE_KINDS),
  level: z.enum(NOTICE_LEVELS),
  title: z.string(),
  text: z.string(),
  /** The set it concerns (its token), when it concerns one. */
  token: z.string().nullable(),
  /** Where the console takes the reader (a console path), or null. */
  link: z.string().nullable(),
  createdAt: z.number(),
  readAt: z.number().nullable(),
});
export type NoticeItem = z.infer<typeof noticeItem>;

export const noticeListResponse = z.object({
  list: z.array(noticeItem),
  total: z.number().int(),
  unread: z.number().int(),
});
export type NoticeListResponse = z.infer<typeof noticeListResponse>;

export const noticeReadRequest = z.strictObject({
  ids: z.array(id).min(1, { error: V.required }).max(NOTICE_PAGE_MAX),
  read: z.boolean().default(true),
});
export type NoticeReadRequest = z.input<typeof noticeReadRequest>;
export const noticeUnreadResponse = z.object({ unread: z.number().int() });

/** The realtime push of a new notice (`{method: 'notice', unread, item}`) to every console of its reader. */
export interface NoticePush {
  method: 'notice';
  unread: number;
  item?: NoticeItem;
}

export const webhookSaveRequest = z.strictObject({
  id: id.optional(),
  name: required().max(WEBHOOK_NAME_MAX, { error: V.tooLong }),
  url: required().max(WEBHOOK_URL_MAX, { error: V.tooLong }),
  events: z.array(z.enum(NOTICE_KINDS, { error: V.invalid })).min(1, { error: V.required }),
  enabled: z.boolean().default(true),
});
export type WebhookSaveRequest = z.input<typeof webhookSaveRequest>;

export const webhookItem = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  events: z.array(z.enum(NOTICE_KINDS)),
  enabled: z.boolean(),
  /** The signing secret, shown to those who manage the company's webhooks so receivers can check signatures. */
  secret: z.string(),
  createdAt: z.number(),
  lastDelivery: z.object({ status: z.string(), at: z.number(), responseStatus: z.number().nullable() }).nullable(),
});
export type WebhookItem = z.infer<typeof webhookItem>;
export const webhookListResponse = z.object({ list: z.array(webhookItem) });
export const webhookIdRequest = z.strictObject({ id });

export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export const webhookDeliveryItem = z.object({
  id: z.number().int(),
  kind: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  responseStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.number(),
  sentAt: z.number().nullable(),
  nextAttemptAt: z.number().nullable(),
});
export type WebhookDeliveryItem = z.infer<typeof webhookDeliveryItem>;
export const webhookDeliveriesResponse = z.object({ list: z.array(webhookDeliveryItem) });
