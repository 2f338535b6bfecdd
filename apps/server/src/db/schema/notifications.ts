// Notifications: the events that may notify someone, each person's notifications, the company's webhooks and
// every delivery by SMS, e-mail or webhook; and the leases by which one instance at a time runs a job.
import type { Generated } from 'kysely';

export interface NotificationEventTable {
  id: Generated<number>;
  kind: string;
  company_id: number | null;
  genset_id: number | null;
  payload: string;
  dedupe_key: string | null;
  created_at: number;
  processed_at: number | null;
}

export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  event_id: number;
  kind: string;
  level: string;
  genset_id: number | null;
  payload: string;
  created_at: number;
  read_at: number | null;
}

export interface WebhookTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  url: string;
  secret: string;
  events: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface NotificationDeliveryTable {
  id: Generated<number>;
  event_id: number;
  company_id: number | null;
  user_id: number | null;
  webhook_id: number | null;
  channel: string;
  target: string;
  group_key: string;
  payload: string;
  status: string;
  attempts: Generated<number>;
  not_before: number;
  locked_until: number | null;
  last_error: string | null;
  response_status: number | null;
  created_at: number;
  sent_at: number | null;
}

export interface JobLeaseTable {
  name: string;
  holder: string;
  expires_at: number;
}
