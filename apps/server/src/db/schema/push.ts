// Web Push: each person's subscribed browsers, and the installation's VAPID key pair (one row, id 1).
import type { Generated } from 'kysely';

export interface PushSubscriptionTable {
  id: Generated<number>;
  user_id: number;
  /** The push service's address for this browser (unique: one browser, one row). */
  endpoint: string;
  /** The browser's P-256 public key and authentication secret (base64url), the payload is encrypted to. */
  p256dh: string;
  auth: string;
  /** What the browser said it is (its user agent, shortened), to tell devices apart in the list. */
  label: string;
  created_at: number;
  last_success_at: number | null;
  /** Sends that failed since the last that went through. */
  failures: number;
}

export interface PushKeyTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: number;
}
