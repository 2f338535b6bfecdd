// SIM cards: each card's plan and the counters last read, and the bytes it used per day and billing month.
/** A SIM card (by ICCID): its plan and the latest counter reading counted (migration 017). */
export interface SimCardTable {
  iccid: string;
  plan_mb: number | null;
  start_day: number;
  alarm_share: number;
  last_ts: number | null;
  last_rx: number | null;
  last_tx: number | null;
  created_at: number;
  updated_at: number;
}

/** Bytes a card used on one day of its set's calendar, or in one billing month (migration 017). */
export interface SimUsageDayTable {
  iccid: string;
  day: string;
  rx_bytes: number;
  tx_bytes: number;
}
export interface SimUsageMonthTable {
  iccid: string;
  month: string;
  rx_bytes: number;
  tx_bytes: number;
}
