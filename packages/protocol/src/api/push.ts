// Web Push (the console installed as an app, alarms on the phone's lock screen): the installation's VAPID public
// key the browser subscribes with, a browser's subscription as `PushSubscription.toJSON()` gives it, and the
// person's subscribed devices. What a push message carries is `PushPayload`, read by the console's service worker.
import { z } from 'zod';
import { V } from './checks.ts';
import { MAX_ROW_ID } from './codes.ts';

export const PUSH_ENDPOINT_MAX = 1000;
/** Subscribed browsers one person may have; the oldest goes when another is added. */
export const PUSH_DEVICES_MAX = 20;

export const pushKeyResponse = z.object({
  /** The VAPID public key (uncompressed P-256 point, base64url): `applicationServerKey` of `pushManager.subscribe`. */
  publicKey: z.string(),
});
export type PushKeyResponse = z.infer<typeof pushKeyResponse>;

const base64url = (max: number) =>
  z
    .string({ error: V.required })
    .min(1, { error: V.required })
    .max(max, { error: V.tooLong })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: V.invalid });

export const pushSubscribeRequest = z.strictObject({
  endpoint: z.string({ error: V.required }).min(1, { error: V.required }).max(PUSH_ENDPOINT_MAX, { error: V.tooLong }),
  /** Ignored (browsers send it as null); a subscription that expires is replaced by the browser. */
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(200), auth: base64url(100) }),
  /** What the device is called in the list (else the browser's user agent). */
  label: z.string().max(120, { error: V.tooLong }).optional(),
});
export type PushSubscribeRequest = z.input<typeof pushSubscribeRequest>;

/** One of the caller's devices, by its id (the list) or by its push address (the browser the console runs in). */
export const pushUnsubscribeRequest = z.strictObject({
  id: z
    .number({ error: V.invalid })
    .int({ error: V.invalid })
    .positive({ error: V.invalid })
    .max(MAX_ROW_ID)
    .optional(),
  endpoint: z.string().min(1).max(PUSH_ENDPOINT_MAX, { error: V.tooLong }).optional(),
});
export type PushUnsubscribeRequest = z.infer<typeof pushUnsubscribeRequest>;

export const pushDevice = z.object({
  id: z.number().int(),
  label: z.string(),
  /** The push service's host (fcm.googleapis.com, updates.push.services.mozilla.com, web.push.apple.com …). */
  service: z.string(),
  /** So the console can tell which entry is the browser it runs in. */
  endpoint: z.string(),
  createdAt: z.number(),
  lastSuccessAt: z.number().nullable(),
  failures: z.number().int(),
});
export type PushDevice = z.infer<typeof pushDevice>;

export const pushDevicesResponse = z.object({ list: z.array(pushDevice) });
export type PushDevicesResponse = z.infer<typeof pushDevicesResponse>;

export const pushSubscribeResponse = z.object({ id: z.number().int() });

/** What a push message's payload holds (JSON, encrypted aes128gcm). */
export interface PushPayload {
  title: string;
  body: string;
  /** The console page to open (a path of the console, e.g. a set's alarms). */
  url: string;
  /** Notifications with the same tag replace each other (one per set). */
  tag: string;
}
