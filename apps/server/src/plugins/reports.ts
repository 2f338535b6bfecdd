// Set reports and the weather of a set's place: read-only over what ingestion stored, plus the saved reports.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import { createHistoryService } from '../modules/history/service.ts';
import { createReportExport } from '../modules/reports/export.ts';
import { reportFonts } from '../modules/reports/fonts.ts';
import { createReportRepository } from '../modules/reports/repository.ts';
import { reportRoutes } from '../modules/reports/routes.ts';
import { createReportService } from '../modules/reports/service.ts';
import { createOpenWeatherMap } from '../modules/weather/openweathermap.ts';
import { weatherRoutes } from '../modules/weather/routes.ts';
import { createWeatherService } from '../modules/weather/service.ts';

export default fp(
  async function reports(app: FastifyInstance) {
    const { db, kind } = app.database;
    const { config } = app;
    const devices = app.devices;
    const weather = createWeatherService({
      db,
      devices: devices.service,
      protocols: devices.protocols,
      provider: config.weatherUrl ? createOpenWeatherMap({ url: config.weatherUrl, key: config.weatherKey }) : null,
      cacheMs: config.weatherCacheMs,
    });
    // The same reading of the stored history as the history pages, so that a report says what they say.
    const history = createHistoryService({
      db,
      kind,
      devices: devices.service,
      protocols: devices.protocols,
      scope: devices.fleet.scope,
    });
    const reports = createReportService({
      db,
      devices: devices.service,
      protocols: devices.protocols,
      history,
      weather,
      repository: createReportRepository(db),
    });
    const exportReport = createReportExport({ reports, fonts: () => reportFonts(config.reportFonts, app.log) });
    await app.register(reportRoutes, { prefix: API_BASE, reports, exportReport });
    await app.register(weatherRoutes, { prefix: API_BASE, weather });
  },
  { name: 'reports', dependencies: ['devices'] },
);
