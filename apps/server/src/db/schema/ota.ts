// Firmware upgrades: the files, their assignments to sets and each set's upgrade.
import type { Generated } from 'kysely';

/** A firmware file for cloud modules or controllers of one model (migration 019). */
export interface OtaFileTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  version: string;
  target: string;
  model: string;
  size: number;
  md5: string;
  sha256: string;
  stored_name: string;
  created_by: number | null;
  created_at: number;
}

/** One assignment of a file to sets: how many may download at once, and when (migration 019). */
export interface OtaCampaignTable {
  id: Generated<number>;
  file_id: number;
  company_id: number;
  concurrency: number;
  window_start: number | null;
  window_end: number | null;
  created_by: number | null;
  created_at: number;
}

/** One set's upgrade: its state, progress and reason (migration 019). */
export interface OtaJobTable {
  id: Generated<number>;
  campaign_id: number;
  file_id: number;
  genset_id: number;
  modem_id: number;
  state: string;
  progress: number;
  reason: string;
  from_version: string;
  request_id: string | null;
  download_token: string | null;
  created_at: number;
  started_at: number | null;
  updated_at: number;
  finished_at: number | null;
}
