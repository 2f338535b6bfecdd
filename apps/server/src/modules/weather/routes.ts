// HTTP of the weather at a set's place (spec 7: GET /getWeather with a query).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { weatherRequest, weatherResponse, Permission } from '@genset/protocol';
import { envelope } from '../../lib/envelope.ts';
import type { WeatherService } from './service.ts';

export async function weatherRoutes(app: FastifyInstance, opts: { weather: WeatherService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/getWeather', {
    schema: {
      tags: ['reports'],
      summary:
        'Current weather at a set’s place (temp in Kelvin, °C with two decimals, hPa, %): the weather service, else the set’s ambient sensors; needs genset:report',
      querystring: weatherRequest,
      response: { 200: envelope(weatherResponse) },
    },
    config: { access: { permission: Permission.gensetReport, scope: 'set' } },
    handler: async (req, reply) =>
      reply.ok(await opts.weather.get(req.session!, req.query.token, req.query.refresh === '1')),
  });
}
