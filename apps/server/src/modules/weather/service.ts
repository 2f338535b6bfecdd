// The weather at a set's place (/getWeather and the header of a prefilled report): from the configured weather
// service at the set's position (its latest GPS fix, else the position in its details), kept for a while per
// place so that a fleet of top bars does not ask the service again and again; without a service, from the set's
// own ambient sensors when its protocol has them; else "not configured".
import {
  AMBIENT_ITEMS,
  kelvinToCelsius,
  Permission,
  ResultCode,
  hasAnyPermission,
  type WeatherResponse,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { keepRecent } from '../../lib/memo.ts';
import type { SessionContext } from '../auth/service.ts';
import type { GensetRow } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { DeviceService } from '../devices/service.ts';
import { parseDetails } from '../gensets/fields.ts';
import { WeatherError, type WeatherObservation, type WeatherProvider } from './provider.ts';

/** A sync asks the service again only when what is kept is older than this. */
export const WEATHER_MIN_REFRESH_MS = 60_000;
/** Places kept at most. */
const CACHE_SIZE = 5000;

interface Kept {
  at: number;
  observation: WeatherObservation;
}

export interface WeatherServiceOptions {
  db: Db;
  devices: Pick<DeviceService, 'resolve'>;
  protocols: ProtocolStore;
  provider: WeatherProvider | null;
  cacheMs: number;
  now?: () => number;
}

/** A usable coordinate: in range and not the 0/0 of a receiver without a fix. */
function position(lat: unknown, lon: unknown): { lat: number; lon: number } | null {
  if (lat === null || lon === null || lat === undefined || lon === undefined || lat === '' || lon === '') return null;
  const a = Number(lat);
  const b = Number(lon);
  if (!Number.isFinite(a) || !Number.isFinite(b) || Math.abs(a) > 90 || Math.abs(b) > 180) return null;
  if (a === 0 && b === 0) return null;
  return { lat: a, lon: b };
}

function toKelvin(value: number, unit: string): number {
  const u = unit.trim();
  if (u === 'K') return value;
  if (u === '°F' || u === 'F') return ((value - 32) * 5) / 9 + 273.15;
  return value + 273.15;
}

function toHpa(value: number, unit: string): number {
  const factor: Record<string, number> = { Pa: 0.01, kPa: 10, bar: 1000, mbar: 1, hPa: 1 };
  return value * (factor[unit.trim()] ?? 1);
}

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

export function weatherError(e: WeatherError): AppError {
  if (e.failure === 'refused')
    return new AppError(ResultCode.deviceFailed, 'weather.errors.refused', { status: e.status ?? 0 });
  return new AppError(ResultCode.deviceFailed, `weather.errors.${e.failure}`);
}

export function createWeatherService(opts: WeatherServiceOptions) {
  const { db, provider } = opts;
  const now = opts.now ?? Date.now;
  const kept = new Map<string, Kept>();
  const asking = new Map<string, Promise<Kept>>();

  async function latestValues(set: GensetRow): Promise<{ values: Record<string, number | null>; ts: number | null }> {
    const row = await db
      .selectFrom('set_latest')
      .select(['values', 'device_ts'])
      .where('genset_id', '=', set.id)
      .executeTakeFirst();
    return row
      ? { values: JSON.parse(row.values) as Record<string, number | null>, ts: Number(row.device_ts) }
      : { values: {}, ts: null };
  }

  /** The observation of a place, from what is kept unless it is too old (or a sync asks and it is not new). */
  async function observe(lat: number, lon: number, refresh: boolean): Promise<Kept> {
    // About a kilometre: sets of one site share their weather.
    const key = `${lat.toFixed(2)},${lon.toFixed(2)}`;
    const have = kept.get(key);
    const age = have ? now() - have.at : Infinity;
    if (have && age < (refresh ? WEATHER_MIN_REFRESH_MS : opts.cacheMs)) return have;
    let pending = asking.get(key);
    if (!pending) {
      pending = provider!
        .current(Number(lat.toFixed(2)), Number(lon.toFixed(2)))
        .then((observation) => {
          const entry = { at: now(), observation };
          keepRecent(kept, key, entry, CACHE_SIZE);
          return entry;
        })
        .finally(() => asking.delete(key));
      asking.set(key, pending);
    }
    return pending;
  }

  function answer(source: 'provider' | 'sensors', o: WeatherObservation, fetchedAt: number | null): WeatherResponse {
    return {
      state: 'ok',
      source,
      temp: o.tempK,
      celsius: kelvinToCelsius(o.tempK),
      pressure: o.pressureHpa === null ? null : round(o.pressureHpa, 1),
      humidity: o.humidityPct === null ? null : round(o.humidityPct, 1),
      observedAt: o.observedAt,
      fetchedAt,
    };
  }

  const none = (state: 'notConfigured' | 'noPosition'): WeatherResponse => ({
    state,
    source: null,
    temp: null,
    celsius: null,
    pressure: null,
    humidity: null,
    observedAt: null,
    fetchedAt: null,
  });

  /** The set's own ambient sensors, when its protocol has a temperature one and it has been read. */
  async function fromSensors(set: GensetRow): Promise<WeatherResponse | null> {
    const doc = (await opts.protocols.get(set.protocol_key))?.doc;
    const items = new Map((doc?.items ?? []).map((i) => [i.key, i]));
    const temp = items.get(AMBIENT_ITEMS.temp);
    if (!temp) return null;
    const { values, ts } = await latestValues(set);
    const t = values[AMBIENT_ITEMS.temp];
    if (t === null || t === undefined) return null;
    const humidity = items.has(AMBIENT_ITEMS.humidity) ? (values[AMBIENT_ITEMS.humidity] ?? null) : null;
    const pressureItem = items.get(AMBIENT_ITEMS.pressure);
    const p = pressureItem ? (values[AMBIENT_ITEMS.pressure] ?? null) : null;
    return answer(
      'sensors',
      {
        tempK: round(toKelvin(t, temp.unit), 3),
        humidityPct: humidity,
        pressureHpa: p === null || !pressureItem ? null : toHpa(p, pressureItem.unit),
        observedAt: ts,
      },
      null,
    );
  }

  /** The weather of a set the caller may see, for a caller who may read reports. */
  async function forSet(set: GensetRow, refresh = false): Promise<WeatherResponse> {
    if (!provider) return (await fromSensors(set)) ?? none('notConfigured');
    const { values } = await latestValues(set);
    const details = parseDetails(set.details);
    const at = position(values.latitude, values.longitude) ?? position(details.latitude, details.longitude) ?? null;
    if (!at) return (await fromSensors(set)) ?? none('noPosition');
    try {
      const entry = await observe(at.lat, at.lon, refresh);
      return answer('provider', entry.observation, entry.at);
    } catch (e) {
      if (e instanceof WeatherError) throw weatherError(e);
      throw e;
    }
  }

  return {
    configured: provider !== null,
    forSet,

    async get(ctx: SessionContext, token: string, refresh: boolean): Promise<WeatherResponse> {
      if (!hasAnyPermission(ctx.grant.permissions, [Permission.gensetReport])) throw forbidden();
      const { set } = await opts.devices.resolve(ctx, token, 'view');
      return forSet(set, refresh);
    },
  };
}
export type WeatherService = ReturnType<typeof createWeatherService>;
