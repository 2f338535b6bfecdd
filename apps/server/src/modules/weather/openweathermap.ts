// The current weather from an OpenWeatherMap-compatible service: GET <WEATHER_URL>?lat=…&lon=…&appid=<WEATHER_KEY>
// answers {main: {temp (K), pressure (hPa), humidity (%)}, dt (s)} — the service's standard units, Kelvin.
import { WeatherError, type WeatherProvider } from './provider.ts';

/** How long one question to the service may take before it counts as unreachable. */
export const WEATHER_TIMEOUT_MS = 5000;

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function createOpenWeatherMap(opts: { url: string; key: string; timeoutMs?: number }): WeatherProvider {
  return {
    async current(lat, lon) {
      const url = new URL(opts.url);
      url.searchParams.set('lat', String(lat));
      url.searchParams.set('lon', String(lon));
      if (opts.key) url.searchParams.set('appid', opts.key);
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(opts.timeoutMs ?? WEATHER_TIMEOUT_MS),
        });
      } catch {
        throw new WeatherError('unreachable');
      }
      if (!response.ok) {
        await response.body?.cancel();
        // A wrong key or address is refused; a failing service is as good as unreachable.
        throw new WeatherError(response.status >= 500 ? 'unreachable' : 'refused', response.status);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new WeatherError('unreadable');
      }
      const main = (body as { main?: Record<string, unknown> } | null)?.main;
      const tempK = finite(main?.temp);
      // Below absolute zero or hotter than any weather: not Kelvin.
      if (tempK === null || tempK <= 0 || tempK > 400) throw new WeatherError('unreadable');
      const dt = finite((body as { dt?: unknown }).dt);
      return {
        tempK,
        pressureHpa: finite(main?.pressure),
        humidityPct: finite(main?.humidity),
        observedAt: dt === null ? null : dt * 1000,
      };
    },
  };
}
