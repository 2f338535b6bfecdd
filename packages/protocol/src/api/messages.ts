// Messages (SMS, e-mail, push): how this installation sends them, the company's delivery log, and the test message
// an administrator sends to see a channel work. A recipient in the log is masked (138****0001, ad***@example.com).
import { z } from 'zod';
import { isEmail, isMobile, V } from './checks.ts';
import { pageQuery, pageTotals } from './rules.ts';

export const MESSAGE_CHANNELS = ['sms', 'email', 'push'] as const;
export type MessageChannelName = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_STATUSES = ['sending', 'sent', 'delivered', 'failed', 'throttled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_FAILURES = [
  'invalid-recipient',
  'quota',
  'blocked-content',
  'unauthorized',
  'unavailable',
  'rejected',
] as const;
export type MessageFailure = (typeof MESSAGE_FAILURES)[number];

/** What the sign-in and registration forms may know: whether codes leave the server at all. */
export const messageChannelsResponse = z.object({
  sms: z.boolean(),
  email: z.boolean(),
});
export type MessageChannelsResponse = z.infer<typeof messageChannelsResponse>;

/** How each channel is served (company administrators). */
export const messageStatusResponse = z.object({
  sms: z.object({ provider: z.string(), fallback: z.string().nullable(), configured: z.boolean() }),
  email: z.object({ provider: z.string(), configured: z.boolean() }),
  push: z.object({ configured: z.boolean() }),
});
export type MessageStatusResponse = z.infer<typeof messageStatusResponse>;

export const messageLogRequest = z.strictObject({
  ...pageQuery,
  channel: z.enum(MESSAGE_CHANNELS, { error: V.invalid }).optional(),
  status: z.enum(MESSAGE_STATUSES, { error: V.invalid }).optional(),
});
export type MessageLogRequest = z.input<typeof messageLogRequest>;

export const messageLogItem = z.object({
  id: z.number().int(),
  createdAt: z.number(),
  channel: z.enum(MESSAGE_CHANNELS),
  purpose: z.string(),
  recipient: z.string(),
  provider: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  attempts: z.number().int(),
  failure: z.enum(MESSAGE_FAILURES).nullable(),
  /** The provider's own answer (its code and words), for whoever takes it up with the provider. */
  error: z.string().nullable(),
});
export type MessageLogItem = z.infer<typeof messageLogItem>;
export const messageLogResponse = z.object({ list: z.array(messageLogItem), ...pageTotals });
export type MessageLogResponse = z.infer<typeof messageLogResponse>;

/** A test message: SMS to a mobile number, e-mail to an address (push goes to the caller's own devices). */
export const messageTestRequest = z
  .strictObject({
    channel: z.enum(MESSAGE_CHANNELS, { error: V.invalid }),
    to: z.string().trim().max(254, { error: V.tooLong }).default(''),
  })
  .superRefine((v, ctx) => {
    if (v.channel === 'sms' && !isMobile(v.to)) ctx.addIssue({ code: 'custom', path: ['to'], message: V.invalid });
    if (v.channel === 'email' && !isEmail(v.to)) ctx.addIssue({ code: 'custom', path: ['to'], message: V.invalid });
  });
export type MessageTestRequest = z.input<typeof messageTestRequest>;
export const messageTestResponse = z.object({ item: messageLogItem.nullable(), devices: z.number().int() });
export type MessageTestResponse = z.infer<typeof messageTestResponse>;
