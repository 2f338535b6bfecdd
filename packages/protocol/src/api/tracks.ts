// Where a set is and has been (spec 7 "Genset": /genset/updateFence, /genset/guiji): the electronic fence of a
// set (a circle or a polygon drawn on the map), whose leaving and re-entering raise and clear an alarm, and
// the track its cloud module's GPS fixes draw over a time range, simplified for the map's zoom.
import { z } from 'zod';
import { setToken } from './devices.ts';
import { V } from './rules.ts';

/** A circle's radius: at least a metre, at most 1,000 km. */
export const FENCE_RADIUS_MIN_M = 1;
export const FENCE_RADIUS_MAX_M = 1_000_000;
export const FENCE_POLYGON_MIN_POINTS = 3;
export const FENCE_POLYGON_MAX_POINTS = 200;
/** The longest track one call returns. */
export const TRACK_MAX_RANGE_DAYS = 31;
/** A track never carries more points than this, however long its range (it is simplified further). */
export const TRACK_MAX_POINTS = 5000;
/** Code of the alarm a set raises while it is outside its fence (raised and cleared by its position). */
export const FENCE_ALARM_CODE = 'module:fence';

const lat = () => z.number({ error: V.invalid }).min(-90, { error: V.invalid }).max(90, { error: V.invalid });
const lon = () => z.number({ error: V.invalid }).min(-180, { error: V.invalid }).max(180, { error: V.invalid });
export const geoPoint = z.strictObject({ lat: lat(), lon: lon() });
export type GeoPoint = z.infer<typeof geoPoint>;

export const fenceShape = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('circle'),
      center: geoPoint,
      /** Checked by the server against FENCE_RADIUS_MIN_M … FENCE_RADIUS_MAX_M, with its own words. */
      radiusM: z.number({ error: V.invalid }),
    }),
    z.strictObject({
      type: z.literal('polygon'),
      /** The corners in order; the last joins the first. Checked by the server: 3 to 200, not crossing itself. */
      points: z.array(geoPoint, { error: V.invalid }).max(FENCE_POLYGON_MAX_POINTS + 1, { error: V.invalid }),
    }),
  ],
  { error: V.invalid },
);
export type FenceShape = z.infer<typeof fenceShape>;

/** A set's fence; null removes it (and the set's radius field with it). */
export const updateFenceRequest = z.strictObject({ token: setToken(), fence: fenceShape.nullable() });
export type UpdateFenceRequest = z.input<typeof updateFenceRequest>;

export const FENCE_STATES = ['inside', 'outside', 'unknown'] as const;
export type FenceState = (typeof FENCE_STATES)[number];

export const setPosition = z.object({ ts: z.number(), lat: z.number(), lon: z.number(), speed: z.number().nullable() });
export type SetPosition = z.infer<typeof setPosition>;

export const fenceRequest = z.strictObject({ token: setToken() });
export const fenceResponse = z.object({
  /** The set's fence: its own shape, or the circle of its radius field around its site; null: none. */
  fence: fenceShape.nullable(),
  /** Where the set was last reported, and whether that is inside its fence. */
  position: setPosition.nullable(),
  state: z.enum(FENCE_STATES),
  /** The set's site (its longitude and latitude fields), for a map without a fix yet. */
  site: geoPoint.nullable(),
  canManage: z.boolean(),
});
export type FenceResponse = z.infer<typeof fenceResponse>;

const epochMs = () => z.number({ error: V.invalid }).int({ error: V.invalid }).min(0, { error: V.invalid });

export const trackRequest = z.strictObject({
  token: setToken(),
  start: epochMs(),
  end: epochMs(),
  /** The map's zoom level: points closer than about a pixel there are dropped. Without it, every fix. */
  zoom: z.number({ error: V.invalid }).int({ error: V.invalid }).min(0, { error: V.invalid }).max(22).optional(),
});
export type TrackRequest = z.input<typeof trackRequest>;

/** [time, latitude, longitude, speed km/h or null]. */
export const trackPoint = z.tuple([z.number(), z.number(), z.number(), z.number().nullable()]);
export type TrackPoint = z.infer<typeof trackPoint>;

export const trackResponse = z.object({
  points: z.array(trackPoint),
  /** Fixes stored in the range before simplification. */
  stored: z.number().int(),
  /** Metres travelled along the stored fixes. */
  distanceM: z.number(),
});
export type TrackResponse = z.infer<typeof trackResponse>;
