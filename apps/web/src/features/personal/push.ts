// Web Push on this browser: whether it can be notified, its subscription at its push service (made with the
// server's VAPID key through the console's service worker), and the person's subscribed devices on the server.
import type { PushDevicesResponse, PushKeyResponse } from '@genset/protocol';
import { get, post } from '../../api/request.ts';

export type PushSupport = 'supported' | 'unsupported' | 'insecure';

export function pushSupport(): PushSupport {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  return window.isSecureContext ? 'supported' : 'insecure';
}

/** Whether this site may show notifications: the Permissions API's answer where there is one, else Notification's. */
export async function notificationPermission(): Promise<NotificationPermission> {
  if (!('Notification' in window)) return 'denied';
  try {
    const status = await navigator.permissions.query({ name: 'notifications' });
    return status.state === 'prompt' ? 'default' : status.state;
  } catch {
    return Notification.permission;
  }
}

/** The console's service worker, when one is registered (none in the development server). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator)) return undefined;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return reg ? navigator.serviceWorker.ready : undefined;
}

export async function thisSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export type SubscribeOutcome = 'subscribed' | 'denied' | 'noWorker' | 'serviceFailed';

/** Asks for permission, subscribes at the browser's push service and tells the server. */
export async function subscribeThisDevice(): Promise<SubscribeOutcome> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const reg = await registration();
  if (!reg) return 'noWorker';
  const { publicKey } = await get<PushKeyResponse>('/push/key');
  let subscription: PushSubscription;
  try {
    const old = await reg.pushManager.getSubscription();
    // a subscription made with another key (a reinstalled server) cannot be used: it is made anew
    const sameKey =
      old?.options.applicationServerKey &&
      btoa(String.fromCharCode(...new Uint8Array(old.options.applicationServerKey)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '') === publicKey;
    if (old && !sameKey) await old.unsubscribe();
    subscription =
      (sameKey ? old : null) ??
      (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  } catch {
    return 'serviceFailed';
  }
  await post('/push/subscribe', subscription.toJSON());
  return 'subscribed';
}

/** Stops notifying this browser: at its push service and on the server. */
export async function unsubscribeThisDevice(): Promise<void> {
  const subscription = await thisSubscription();
  if (!subscription) return;
  await post('/push/unsubscribe', { endpoint: subscription.endpoint }, { silent: true }).catch(() => undefined);
  await subscription.unsubscribe();
}

export function listDevices(): Promise<PushDevicesResponse> {
  return get<PushDevicesResponse>('/push/devices');
}

export function removeDevice(id: number): Promise<unknown> {
  return post('/push/unsubscribe', { id });
}
