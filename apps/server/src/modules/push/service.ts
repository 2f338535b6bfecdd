// Web Push: a person's browsers subscribe with the installation's VAPID public key; notices go to each of them
// through its push service (Google's, Mozilla's, Apple's …), encrypted for that browser alone (aes128gcm,
// RFC 8291) and signed with the installation's VAPID key (RFC 8292).
// - The key pair is VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, else made once and kept in the database (every
//   instance of a deployment signs with the same key; a new key would orphan every subscription).
// - VAPID_SUBJECT is how push services can reach the operator (mailto: or https:), by default SMTP_FROM's address.
// - A push address is a request the server makes on a tenant's behalf: it must be https and pass the address
//   policy, when saved and again at each send, and the request goes to exactly the address checked. Only a server
//   run for tests or development (NODE_ENV test or development) also takes http:// to this machine or its network.
import webpush from 'web-push';
import {
  PUSH_DEVICES_MAX,
  ResultCode,
  type PushDevice,
  type PushPayload,
  type PushSubscribeRequest,
} from '@genset/protocol';
import { AppError } from '../../lib/errors.ts';
import { classifyAddress, type AddressPolicy, type OutboundTarget } from '../../lib/address-policy.ts';
import { requestPinned } from '../../lib/outbound-http.ts';
import type { PushRepository } from './repository.ts';

export interface PushSettings {
  publicKey?: string | undefined;
  privateKey?: string | undefined;
  subject: string;
  /** http:// and private addresses taken (tests, development). */
  allowLocal: boolean;
}

/** The settings from the environment; `smtpFrom` gives the default subject. */
export function pushSettingsFromEnv(env: Record<string, string | undefined>, smtpFrom: string): PushSettings {
  const address = /<([^>]+)>/.exec(smtpFrom)?.[1] ?? smtpFrom.trim();
  return {
    publicKey: env.VAPID_PUBLIC_KEY || undefined,
    privateKey: env.VAPID_PRIVATE_KEY || undefined,
    subject: env.VAPID_SUBJECT || `mailto:${address}`,
    allowLocal: env.NODE_ENV === 'test' || env.NODE_ENV === 'development',
  };
}

const SEND_TIMEOUT_MS = 10_000;

/** A device name from a user agent: "Chrome on Android", "Safari on iPhone" … */
export function deviceLabel(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/OPR\//, 'Opera'],
      [/SamsungBrowser\//, 'Samsung Internet'],
      [/Firefox\//, 'Firefox'],
      [/Chrom(e|ium)\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([re]) => (re as RegExp).test(ua))?.[1] ?? '';
  const system =
    [
      [/Android/, 'Android'],
      [/iPhone/, 'iPhone'],
      [/iPad/, 'iPad'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ].find(([re]) => (re as RegExp).test(ua))?.[1] ?? '';
  if (browser && system) return `${browser as string} · ${system as string}`;
  return (browser || system || ua.slice(0, 120)) as string;
}

/** An error the notification engine does not retry (the device is gone). */
export class PushGone extends Error {
  readonly permanent = true;
  constructor(readonly responseStatus: number) {
    super(`the push service answered ${responseStatus}: the subscription is gone`);
  }
}

export function createPushService(deps: { repo: PushRepository; policy: AddressPolicy; settings: PushSettings }) {
  const { repo, policy, settings } = deps;
  let keys: Promise<{ publicKey: string; privateKey: string }> | null = null;

  function vapidKeys() {
    keys ??= (async () => {
      if (settings.publicKey && settings.privateKey)
        return { publicKey: settings.publicKey, privateKey: settings.privateKey };
      let row = await repo.keys();
      if (!row) {
        const made = webpush.generateVAPIDKeys();
        await repo.keepKeys(made.publicKey, made.privateKey, Date.now());
        row = await repo.keys();
      }
      return { publicKey: row!.public_key, privateKey: row!.private_key };
    })().catch((err: unknown) => {
      keys = null;
      throw err;
    });
    return keys;
  }

  /** Where a push address leads, or why it is refused (a message key). */
  async function target(raw: string): Promise<OutboundTarget | string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'push.endpoint';
    }
    if (url.username || url.password) return 'push.endpoint';
    // plain http only to a local stand-in of a push service, by address, on a server run for tests or development
    const local = settings.allowLocal && ['loopback', 'private'].includes(classifyAddress(url.hostname));
    if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) return 'push.endpoint';
    const checked = await policy.check(url, { allowPrivate: settings.allowLocal });
    return checked.ok ? checked.target : 'push.refused';
  }

  return {
    async publicKey(): Promise<{ publicKey: string }> {
      return { publicKey: (await vapidKeys()).publicKey };
    },

    async subscribe(userId: number, req: PushSubscribeRequest, userAgent: string | undefined) {
      const where = await target(req.endpoint);
      if (typeof where === 'string') throw new AppError(ResultCode.invalid, where);
      const id = await repo.upsert(
        userId,
        {
          endpoint: req.endpoint,
          p256dh: req.keys.p256dh,
          auth: req.keys.auth,
          label: (req.label?.trim() || deviceLabel(userAgent)).slice(0, 120),
        },
        Date.now(),
      );
      await repo.trim(userId, PUSH_DEVICES_MAX);
      return { id };
    },

    /** Removes one of the caller's devices; another person's (or none) is not found. */
    async unsubscribe(userId: number, which: { id?: number | undefined; endpoint?: string | undefined }) {
      if (which.id === undefined && which.endpoint === undefined)
        throw new AppError(ResultCode.notFound, 'push.notFound');
      const removed = await repo.removeOwn(userId, which);
      if (!removed) throw new AppError(ResultCode.notFound, 'push.notFound');
      return { removed };
    },

    async devices(userId: number): Promise<{ list: PushDevice[] }> {
      const rows = await repo.listOf(userId);
      return {
        list: rows.map((r) => ({
          id: r.id,
          label: r.label,
          service: URL.canParse(r.endpoint) ? new URL(r.endpoint).host : '',
          endpoint: r.endpoint,
          createdAt: Number(r.created_at),
          lastSuccessAt: r.last_success_at === null ? null : Number(r.last_success_at),
          failures: r.failures,
        })),
      };
    },

    /**
     * Sends one message to one device; answers the push service's status. A device gone (404, 410) is removed
     * and a `PushGone` thrown; any other refusal throws with its status (the engine tries again later).
     */
    async send(
      subscriptionId: number,
      payload: PushPayload,
      options: { urgency: 'high' | 'normal'; ttlSeconds: number },
    ): Promise<number> {
      const sub = await repo.byId(subscriptionId);
      if (!sub) throw new PushGone(410);
      const where = await target(sub.endpoint);
      if (typeof where === 'string') throw new Error(where);
      const vapid = await vapidKeys();
      const details = webpush.generateRequestDetails(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: { subject: settings.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: options.ttlSeconds,
          urgency: options.urgency,
          contentEncoding: 'aes128gcm',
        },
      );
      const headers = Object.fromEntries(
        Object.entries(details.headers as Record<string, string | number>)
          .filter(([name]) => name.toLowerCase() !== 'content-length')
          .map(([name, value]) => [name, String(value)]),
      );
      const res = await requestPinned(new URL(sub.endpoint), where, {
        method: 'POST',
        headers,
        body: details.body as Buffer,
        timeoutMs: SEND_TIMEOUT_MS,
      });
      if (res.status >= 200 && res.status <= 299) {
        await repo.succeeded(sub.id, Date.now());
        return res.status;
      }
      if (res.status === 404 || res.status === 410) {
        await repo.remove(sub.id);
        throw new PushGone(res.status);
      }
      await repo.failed(sub.id);
      throw Object.assign(new Error(`the push service answered ${res.status}`), { responseStatus: res.status });
    },
  };
}
export type PushService = ReturnType<typeof createPushService>;
