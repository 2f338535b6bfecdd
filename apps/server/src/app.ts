// Builds the server from its plugins; tests build it with their own configuration and use `inject`.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform } from 'fastify-type-provider-zod';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import formbody from '@fastify/formbody';
import { API_BASE, REQUEST_TIMEOUT_MS } from '@genset/protocol';
import type { Config } from './config.ts';
import { openDatabase, type OpenedDatabase } from './db/database.ts';
import { startPartitionMaintenance } from './db/partitions.ts';
import apiConventions from './plugins/api.ts';
import authPlugin from './plugins/auth.ts';
import accessPlugin from './plugins/access.ts';
import devicesPlugin from './plugins/devices.ts';
import protocolsPlugin from './plugins/protocols.ts';
import gensetsPlugin from './plugins/gensets.ts';
import historyPlugin from './plugins/history.ts';
import reportsPlugin from './plugins/reports.ts';
import brokerAuthPlugin from './plugins/broker-auth.ts';
import groupsPlugin from './plugins/groups.ts';
import redisPlugin from './plugins/redis.ts';
import limitsPlugin from './plugins/limits.ts';
import securityPlugin from './plugins/security.ts';
import metricsPlugin from './plugins/metrics.ts';
import healthPlugin from './plugins/health.ts';
import requestIdPlugin, { childLoggerFactory, genReqId, withRequestIds } from './plugins/request-id.ts';
import videoPlugin from './plugins/video.ts';
import notificationsPlugin from './plugins/notifications.ts';
import { repairNotice, transferNotice } from './modules/notifications/sources.ts';
import repairsPlugin from './plugins/repairs.ts';
import transfersPlugin from './plugins/transfers.ts';
import maintenancePlugin from './plugins/maintenance.ts';
import otaPlugin from './plugins/ota.ts';
import iotcardPlugin from './plugins/iotcard.ts';
import tracksPlugin from './plugins/tracks.ts';
import sitesPlugin from './plugins/sites.ts';
import rolesPlugin from './plugins/roles.ts';
import adminPlugin from './plugins/admin.ts';
import { createMembershipService } from './modules/users/memberships.ts';
import { createAuthService } from './modules/auth/service.ts';
import { createAccountService } from './modules/account/service.ts';
import { createCompanyService } from './modules/company/service.ts';
import { createHelpService } from './modules/help/service.ts';
import { createOutboxSender, type MessageSender } from './modules/sms/sender.ts';
import { createMessageService } from './modules/messages/service.ts';
import { smsProvidersFromConfig } from './modules/messages/providers.ts';
import { createMailDelivery } from './modules/messages/mail-delivery.ts';
import { createMailer } from './modules/messages/mail/mailer.ts';
import messagesPlugin from './plugins/messages.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { companyRoutes } from './modules/company/routes.ts';
import { helpRoutes } from './modules/help/routes.ts';
import { seedBase } from './seed/base.ts';
import { seedDemo } from './seed/demo.ts';
import { createAddressPolicy, type AddressPolicy, type HostResolver } from './lib/address-policy.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: OpenedDatabase;
    config: Config;
    /** Where requests made on a tenant's behalf (webhooks, cameras) may go. */
    outbound: AddressPolicy;
  }
}

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** PostgreSQL schema to use (tests run side by side, each in its own schema). */
  dbSchema?: string;
  sender?: MessageSender;
  /** First platform administrator when the database has none (DEMO=0 installations). */
  admin?: { account: string; password: string };
  /** Sees every route as it is added, with its schemas (the fuzz tests generate their requests from them). */
  onRoute?: (route: RouteOptions) => void;
  /** Resolves host names for outbound requests instead of DNS (tests). */
  resolveHost?: HostResolver;
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    // People at a terminal get readable lines; anything else (files, log collectors) gets JSON.
    logger: withRequestIds(
      opts.logger ??
        (process.stdout.isTTY
          ? {
              level: config.logLevel,
              transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } },
            }
          : { level: config.logLevel }),
    ),
    trustProxy: config.trustProxy,
    // a plugin that opens the database, the broker and the demo fleet may take more than Fastify's default ten
    // seconds on a busy small machine: that is slow, not broken
    pluginTimeout: 60_000,
    bodyLimit: config.bodyLimitBytes,
    // A request must arrive whole within this (slow senders hold no connection for ever) ...
    requestTimeout: config.requestTimeoutMs,
    // ... and a connection may stay silent while a call runs for as long as the console waits for an answer.
    connectionTimeout: REQUEST_TIMEOUT_MS + 5000,
    genReqId,
    childLoggerFactory,
  });
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  // Response schemas document the calls; envelopes of errors differ from them, so they are not enforced.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  void serializerCompiler;

  const database = await openDatabase(config.databaseUrl, {
    ...(opts.dbSchema ? { schema: opts.dbSchema } : {}),
    log: app.log,
  });
  app.decorate('database', database);
  app.decorate('config', config);
  app.decorate(
    'outbound',
    createAddressPolicy({
      resolve: opts.resolveHost,
      // the ports this server listens on: the configured and the actual HTTP port, the embedded broker's
      ownPorts: () => {
        const ports = [config.port, config.mqttPort];
        const address = app.server.address();
        if (address && typeof address === 'object') ports.push(address.port);
        if (app.hasDecorator('devices') && app.devices.transport.port) ports.push(app.devices.transport.port);
        return ports;
      },
    }),
  );
  app.addHook('onClose', async () => database.close());
  // PostgreSQL: month partitions ahead and retention, at start and daily.
  const partitions = startPartitionMaintenance({ database, retentionMonths: config.retentionMonths, log: app.log });
  await partitions.ready;
  app.addHook('onClose', async () => partitions.stop());

  if (config.demo) await seedDemo(database.db);
  else await seedBase(database.db, opts.admin);

  // Every message to a person (codes, notices, tests) goes through the dispatcher: limits, providers, the log.
  const messages = createMessageService({
    db: database.db,
    config,
    log: app.log,
    sms: smsProvidersFromConfig(config),
    ...(config.smtpUrl
      ? {
          mail: createMailDelivery({
            db: database.db,
            mailer: createMailer({
              smtpUrl: config.smtpUrl,
              from: config.smtpFrom,
              publicUrl: config.publicUrl,
              ...(config.dkim ? { dkim: config.dkim } : {}),
            }),
            signSecret: config.signSecret,
            publicUrl: config.publicUrl,
            uploadsDir: config.uploadsDir,
            codeMinutes: Math.round(config.smsCodeTtlMs / 60_000),
            lockMinutes: Math.ceil(config.authLockMs / 60_000),
          }),
        }
      : {}),
    outbox: opts.sender ?? createOutboxSender(config.outboxDir, app.log),
  });
  const sender: MessageSender = messages;
  const companies = createCompanyService({ db: database.db, config });
  const accounts = createAccountService({ db: database.db, companies });
  const auth = createAuthService({ db: database.db, config, sender, log: app.log });
  const memberships = createMembershipService({ db: database.db, ttlMs: config.sessionCacheMs });
  const help = createHelpService();

  await app.register(requestIdPlugin);
  await app.register(securityPlugin, { config });
  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Genset cloud console API',
        version: '1.0.0',
        description: 'All calls answer { code, msg, data }; see API.md.',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'X-Token' },
          sign: { type: 'apiKey', in: 'header', name: 'X-Sign' },
          time: { type: 'apiKey', in: 'header', name: 'X-Time' },
        },
      },
      security: [{ token: [], sign: [], time: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: `${API_BASE}/docs` });
  await app.register(apiConventions, { config });
  await app.register(redisPlugin, { config });
  await app.register(limitsPlugin, { config });
  await app.register(authPlugin, { auth, memberships });
  // Every /yewu route added from here on declares who may call it; the declaration is its first gate.
  await app.register(accessPlugin);

  await app.register(
    async (api) => {
      await api.register(authRoutes, { auth, accounts });
      await api.register(companyRoutes, { companies });
      await api.register(helpRoutes, { help });
    },
    { prefix: API_BASE },
  );
  await app.register(devicesPlugin, { config, auth, accounts });
  await app.register(protocolsPlugin, { config });
  await app.register(gensetsPlugin, { auth });
  auth.onProfileChanged(() => app.gensets.directory.invalidate());
  await app.register(historyPlugin);
  await app.register(groupsPlugin);
  await app.register(reportsPlugin);
  await app.register(brokerAuthPlugin);
  await app.register(metricsPlugin, { config });
  await app.register(healthPlugin);
  await app.register(videoPlugin);
  await app.register(notificationsPlugin, { config, sender, messages });
  await app.register(messagesPlugin, { messages });
  // hand-overs and repair requests tell the people concerned
  await app.register(repairsPlugin, {
    onEvent: async (event) => app.notifications.notify(await repairNotice(database.db, event)),
  });
  await app.register(transfersPlugin, {
    auth,
    onEvent: async (event) => app.notifications.notify(await transferNotice(database.db, event)),
  });
  await app.register(maintenancePlugin);
  await app.register(otaPlugin);
  await app.register(iotcardPlugin);
  await app.register(tracksPlugin);
  await app.register(sitesPlugin);
  await app.register(rolesPlugin, { auth, memberships });
  await app.register(adminPlugin, { auth, memberships });

  await app.register(staticFiles);

  return app;
}

/**
 * Files: uploads, and the built console with its history-mode routes. A console's first visit fetches dozens of
 * files; their requests are logged only at warn and above (a failure), so the log keeps to what happens.
 */
async function staticFiles(scope: FastifyInstance) {
  const { config } = scope;
  mkdirSync(config.uploadsDir, { recursive: true });
  await scope.register(fastifyStatic, {
    root: config.uploadsDir,
    prefix: '/uploads/',
    logLevel: 'warn',
    // Repair pictures are only for those who may see their request: they go out through /baoxiu/picture.
    allowedPath: (path) => !/^\/*repairs(\/|$)/i.test(path),
    decorateReply: false,
    index: false,
    // An uploaded file opened on its own (an SVG logo) is a document with no rights: no script, no requests
    // out, no forms, a unique origin; its type is the one given, never guessed.
    setHeaders: (reply) => {
      reply.header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox");
      reply.header('x-content-type-options', 'nosniff');
    },
  });

  if (existsSync(join(config.webDist, 'index.html'))) {
    const root = resolve(config.webDist);
    const hashedAssets = join(root, 'assets', sep);
    await scope.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: true,
      logLevel: 'warn',
      // The build's files under /assets/ carry their content's hash in their names: a browser keeps them for a year
      // and never asks again (a new build names new files); everything else is asked for again each time.
      setHeaders: (reply, path) => {
        if (path.startsWith(hashedAssets)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    // History-mode routing: any other GET that is not an API call or a file is a console route.
    scope.get('/*', { logLevel: 'warn' }, (req, reply) => {
      const path = req.url.split('?')[0] ?? '/';
      if (path.startsWith(`${API_BASE}/`) || path.startsWith('/uploads/') || /\.[a-z0-9]{1,8}$/i.test(path)) {
        return reply.status(404).send({ code: 404, msg: 'Not found', data: null });
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    });
  } else {
    scope.log.warn({ webDist: config.webDist }, 'console not built: run `npm run build` to serve it');
  }
}
