// Energy-storage stations: price templates and their versions, the stations, the sets bound to them by role, the
// tactics sent, energy and money per day and tariff period, and the run records.
import type { Generated } from 'kysely';

/** A price template of a company (migration 021); its bodies are its versions. */
export interface PriceTemplateTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** One version of a price template, in force from valid_from (migration 021). */
export interface PriceTemplateVersionTable {
  id: Generated<number>;
  template_id: number;
  version: number;
  body: string;
  valid_from: number;
  created_by: number | null;
  created_by_name: string;
  created_at: number;
}

/** An energy-storage station (migration 021). */
export interface SiteTable {
  id: Generated<number>;
  token: string;
  company_id: number;
  owner_user_id: number | null;
  name: string;
  address: string | null;
  lat: number | null;
  lon: number | null;
  time_zone: string;
  currency: string;
  capacity_kwh: number;
  rating_kw: number;
  transformer_kw: number | null;
  build_date: string | null;
  modem_id: number | null;
  template_id: number | null;
  tactic_version: number;
  tactic_outcome: string | null;
  tactic_sent_at: number | null;
  strategy: string | null;
  template_version: number | null;
  running_version: number | null;
  running_strategy: string | null;
  ems_state: string | null;
  safe_reason: string | null;
  setpoint_kw: number | null;
  demand_response: string | null;
  /** Since the station was built: kept as its energy is counted (migration 022). */
  total_charge_kwh: number;
  total_discharge_kwh: number;
  total_charge_cost: number;
  total_discharge_income: number;
  ems_ts: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** The department it belongs to; null: its owner's (migration 025). */
  department_id: number | null;
}

/** A set of a station and its role; the PCS's energy counters as last counted (migration 021). */
export interface SiteDeviceTable {
  id: Generated<number>;
  site_id: number;
  genset_id: number;
  role: string;
  sort: number;
  last_ts: number | null;
  last_charge_kwh: number | null;
  last_discharge_kwh: number | null;
}

/** Each tactic sent to a station's module and what became of it (migration 021). */
export interface SiteTacticTable {
  id: Generated<number>;
  site_id: number;
  version: number;
  strategy: string;
  template_id: number | null;
  template_version: number | null;
  body: string;
  user_id: number | null;
  account: string;
  request_id: string | null;
  outcome: string;
  reason: string;
  created_at: number;
  finished_at: number | null;
}

/** Energy and money of a station per local day, tariff period and template version (migration 021). */
export interface SiteEnergyTable {
  site_id: number;
  day: string;
  period: string;
  template_version_id: number;
  charge_kwh: number;
  discharge_kwh: number;
  charge_cost: number;
  discharge_income: number;
}

/** What a station did: tactics, strategy changes, safe stops, demand response, state changes (migration 021). */
export interface SiteRunRecordTable {
  id: Generated<number>;
  site_id: number;
  ts: number;
  kind: string;
  version: number | null;
  detail: string;
  created_at: number;
}
