// What a weather service gives: the current weather at a place. The console shows it in a set's top bar and a
// report's header takes it; any service that answers the same way can stand behind this interface.

export interface WeatherObservation {
  /** Air temperature in Kelvin. */
  tempK: number;
  /** Pressure at sea level in hPa, when the service gives it. */
  pressureHpa: number | null;
  /** Relative humidity in %, when the service gives it. */
  humidityPct: number | null;
  /** When the service observed it (epoch ms), when it says. */
  observedAt: number | null;
}

export interface WeatherProvider {
  /** The current weather at latitude/longitude (degrees); throws a WeatherError when it cannot answer. */
  current(lat: number, lon: number): Promise<WeatherObservation>;
}

/** Why the weather service gave no weather: each is told to the user in their language. */
export type WeatherFailure = 'unreachable' | 'refused' | 'unreadable';

export class WeatherError extends Error {
  constructor(
    readonly failure: WeatherFailure,
    readonly status?: number,
  ) {
    super(`weather service ${failure}${status ? ` (HTTP ${status})` : ''}`);
  }
}
