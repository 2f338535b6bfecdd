// The weather at a set's place: an OpenWeatherMap-compatible service (a local HTTP server answering in its shape)
// asked by the set's position, Kelvin given as °C with two decimals, kept per place for a while; no service
// configured, no position and an unreachable service each answer plainly.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutS, type ProtocolDocument } from '@genset/protocol';
import { call, createTestApp, login } from './helpers.ts';
import { encodeBlocks } from './support/encode.ts';
import { connectFakeModule } from './support/fake-module.ts';
import { newSet, RUNNING } from './support/history-data.ts';

let weather: Server;
let weatherUrl: string;
const asked: URLSearchParams[] = [];

beforeAll(async () => {
  weather = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    asked.push(url.searchParams);
    if (url.searchParams.get('appid') !== 'test-key') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"cod":401,"message":"Invalid API key"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        coord: { lon: Number(url.searchParams.get('lon')), lat: Number(url.searchParams.get('lat')) },
        main: { temp: 293.157, feels_like: 292.5, pressure: 1013, humidity: 55 },
        dt: 1_700_000_000,
        name: 'Test place',
      }),
    );
  });
  await new Promise<void>((resolve) => weather.listen(0, '127.0.0.1', resolve));
  weatherUrl = `http://127.0.0.1:${(weather.address() as AddressInfo).port}/data/2.5/weather`;
});
afterAll(async () => new Promise<void>((resolve) => weather.close(() => resolve())));

async function appWith(env: Record<string, string>) {
  const t = await createTestApp(env);
  const manager = await login(t.app, 'manager@example.com', 'Demo#2026');
  const companyId = (await call(t.app, 'GET', '/user/info', { token: manager })).data.info.companyId as number;
  const placed = await newSet(t, { companyId, details: { latitude: 41.0082, longitude: 28.9784 } });
  const unplaced = await newSet(t, { companyId });
  return { t, manager, placed, unplaced };
}

describe('with a weather service', () => {
  let ctx: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => {
    ctx = await appWith({ WEATHER_URL: weatherUrl, WEATHER_KEY: 'test-key' });
  });
  afterAll(async () => ctx.t.close());

  it('asks by the set’s position and gives Kelvin, °C with two decimals, hPa and %', async () => {
    const res = await call(ctx.t.app, 'GET', '/getWeather', { token: ctx.manager, query: { token: ctx.placed.token } });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({
      state: 'ok',
      source: 'provider',
      temp: 293.157,
      celsius: 20.01,
      pressure: 1013,
      humidity: 55,
      observedAt: 1_700_000_000_000,
    });
    const q = asked.at(-1)!;
    expect([q.get('lat'), q.get('lon'), q.get('appid')]).toEqual(['41.01', '28.98', 'test-key']);
  });

  it('answers again from what it keeps; a sync asks anew only when that is over a minute old', async () => {
    const before = asked.length;
    await call(ctx.t.app, 'GET', '/getWeather', { token: ctx.manager, query: { token: ctx.placed.token } });
    await call(ctx.t.app, 'GET', '/getWeather', {
      token: ctx.manager,
      query: { token: ctx.placed.token, refresh: '1' },
    });
    expect(asked.length).toBe(before);
  });

  it('a set without a position has no weather to ask for', async () => {
    const res = await call(ctx.t.app, 'GET', '/getWeather', {
      token: ctx.manager,
      query: { token: ctx.unplaced.token },
    });
    expect(res.data).toMatchObject({ state: 'noPosition', celsius: null });
  });

  it('a prefilled report takes the weather into its header', async () => {
    const res = await call(ctx.t.app, 'POST', '/data/dieselGeneratorReport', {
      token: ctx.manager,
      body: { token: ctx.placed.token, from: '2026-01-01', to: '2026-01-31' },
    });
    expect(res.code).toBe(200);
    expect(res.data.form).toMatchObject({ one3: 20.01, one4: 1013, two1: 55 });
  });
});

describe('without a weather service, or with one that fails', () => {
  it('says the weather is not configured (the seed layouts have no ambient sensors)', async () => {
    const ctx = await appWith({});
    try {
      const res = await call(ctx.t.app, 'GET', '/getWeather', {
        token: ctx.manager,
        query: { token: ctx.placed.token },
      });
      expect(res.code).toBe(200);
      expect(res.data).toMatchObject({ state: 'notConfigured', source: null, temp: null, celsius: null });
    } finally {
      await ctx.t.close();
    }
  });

  it('takes the set’s own ambient sensors when its protocol has them', async () => {
    const ctx = await appWith({});
    try {
      const admin = await login(ctx.t.app, 'admin@example.com', 'Admin#2026');
      const text = (en: string) => ({
        'en-US': en,
        'zh-CN': `${en} (zh-CN)`,
        'zh-TW': `${en} (zh-TW)`,
        'ru-RU': `${en} (ru)`,
        'es-ES': `${en} (es)`,
        'tr-TR': `${en} (tr)`,
      });
      const doc: ProtocolDocument = {
        ...structuredClone(layoutS),
        key: 'genset-with-weather',
        version: 1,
        items: [
          ...structuredClone(layoutS.items),
          { ...sensor('ambient_temp', 60, '°C', 0.1), type: 's16', name: text('Ambient temperature') },
          { ...sensor('ambient_humidity', 61, '%', 1), name: text('Ambient humidity') },
          { ...sensor('ambient_pressure', 62, 'kPa', 0.1), name: text('Ambient pressure') },
        ],
      };
      const added = await call(ctx.t.app, 'POST', '/protocol/add', { token: admin, body: { document: doc } });
      expect(added.code, added.msg).toBe(200);
      const published = await call(ctx.t.app, 'POST', '/protocol/publish', {
        token: admin,
        body: { id: added.data.id },
      });
      expect(published.code, published.msg).toBe(200);
      const companyId = (await call(ctx.t.app, 'GET', '/user/info', { token: ctx.manager })).data.info.companyId;
      const modemKey = `WX${Date.now()}`;
      const modem = await ctx.t.app.devices.fleet.createModem({ companyId, modemKey });
      const set = await ctx.t.app.devices.fleet.createGenset({
        companyId,
        ownerUserId: null,
        name: 'Set with a weather station',
        modemId: modem.id,
        protocolKey: doc.key,
      });
      ctx.t.app.devices.ingest.invalidate();
      await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
      const module = await connectFakeModule(
        `mqtt://127.0.0.1:${ctx.t.app.devices.transport.port}`,
        modemKey,
        modem.secret,
      );
      const values = { ...RUNNING, ambient_temp: 18.4, ambient_humidity: 61, ambient_pressure: 101.2 };
      await module.publish('data', {
        seq: 1,
        ts: Date.now(),
        port: 'port1',
        address: 1,
        blocks: encodeBlocks(doc, values),
      });
      await module.waitFor('ack', (a: { upTo: number }) => a.upTo >= 1);
      await ctx.t.app.devices.ingest.flush();
      await module.close();

      const res = await call(ctx.t.app, 'GET', '/getWeather', { token: ctx.manager, query: { token: set.token } });
      expect(res.code).toBe(200);
      expect(res.data).toMatchObject({ state: 'ok', source: 'sensors', celsius: 18.4, humidity: 61, pressure: 1012 });
      expect(res.data.temp).toBeCloseTo(291.55, 6);
    } finally {
      await ctx.t.close();
    }
  });

  it('an unreachable service gives a clear message in the user’s language; a report is still prefilled', async () => {
    // A port that was free a moment ago: nothing answers there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const ctx = await appWith({ WEATHER_URL: `http://127.0.0.1:${port}/weather`, WEATHER_KEY: 'k' });
    try {
      const res = await call(ctx.t.app, 'GET', '/getWeather', {
        token: ctx.manager,
        query: { token: ctx.placed.token },
      });
      expect(res.code).toBe(502);
      expect(res.msg).toBe('The weather service could not be reached. Try again later.');
      const ru = await call(ctx.t.app, 'GET', '/getWeather', {
        token: ctx.manager,
        lang: 'ru-RU',
        query: { token: ctx.placed.token },
      });
      expect(ru.msg).toBe('Не удалось связаться с сервисом погоды. Повторите попытку позже.');
      const report = await call(ctx.t.app, 'POST', '/data/dieselGeneratorReport', {
        token: ctx.manager,
        body: { token: ctx.placed.token, from: '2026-01-01', to: '2026-01-31' },
      });
      expect(report.code).toBe(200);
      expect(report.data.form.one3).toBeNull();
      expect(report.data.weatherError).toBe(res.msg);
    } finally {
      await ctx.t.close();
    }
  });

  it('a wrong key is refused by the service, and said so', async () => {
    const ctx = await appWith({ WEATHER_URL: weatherUrl, WEATHER_KEY: 'wrong' });
    try {
      const res = await call(ctx.t.app, 'GET', '/getWeather', {
        token: ctx.manager,
        query: { token: ctx.placed.token },
      });
      expect(res.code).toBe(502);
      expect(res.msg).toContain('HTTP 401');
    } finally {
      await ctx.t.close();
    }
  });
});

/** A holding-register item of the engine group. */
function sensor(key: string, address: number, unit: string, scale: number): ProtocolDocument['items'][number] {
  return {
    key,
    name: { 'en-US': key, 'zh-CN': key, 'zh-TW': key, 'ru-RU': key, 'es-ES': key, 'tr-TR': key },
    fc: 3,
    address,
    type: 'u16',
    scale,
    offset: 0,
    unit,
    decimals: scale < 1 ? 1 : 0,
    noData: [],
    group: 'engine',
    realtime: false,
  };
}
