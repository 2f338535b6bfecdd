// Starts a listening server from configuration: used by main.ts and by browser tests and the demo.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from './config.ts';
import { buildApp, type BuildOptions } from './app.ts';

export interface StartOverrides {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  demo?: boolean;
  webDist?: string;
  logLevel?: string;
  env?: Record<string, string | undefined>;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  close(): Promise<void>;
}

export async function startServer(
  overrides: StartOverrides = {},
  build: Partial<BuildOptions> = {},
): Promise<RunningServer> {
  const env: Record<string, string | undefined> = { ...process.env, ...overrides.env };
  if (overrides.port !== undefined) env.PORT = String(overrides.port);
  if (overrides.host !== undefined) env.HOST = overrides.host;
  if (overrides.dataDir !== undefined) env.DATA_DIR = overrides.dataDir;
  if (overrides.databaseUrl !== undefined) env.DATABASE_URL = overrides.databaseUrl;
  if (overrides.demo !== undefined) env.DEMO = overrides.demo ? '1' : '0';
  if (overrides.webDist !== undefined) env.WEB_DIST = overrides.webDist;
  if (overrides.logLevel !== undefined) env.LOG_LEVEL = overrides.logLevel;
  const config = loadConfig(env);
  const app = await buildApp({ config, ...build });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://127.0.0.1:${port}`;
  return { app, url, config, close: () => app.close() };
}
