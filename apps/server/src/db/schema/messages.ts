// The delivery log of SMS, e-mail and push messages (migration 031).
import type { Generated } from 'kysely';

export interface MessageLogTable {
  id: Generated<number>;
  company_id: number | null;
  user_id: number | null;
  channel: string;
  purpose: string;
  recipient: string;
  recipient_key: string;
  provider: string;
  provider_id: string | null;
  status: string;
  attempts: number;
  error_kind: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}
