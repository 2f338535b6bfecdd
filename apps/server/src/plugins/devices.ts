// The device side of the server as one plugin: the MQTT broker (embedded), ingestion, poll plans,
// commands, the realtime WebSocket and the monitoring calls. Closes its broker and timers on shutdown.
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { Config } from '../config.ts';
import type { AuthService } from '../modules/auth/service.ts';
import type { AccountService } from '../modules/account/service.ts';
import { startEmbeddedBroker } from '../modules/devices/embedded-broker.ts';
import { createProtocolStore, seedProtocols, type ProtocolStore } from '../modules/devices/protocols.ts';
import { createLocalBus, type RealtimeBus } from '../modules/devices/bus.ts';
import { createIngest, type Ingest } from '../modules/devices/ingest.ts';
import { createPlanner, type Planner } from '../modules/devices/plans.ts';
import { createCommandDispatcher, type CommandDispatcher } from '../modules/devices/commands.ts';
import { createFleet, type Fleet } from '../modules/devices/fleet.ts';
import { createDeviceService, type DeviceService } from '../modules/devices/service.ts';
import { realtimeRoutes } from '../modules/devices/realtime.ts';
import { deviceRoutes } from '../modules/devices/routes.ts';
import type { DeviceTransport } from '../modules/devices/transport.ts';
import { startDemoFleet } from '../modules/devices/demo-fleet.ts';
import type { RunningGensetSimulator } from '@genset/simulator';

export interface DevicesHandle {
  transport: DeviceTransport;
  protocols: ProtocolStore;
  bus: RealtimeBus;
  ingest: Ingest;
  planner: Planner;
  commands: CommandDispatcher;
  fleet: Fleet;
  service: DeviceService;
  /** The demo fleet's simulated controllers (none outside demo mode), for a control API in tests and demos. */
  demoSimulators: readonly RunningGensetSimulator[];
}

declare module 'fastify' {
  interface FastifyInstance {
    devices: DevicesHandle;
  }
}

export default fp(
  async function devices(app: FastifyInstance, opts: { config: Config; auth: AuthService; accounts: AccountService }) {
    const { config } = opts;
    const db = app.database.db;
    await seedProtocols(db);
    const protocols = createProtocolStore(db);
    const transport = await startEmbeddedBroker({ db, port: config.mqttPort, host: config.mqttHost, log: app.log });
    const bus = createLocalBus();
    const fleet = createFleet(db);
    const planner = createPlanner({
      db,
      transport,
      protocols,
      log: app.log,
      onlineRateMs: config.onlineRateMs,
      offlineRateMs: config.offlineRateMs,
    });
    const commands = createCommandDispatcher({ db, transport, log: app.log });
    const ingest = createIngest({
      db,
      transport,
      protocols,
      bus,
      log: app.log,
      expectedPeriodMs: planner.expectedPeriodMs,
      persistMs: config.ingestPersistMs,
      queueLimit: config.ingestQueueLimit,
      onHello: (modemKey) =>
        void planner.publishPlan(modemKey).catch((err: unknown) => app.log.warn({ err }, 'plan not sent')),
      onReply: (modemKey, payload) => commands.receive(modemKey, payload),
    });
    const service = createDeviceService({
      db,
      fleet,
      accounts: opts.accounts,
      protocols,
      commands,
      transport,
      commandTimeoutMs: config.commandTimeoutMs,
      live: (gensetId) => ingest.latestRow(gensetId),
    });
    const handle: DevicesHandle = {
      transport,
      protocols,
      bus,
      ingest,
      planner,
      commands,
      fleet,
      service,
      demoSimulators: [],
    };
    app.decorate('devices', handle);

    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    await app.register(realtimeRoutes, {
      auth: opts.auth,
      accounts: opts.accounts,
      fleet,
      planner,
      bus,
      snapshot: service.snapshot,
    });
    await app.register(deviceRoutes, { prefix: API_BASE, devices: service, auth: opts.auth });

    const demoFleet =
      config.demo && config.demoFleet && transport.port !== undefined
        ? await startDemoFleet({
            db,
            fleet,
            brokerPort: transport.port,
            dataDir: config.dataDir,
            signSecret: config.signSecret,
            log: app.log,
            invalidate: () => ingest.invalidate(),
          })
        : null;
    handle.demoSimulators = demoFleet?.simulators ?? [];

    // preClose runs before the database closes (onClose): the demo modules say goodbye to a live broker and
    // everything already received is stored.
    app.addHook('preClose', async () => {
      await demoFleet?.close();
      await ingest.close();
      await transport.close();
      await bus.close();
    });
  },
  { name: 'devices', dependencies: ['auth'] },
);
