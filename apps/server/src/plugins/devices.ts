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
import { createIngest, type Ingest } from '../modules/devices/ingest/index.ts';
import { createPlanner, type Planner } from '../modules/devices/plans.ts';
import { createCommandDispatcher, type CommandDispatcher } from '../modules/devices/commands.ts';
import { createFleet, type Fleet } from '../modules/devices/fleet.ts';
import { createDataScope } from '../modules/account/scope.ts';
import { createDeviceService, type DeviceService } from '../modules/devices/service.ts';
import { realtimeRoutes, type StationWatch } from '../modules/devices/realtime.ts';
import { deviceRoutes } from '../modules/devices/routes.ts';
import type { DeviceTransport, ModemMessageHandler } from '../modules/devices/transport.ts';
import type { ModemChannel } from '@genset/protocol';
import { connectMqttClientTransport } from '../modules/devices/mqtt-client-transport.ts';
import { ownerOf, startCluster, type Cluster } from '../modules/devices/cluster.ts';
import { createGroupRepository } from '../modules/groups/repository.ts';
import { watchAcks, type AckWatch } from '../modules/devices/ack-watch.ts';
import type { RunningGensetSimulator } from '@genset/simulator';
import { createServiceHealth, type ServiceHealth } from '../modules/devices/service-health.ts';

export interface DevicesHandle {
  transport: DeviceTransport;
  protocols: ProtocolStore;
  bus: RealtimeBus;
  ingest: Ingest;
  planner: Planner;
  commands: CommandDispatcher;
  fleet: Fleet;
  service: DeviceService;
  /** Snapshots waiting for their ack and how long they waited. */
  acks: AckWatch;
  /** The demo fleet's simulated controllers (none outside demo mode), for a control API in tests and demos. */
  demoSimulators: readonly RunningGensetSimulator[];
  /** Settles once the demo sets' backfilled past is stored (at once without a demo fleet or a past to make). */
  demoBackfilled: Promise<void>;
  /** What the server cannot reach now (kept by the readiness watch), told to every open console. */
  health: ServiceHealth;
  /** Stations for the realtime channel (set by the stations' plugin). */
  stations?: StationWatch;
  /** Closed first when the server stops, while ingestion and the broker still run (the demo's stations). */
  closeFirst: (() => Promise<void>)[];
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
    const transport: DeviceTransport = config.mqttUrl
      ? await connectMqttClientTransport({
          url: config.mqttUrl,
          username: config.mqttUsername,
          password: config.mqttPassword,
          group: config.mqttShareGroup,
          clientId: `console-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
          log: app.log,
        })
      : await startEmbeddedBroker({ db, port: config.mqttPort, host: config.mqttHost, log: app.log });
    const cluster = config.redisUrl
      ? await startCluster({
          redisUrl: config.redisUrl,
          namespace: config.redisNamespace,
          ...(config.instanceId ? { instanceId: config.instanceId } : {}),
          log: app.log,
        })
      : null;
    if (cluster) app.log.info({ instanceId: cluster.instanceId }, `instance ${cluster.instanceId} joined the cluster`);
    const bus = cluster ? cluster.bus : createLocalBus();
    // With several instances, module messages go through the cluster's router: a module's messages are
    // ingested by the instance that owns it; replies reach every instance.
    // What ingestion receives and acks is followed from outside it, for the metrics (queue, ack lag).
    const acks = watchAcks(cluster ? routeThroughCluster(transport, cluster) : transport);
    const ingestTransport: DeviceTransport = acks.transport;
    // What roles reach, one answer for every module; changes made on another instance are heard on the bus.
    const scope = createDataScope({ db });
    scope.connect(bus);
    app.addHook('onClose', async () => scope.close());
    const fleet = createFleet(db, scope);
    const planner = createPlanner({
      db,
      transport,
      protocols,
      log: app.log,
      onlineRateMs: config.onlineRateMs,
      offlineRateMs: config.offlineRateMs,
      ...(cluster ? { shared: { bus, instanceId: cluster.instanceId } } : {}),
    });
    const commands = createCommandDispatcher({ db, transport, log: app.log });
    const ingest = createIngest({
      db,
      transport: ingestTransport,
      cluster: cluster !== null,
      protocols,
      bus,
      log: app.log,
      expectedPeriodMs: planner.expectedPeriodMs,
      persistMs: config.ingestPersistMs,
      queueLimit: config.ingestQueueLimit,
      gapWaitMs: config.ingestGapWaitMs,
      setCache: config.ingestSetCache,
      onHello: (modemKey) =>
        void planner.publishPlan(modemKey).catch((err: unknown) => app.log.warn({ err }, 'plan not sent')),
      onReply: (modemKey, payload) => commands.receive(modemKey, payload),
    });
    cluster?.onReply((modemKey, payload) => {
      try {
        commands.receive(modemKey, JSON.parse(payload.toString('utf8')));
      } catch (err) {
        app.log.warn({ err, modem: modemKey }, 'unreadable reply');
      }
    });
    cluster?.onMembersChanged(() => {
      planner.announce();
      const view = cluster.members();
      const keeps = (modemKey: string) => ownerOf(view, modemKey) === cluster.instanceId;
      acks.keepOnly(keeps);
      void ingest
        .handOver(keeps)
        .catch((err: unknown) => app.log.error({ err }, 'hand-over failed'))
        // what it held is written (or, failing that, will be taken up from the samples by the new owner)
        .finally(() => {
          if (cluster.members().join() === view.join()) cluster.settle(view);
        });
    });
    // holding nothing yet: the modules the members give this instance are its own once the others let go
    cluster?.settle(cluster.members());
    const service = createDeviceService({
      db,
      fleet,
      protocols,
      commands,
      transport,
      commandTimeoutMs: config.commandTimeoutMs,
      live: (gensetId) => ingest.latestRow(gensetId),
    });
    const health = createServiceHealth();
    const handle: DevicesHandle = {
      transport,
      protocols,
      bus,
      ingest,
      planner,
      commands,
      fleet,
      service,
      acks,
      demoSimulators: [],
      demoBackfilled: Promise.resolve(),
      health,
      closeFirst: [],
    };
    app.decorate('devices', handle);

    await app.register(websocket, {
      options: { maxPayload: 64 * 1024 },
      // A client that breaks the protocol (a frame over the size limit, text that is not UTF-8) has already been
      // sent the close code that says so: its fault, logged as such rather than as an error of the server.
      errorHandler: (err, socket, req) => {
        const code = (err as Error & { code?: unknown }).code;
        const clientFault = typeof code === 'string' && code.startsWith('WS_ERR_');
        if (clientFault) req.log.info({ err }, 'websocket closed: the client broke the protocol');
        else req.log.error({ err }, 'websocket failed');
        socket.terminate();
      },
    });
    await app.register(realtimeRoutes, {
      health,
      auth: opts.auth,
      accounts: opts.accounts,
      fleet,
      planner,
      bus,
      snapshot: service.snapshot,
      groupMembers: createGroupRepository(db).memberSets,
      stations: () => handle.stations,
    });
    await app.register(deviceRoutes, { prefix: API_BASE, devices: service, auth: opts.auth });

    const demoFleet =
      config.demo && config.demoFleet && transport.port !== undefined
        ? await (
            await import('../modules/devices/demo-fleet.ts')
          ).startDemoFleet({
            db,
            fleet,
            brokerPort: transport.port,
            dataDir: config.dataDir,
            log: app.log,
            invalidate: () => ingest.invalidate(),
            ingest,
            backfillDays: config.demoBackfillDays,
          })
        : null;
    handle.demoSimulators = demoFleet?.simulators ?? [];
    handle.demoBackfilled = demoFleet?.backfilled ?? Promise.resolve();

    // preClose runs before the database closes (onClose): the demo modules say goodbye to a live broker and
    // everything already received is stored.
    app.addHook('preClose', async () => {
      await Promise.allSettled(handle.closeFirst.map((close) => close()));
      await demoFleet?.close();
      planner.close();
      await ingest.close();
      acks.close();
      await transport.close();
      await bus.close();
      await cluster?.close();
    });
  },
  { name: 'devices', dependencies: ['auth'] },
);

/**
 * The transport as ingestion sees it with several instances: a module's message goes to ingestion here if
 * this instance owns the module, else to its owner through Redis; replies go to every instance's dispatcher.
 */
/** Messages held for modules about to move to this instance, at most (a hand-over takes a poll or two). */
const HELD_LIMIT = 100_000;

function routeThroughCluster(transport: DeviceTransport, cluster: Cluster): DeviceTransport {
  const handlers: ModemMessageHandler[] = [];
  const deliver = (modemKey: string, channel: ModemChannel, payload: Buffer) => {
    let wait: Promise<void> | undefined;
    for (const h of handlers) wait = h(modemKey, channel, payload) ?? wait;
    return wait;
  };
  // Messages of modules this instance is about to own, held until their old owner has let go (in order).
  const held = new Map<string, [ModemChannel, Buffer][]>();
  let heldCount = 0;
  const route = (modemKey: string, channel: ModemChannel, payload: Buffer, forwarded: boolean) => {
    if (cluster.owns(modemKey)) return deliver(modemKey, channel, payload);
    if (cluster.assigned(modemKey)) {
      // beyond the limit they are not held: a module sends its unacked snapshots again
      if (heldCount >= HELD_LIMIT) return;
      let list = held.get(modemKey);
      if (!list) held.set(modemKey, (list = []));
      list.push([channel, payload]);
      heldCount++;
      return;
    }
    // passed on once: two instances that still disagree on the members do not pass a message back and forth
    if (!forwarded) cluster.forward(modemKey, channel, payload);
  };
  transport.onMessage((modemKey, channel, payload) => {
    if (channel === 'reply') return cluster.broadcastReply(modemKey, payload);
    return route(modemKey, channel, payload, false);
  });
  cluster.onForwarded((modemKey, channel, payload) => void route(modemKey, channel, payload, true));
  cluster.onOwnership(() => {
    for (const [modemKey, list] of held) {
      if (cluster.owns(modemKey)) {
        for (const [channel, payload] of list) void deliver(modemKey, channel, payload);
      } else if (!cluster.assigned(modemKey)) {
        for (const [channel, payload] of list) cluster.forward(modemKey, channel, payload);
      } else continue;
      held.delete(modemKey);
      heldCount -= list.length;
    }
  });
  return {
    get port() {
      return transport.port;
    },
    onMessage: (handler) => void handlers.push(handler),
    publish: (modemKey, channel, payload, options) => transport.publish(modemKey, channel, payload, options),
    connected: (modemKey) => transport.connected(modemKey),
    close: () => transport.close(),
  };
}
