// Where sets are: the GPS fixes their modules report, each set's latest fix and its fence.
import type { ColumnType } from 'kysely';

/** A GPS fix of a set, as its module reported it (migration 018). */
export interface PositionTable {
  genset_id: number;
  ts: number;
  lat: number;
  lon: number;
  speed: number | null;
  alt: number | null;
}

/** A set's latest fix, the last one stored, and whether it is inside its fence (migration 018). */
export interface SetPositionTable {
  genset_id: number;
  ts: number;
  lat: number;
  lon: number;
  speed: number | null;
  stored_ts: number;
  stored_lat: number;
  stored_lon: number;
  fence_state: ColumnType<string, string | undefined, string>;
}

/** A set's drawn fence: a circle or a polygon as JSON (migration 018). */
export interface GeofenceTable {
  genset_id: number;
  shape: string;
  updated_at: number;
  updated_by: number | null;
}
