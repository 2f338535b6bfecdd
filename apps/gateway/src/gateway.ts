// The cloud module: announces itself, polls its controllers as the cloud's plan says, stores every data message
// in the outbox and forwards it until acked, sends telemetry events, and carries out the cloud's requests.
import { join } from 'node:path';
import {
  encodeModemPayload,
  modemTopic,
  parseModemPayload,
  parseTopic,
  type EmsStatus,
  type ModemChannel,
  type ModemEvent,
  type ModemHello,
  type ModemPlan,
  type ModemReply,
  type ModemRequest,
} from '@genset/protocol';
import { BrokerConnection } from './broker-connection.ts';
import { parseGatewayConfig, portNames, type GatewayConfig, type GatewayConfigInput } from './config.ts';
import { ControllerPoller, readBlocks, truncate, type ControllerStatus, type Snapshot } from './controller-poller.ts';
import { consoleLogger, errorText, type GatewayLogger } from './logger.ts';
import { ModbusLink } from './modbus-link.ts';
import { Outbox } from './outbox.ts';
import { OtaAgent, type OtaStats } from './ota.ts';
import { readControllerVersion, writeControllerFirmware } from './controller-firmware.ts';
import { EmsCycle } from './ems/ems-cycle.ts';
import { EmsStore } from './ems/ems-store.ts';

export interface GatewayOptions {
  logger?: GatewayLogger;
  /** Signal strength from the modem, when the module has one to ask. */
  readSignal?: () => Promise<ModemEvent['signal']> | ModemEvent['signal'];
  /** A GPS fix from the module's receiver; otherwise the configured fixed position, if any. */
  readGps?: () => Promise<ModemEvent['gps']> | ModemEvent['gps'];
  /** The module's own inputs, reported in each event. */
  readInputs?: () => Promise<ModemEvent['inputs']> | ModemEvent['inputs'];
  /**
   * A module with a GPS receiver reads it this often (default 5 s) and reports at once, between its periodic
   * events, when it has moved `moveReportM` (default 50 m) since the fix it last reported: a trailer on the
   * road draws its track, a standing set costs nothing more.
   */
  gpsWatchMs?: number;
  moveReportM?: number;
  /** A storage station's EMS cycle, run from the tactic the cloud sends (any module takes one). */
  ems?: {
    /**
     * The station's clock for tariff periods (default: the real one): a site simulated faster than real time
     * passes its own. Meter staleness and demand-response events keep real time.
     */
    clock?: () => number;
    /** A station's module: reports its EMS (version 0, safe: noTactic) even before a tactic arrives. */
    station?: boolean;
  };
}

export interface GatewayStats {
  modemId: string;
  mqttConnected: boolean;
  /** Broker connections established since start. */
  mqttConnections: number;
  /** Highest data seq given out (persisted across restarts). */
  lastSeq: number;
  /** Data messages stored and not yet acked by the cloud. */
  outboxSize: number;
  /** Data messages dropped unacked because the outbox was full. */
  outboxDropped: number;
  /** Data publishes acknowledged by the broker, resends included. */
  dataPublished: number;
  /** Highest seq the cloud acked since start. */
  ackedUpTo: number;
  /** Times the unacked data went again because no ack came within the ack timeout. */
  ackResends: number;
  eventsPublished: number;
  requestsHandled: number;
  rxBytes: number;
  txBytes: number;
  plan: ModemPlan | undefined;
  controllers: ControllerStatus[];
  /** The firmware version running now, and what firmware upgrades downloaded and did. */
  firmware: string;
  ota: OtaStats;
  /** The EMS: what it runs and decided last (undefined: no tactic, not a station's module). */
  ems: EmsStatus | undefined;
  /** EMS cycles run since start. */
  emsCycles: number;
}

export interface Gateway {
  readonly modemId: string;
  readonly stats: GatewayStats;
  /** Drops and re-establishes the MQTT and Modbus connections, as a `restart` request does. */
  restart(): Promise<void>;
  /** Stops polling, says 'offline', disconnects and closes the outbox. */
  close(): Promise<void>;
}

const META_PLAN = 'plan';
const META_SIM_RX = 'sim_rx_bytes';
const META_SIM_TX = 'sim_tx_bytes';
const REMEMBERED_REQUESTS = 256;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Starts a module; resolves once it runs (polling from a stored plan), whether or not the broker is reachable. */
export async function startGateway(input: GatewayConfigInput, options: GatewayOptions = {}): Promise<Gateway> {
  const config = parseGatewayConfig(input);
  const runtime = new GatewayRuntime(config, options);
  runtime.start();
  return runtime;
}

class GatewayRuntime implements Gateway {
  readonly modemId: string;
  private readonly logger: GatewayLogger;
  private readonly outbox: Outbox;
  private readonly broker: BrokerConnection;
  private readonly links = new Map<string, ModbusLink>();
  private readonly pollers: ControllerPoller[] = [];
  private plan: ModemPlan | undefined;
  private eventTimer: NodeJS.Timeout | undefined;
  /** The firmware each controller ("port/address") said it runs, once read. */
  private readonly controllerFirmware = new Map<string, string>();
  private gpsTimer: NodeJS.Timeout | undefined;
  /** The fix of the last event sent, and when it went. */
  private reportedFix: { lat: number; lon: number } | undefined;
  private lastEventAt = 0;
  private eventRateMs: number;
  private readonly startedAt = Date.now();
  private closed = false;
  // Outbox forwarding on the current connection; `generation` tells late PUBACKs of an old connection apart.
  private generation = 0;
  private cursor = 0;
  private inflight = 0;
  private dataPublished = 0;
  private ackedUpTo = 0;
  /** When the cloud last acked something new (or the connection came up): the clock of the ack timeout. */
  private ackProgressAt = Date.now();
  private ackTimer: NodeJS.Timeout | undefined;
  private resends = 0;
  private eventsPublished = 0;
  private requestsHandled = 0;
  private readonly simBase: { rx: number; tx: number };
  private readonly recentRequests = new Map<string, ModemReply | 'running'>();
  private readonly ota: OtaAgent;
  private readonly emsStore: EmsStore;
  private readonly ems: EmsCycle;

  constructor(
    private readonly config: GatewayConfig,
    private readonly options: GatewayOptions,
  ) {
    this.modemId = config.modemId;
    this.logger = options.logger ?? consoleLogger(config.modemId);
    this.eventRateMs = config.eventRateMs;
    const database = join(config.dataDir, `${config.modemId}.outbox.sqlite`);
    this.outbox = new Outbox(database, {
      maxMessages: config.outboxMaxMessages,
      logger: this.logger,
      seqsTakenUpTo: config.seqsTakenUpTo,
    });
    this.emsStore = new EmsStore(database);
    this.simBase = {
      rx: Number(this.outbox.getMeta(META_SIM_RX) ?? 0),
      tx: Number(this.outbox.getMeta(META_SIM_TX) ?? 0),
    };
    const names = portNames(config.ports);
    config.ports.forEach((port, index) => {
      const name = names[index]!;
      const link = new ModbusLink(name, port, {
        timeoutMs: config.modbusTimeoutMs,
        reconnect: config.modbusReconnect,
        logger: this.logger,
      });
      this.links.set(name, link);
      for (const controller of port.controllers) {
        const poller = new ControllerPoller(name, controller.address, link, config.fullSnapshotEvery, (snapshot) =>
          this.store(name, controller.address, snapshot),
        );
        this.pollers.push(poller);
      }
    });
    this.ems = new EmsCycle({
      links: this.links,
      store: this.emsStore,
      logger: this.logger,
      ...(options.ems?.clock ? { clock: options.ems.clock } : {}),
      station: options.ems?.station ?? false,
      // a new tactic version, a safe hold or its end, a demand response starting or ending: the cloud hears at once
      onChange: () => void this.publishEvent(),
    });
    this.ota = new OtaAgent({
      dataDir: config.dataDir,
      modemId: config.modemId,
      baseFirmware: config.firmware,
      rollbackMs: config.otaRollbackMs,
      attempts: config.otaDownloadAttempts,
      retry: config.otaDownloadRetry,
      logger: this.logger,
      reply: (reply) => this.reply(reply),
      reboot: () => (this.closed ? Promise.resolve() : this.restart()),
      writeController: async (port, address, image, onProgress) => {
        const link = this.links.get(port);
        if (!link?.hasController(address)) throw new Error(`no controller at ${port}/${address}`);
        const version = await writeControllerFirmware(link, address, image, { onProgress });
        this.controllerFirmware.set(`${port}/${address}`, version);
        // the cloud learns the controller's new version from the module's hello
        if (this.broker.connected) await this.publish('hello', this.hello()).catch(() => undefined);
        return version;
      },
    });
    this.broker = new BrokerConnection({
      url: config.brokerUrl,
      clientId: config.modemId,
      username: config.modemId,
      password: config.secret,
      will: { topic: this.topic('state'), payload: encodeModemPayload('state', 'offline') },
      keepaliveS: config.mqttKeepaliveS,
      reconnect: config.mqttReconnect,
      logger: this.logger,
      onConnect: () => void this.onConnect(),
      onDisconnect: () => this.onDisconnect(),
      onMessage: (topic, payload) => this.onMessage(topic, payload),
      cannotConnect: () => this.ota.cannotConnect(),
    });
  }

  start(): void {
    // The last plan keeps the module polling (and storing) through a reboot without the cloud.
    const stored = this.outbox.getMeta(META_PLAN);
    if (stored) {
      const parsed = parseModemPayload('plan', stored);
      if (parsed.ok) this.applyPlan(parsed.message);
    }
    // The stored tactic runs before the broker is even tried: the station never waits for the cloud.
    this.ems.start();
    this.scheduleEvents();
    this.ota.start();
    void this.learnControllerFirmware();
    this.ackTimer = setInterval(() => this.checkAcks(), Math.max(250, Math.floor(this.config.ackTimeoutMs / 4)));
    this.logger.info(
      `started: ${this.pollers.length} controller(s) on ${this.links.size} port(s), ` +
        `${this.outbox.size} unacked message(s) in the outbox, last seq ${this.outbox.lastSeq}`,
    );
    this.broker.start();
  }

  /**
   * Asks each controller which firmware it runs (those that do not say are left alone) and says hello again
   * once it knows more.
   */
  private async learnControllerFirmware(): Promise<void> {
    let learned = false;
    for (const [name, link] of this.links) {
      const port = this.config.ports.find((p, index) => portNames(this.config.ports)[index] === name);
      for (const controller of port?.controllers ?? []) {
        if (this.closed) return;
        const version = await readControllerVersion(link, controller.address).catch(() => '');
        if (version) {
          this.controllerFirmware.set(`${name}/${controller.address}`, version);
          learned = true;
        }
      }
    }
    if (learned && this.broker.connected) await this.publish('hello', this.hello()).catch(() => undefined);
  }

  get stats(): GatewayStats {
    const traffic = this.traffic();
    return {
      modemId: this.modemId,
      mqttConnected: this.broker.connected,
      mqttConnections: this.broker.connections,
      lastSeq: this.outbox.lastSeq,
      outboxSize: this.outbox.size,
      outboxDropped: this.outbox.dropped,
      dataPublished: this.dataPublished,
      ackedUpTo: this.ackedUpTo,
      ackResends: this.resends,
      eventsPublished: this.eventsPublished,
      requestsHandled: this.requestsHandled,
      rxBytes: traffic.rx,
      txBytes: traffic.tx,
      plan: this.plan,
      controllers: this.pollers.map((poller) => poller.status),
      firmware: this.ota.firmware,
      ota: this.ota.stats,
      ems: this.ems.status,
      emsCycles: this.ems.cycleCount,
    };
  }

  async restart(): Promise<void> {
    this.logger.info('restarting MQTT and Modbus connections');
    for (const link of this.links.values()) link.reset();
    await this.broker.reconnectNow(() => this.publish('state', 'offline', true));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ota.close();
    for (const poller of this.pollers) poller.stop();
    if (this.eventTimer) clearInterval(this.eventTimer);
    if (this.gpsTimer) clearInterval(this.gpsTimer);
    if (this.ackTimer) clearInterval(this.ackTimer);
    await this.ems.stop();
    // A clean disconnect does not fire the will, so say 'offline' ourselves.
    if (this.broker.connected) await withTimeout(this.publish('state', 'offline', true), 2000).catch(() => undefined);
    await this.broker.close();
    await Promise.all([...this.links.values()].map((link) => link.close()));
    this.saveTraffic();
    this.emsStore.close();
    this.outbox.close();
    this.logger.info('closed');
  }

  private topic(channel: ModemChannel): string {
    return modemTopic(this.modemId, channel);
  }

  private publish<C extends ModemChannel>(
    channel: C,
    message: Parameters<typeof encodeModemPayload<C>>[1],
    retain = false,
  ): Promise<void> {
    return this.broker.publish(this.topic(channel), encodeModemPayload(channel, message), retain);
  }

  private async onConnect(): Promise<void> {
    const generation = ++this.generation;
    this.cursor = 0;
    this.inflight = 0;
    this.ackProgressAt = Date.now();
    try {
      // Subscribe first: acks and requests sent in answer to what follows must not fall on the floor.
      await this.broker.subscribe([this.topic('plan'), this.topic('ack'), this.topic('request')]);
      await this.publish('state', 'online', true);
      await this.publish('hello', this.hello());
      await this.ota.afterConnect();
    } catch (error) {
      if (generation === this.generation) this.logger.warn(`announcing on connect failed: ${errorText(error)}`);
      return;
    }
    if (generation !== this.generation || this.closed) return;
    void this.publishEvent();
    // Everything unacked goes again, oldest first and with its original ts: the cloud ignores seqs it has.
    this.forward();
  }

  private onDisconnect(): void {
    this.generation += 1;
    this.inflight = 0;
  }

  private hello(): ModemHello {
    const names = portNames(this.config.ports);
    const ems = this.ems.status;
    return {
      model: this.config.model,
      firmware: this.ota.firmware,
      imei: this.config.imei,
      iccid: this.config.iccid,
      ...(this.config.imsi ? { imsi: this.config.imsi } : {}),
      controllers: this.config.ports.flatMap((port, index) =>
        port.controllers.map((controller) => ({
          port: names[index]!,
          address: controller.address,
          ...(controller.model ? { model: controller.model } : {}),
          ...(this.controllerFirmware.has(`${names[index]!}/${controller.address}`)
            ? { firmware: this.controllerFirmware.get(`${names[index]!}/${controller.address}`) }
            : {}),
        })),
      ),
      ...(ems ? { ems } : {}),
    };
  }

  private onMessage(topic: string, payload: Buffer): void {
    if (this.closed) return;
    const parsed = parseTopic(topic);
    if (!parsed || parsed.modemId !== this.modemId) return;
    switch (parsed.channel) {
      case 'plan':
        this.onPlan(payload);
        return;
      case 'ack': {
        const ack = parseModemPayload('ack', payload);
        if (!ack.ok) return this.logger.warn(`ignoring ack: ${ack.error}`);
        this.outbox.acknowledge(ack.message.upTo);
        if (ack.message.upTo > this.ackedUpTo) this.ackProgressAt = Date.now();
        this.ackedUpTo = Math.max(this.ackedUpTo, ack.message.upTo);
        return;
      }
      case 'request':
        void this.onRequest(payload);
        return;
      default:
        return;
    }
  }

  private onPlan(payload: Buffer): void {
    if (payload.length === 0) {
      // The retained plan was cleared: the cloud no longer wants anything polled.
      this.logger.info('plan withdrawn; polling stops');
      this.outbox.setMeta(META_PLAN, '');
      this.applyPlan(undefined);
      return;
    }
    const parsed = parseModemPayload('plan', payload);
    if (!parsed.ok) {
      this.logger.warn(`refusing plan: ${parsed.error}`);
      return;
    }
    this.outbox.setMeta(META_PLAN, encodeModemPayload('plan', parsed.message));
    this.applyPlan(parsed.message);
  }

  private applyPlan(plan: ModemPlan | undefined): void {
    this.plan = plan;
    for (const poller of this.pollers) {
      poller.applyPlan(
        plan?.controllers.find((entry) => entry.port === poller.port && entry.address === poller.address),
      );
    }
    for (const entry of plan?.controllers ?? []) {
      if (!this.pollers.some((poller) => poller.port === entry.port && poller.address === entry.address)) {
        this.logger.warn(
          `plan names a controller this module does not have: port ${entry.port} address ${entry.address}`,
        );
      }
    }
    const rate = plan?.eventRateMs ?? this.config.eventRateMs;
    if (rate !== this.eventRateMs) {
      this.eventRateMs = rate;
      this.scheduleEvents();
    }
  }

  /** Stores a snapshot under the next seq before anything is sent, then forwards what the window allows. */
  private store(port: string, address: number, snapshot: Snapshot): void {
    if (this.closed) return;
    try {
      this.outbox.append((seq) =>
        encodeModemPayload('data', {
          seq,
          ts: snapshot.ts,
          port,
          address,
          blocks: snapshot.blocks,
          ...(snapshot.error !== undefined ? { error: snapshot.error } : {}),
        }),
      );
    } catch (error) {
      this.logger.error(`outbox: cannot store data of port ${port} address ${address}: ${errorText(error)}`);
      return;
    }
    this.forward();
  }

  /** Sent data the cloud has not acked within the ack timeout goes again, oldest first. */
  private checkAcks(): void {
    if (this.closed || !this.broker.connected || this.outbox.size === 0) return;
    if (this.cursor <= this.ackedUpTo) return; // nothing sent that waits for an ack
    if (Date.now() - this.ackProgressAt < this.config.ackTimeoutMs) return;
    this.logger.warn(`no ack for ${this.config.ackTimeoutMs} ms: sending the unacked data again`);
    this.resends += 1;
    this.ackProgressAt = Date.now();
    this.cursor = 0;
    this.forward();
  }

  /** Keeps up to `inflightWindow` data messages on the wire, in seq order. */
  private forward(): void {
    if (this.closed || !this.broker.connected) return;
    const generation = this.generation;
    const topic = this.topic('data');
    while (this.inflight < this.config.inflightWindow) {
      const batch = this.outbox.readAfter(this.cursor, this.config.inflightWindow - this.inflight);
      if (batch.length === 0) return;
      for (const message of batch) {
        this.cursor = message.seq;
        this.inflight += 1;
        this.broker.publish(topic, message.payload).then(
          () => {
            if (generation !== this.generation) return;
            this.inflight -= 1;
            this.dataPublished += 1;
            this.forward();
          },
          (error: unknown) => {
            // The connection is going down; the message stays in the outbox and goes again on reconnect.
            if (generation !== this.generation) return;
            this.inflight -= 1;
            this.logger.warn(`data seq ${message.seq} not delivered: ${errorText(error)}`);
          },
        );
      }
    }
  }

  private scheduleEvents(): void {
    if (this.eventTimer) clearInterval(this.eventTimer);
    this.eventTimer = setInterval(() => void this.publishEvent(), this.eventRateMs);
    if (this.options.readGps && !this.gpsTimer) {
      const every = this.options.gpsWatchMs ?? 5000;
      this.gpsTimer = setInterval(() => void this.watchGps(every), every);
    }
  }

  /** Reports at once when the module has moved far enough since the fix it last reported. */
  private async watchGps(every: number): Promise<void> {
    if (this.closed || !this.broker.connected || Date.now() - this.lastEventAt < every) return;
    try {
      const fix = await this.options.readGps?.();
      if (!fix || !this.reportedFix) return;
      // metres on a local flat projection: plenty for tens of metres
      const dLat = (fix.lat - this.reportedFix.lat) * 111_195;
      const dLon = (fix.lon - this.reportedFix.lon) * 111_195 * Math.cos((fix.lat * Math.PI) / 180);
      if (Math.hypot(dLat, dLon) >= (this.options.moveReportM ?? 50)) await this.publishEvent();
    } catch (error) {
      if (!this.closed) this.logger.warn(`GPS not read: ${errorText(error)}`);
    }
  }

  private traffic(): { rx: number; tx: number } {
    const traffic = this.broker.traffic();
    return { rx: this.simBase.rx + traffic.rxBytes, tx: this.simBase.tx + traffic.txBytes };
  }

  private saveTraffic(): void {
    const traffic = this.traffic();
    this.outbox.setMeta(META_SIM_RX, String(traffic.rx));
    this.outbox.setMeta(META_SIM_TX, String(traffic.tx));
  }

  private async publishEvent(): Promise<void> {
    if (this.closed || !this.broker.connected) return;
    try {
      const [signal, gps, inputs] = await Promise.all([
        this.options.readSignal?.(),
        this.options.readGps ? this.options.readGps() : this.config.gps,
        this.options.readInputs?.(),
      ]);
      const traffic = this.traffic();
      const ems = this.ems.status;
      const event: ModemEvent = {
        ts: Date.now(),
        ...(gps ? { gps } : {}),
        ...(signal ? { signal } : {}),
        sim: { rxBytes: traffic.rx, txBytes: traffic.tx },
        ...(inputs ? { inputs } : {}),
        heartbeat: {
          uptimeS: Math.floor((Date.now() - this.startedAt) / 1000),
          outboxSize: this.outbox.size,
          lastSeq: this.outbox.lastSeq,
        },
        ...(ems ? { ems } : {}),
      };
      this.saveTraffic();
      await this.publish('event', event);
      this.eventsPublished += 1;
      this.lastEventAt = Date.now();
      if (gps) this.reportedFix = { lat: gps.lat, lon: gps.lon };
    } catch (error) {
      if (!this.closed) this.logger.warn(`event not sent: ${errorText(error)}`);
    }
  }

  private async onRequest(payload: Buffer): Promise<void> {
    const parsed = parseModemPayload('request', payload);
    if (!parsed.ok) {
      const id = requestIdOf(payload);
      this.logger.warn(`refusing request ${id ?? '(no id)'}: ${parsed.error}`);
      if (id) await this.reply({ id, ok: false, error: truncate(`invalid request: ${parsed.error}`) });
      return;
    }
    const request = parsed.message;
    const earlier = this.recentRequests.get(request.id);
    // A redelivered request (QoS 1) is answered again but never carried out twice: a command may not be idempotent.
    if (earlier === 'running') return;
    if (earlier) return void (await this.reply(earlier));
    this.remember(request.id, 'running');
    if (request.kind === 'ota') {
      // An upgrade reports each step itself, its last one possibly after a restart on the new version.
      this.requestsHandled += 1;
      this.logger.info(`request ${request.id} (ota): version ${request.version ?? '?'} from ${request.url ?? '?'}`);
      return this.ota.handle(request);
    }
    let reply: ModemReply;
    try {
      reply = await this.execute(request);
    } catch (error) {
      reply = { id: request.id, ok: false, error: truncate(errorText(error)) };
    }
    this.remember(request.id, reply);
    this.requestsHandled += 1;
    this.logger.info(`request ${request.id} (${request.kind}): ${reply.ok ? 'ok' : `failed: ${reply.error}`}`);
    await this.reply(reply);
    if (request.kind === 'restart' && reply.ok && !this.closed) await this.restart();
  }

  private remember(id: string, outcome: ModemReply | 'running'): void {
    this.recentRequests.delete(id);
    this.recentRequests.set(id, outcome);
    if (this.recentRequests.size > REMEMBERED_REQUESTS) {
      this.recentRequests.delete(this.recentRequests.keys().next().value!);
    }
  }

  /** Sends a reply; false when it could not go (an upgrade keeps its last word for the next connection). */
  private async reply(reply: ModemReply): Promise<boolean> {
    try {
      await this.publish('reply', reply);
      return true;
    } catch (error) {
      // Nothing else to keep it for: the cloud's wait has its own timeout and reports the request as failed.
      this.logger.warn(`reply to ${reply.id} not sent: ${errorText(error)}`);
      return false;
    }
  }

  private async execute(request: ModemRequest): Promise<ModemReply> {
    const { id } = request;
    switch (request.kind) {
      case 'restart':
        return { id, ok: true };
      case 'ota':
        return { id, ok: false, error: 'upgrades are carried out by the firmware agent' };
      case 'tactic': {
        // the reply names the version now running, or says exactly why this one is refused
        const accepted = this.ems.acceptTactic(request.tactic);
        if (!accepted.ok) return { id, ok: false, error: truncate(accepted.error) };
        return { id, ok: true, progress: { stage: 'accepted', version: String(accepted.version) } };
      }
      case 'demandResponse': {
        const accepted = this.ems.addDemandResponse(request.event);
        if (!accepted.ok) return { id, ok: false, error: truncate(accepted.error) };
        return { id, ok: true, progress: { stage: 'accepted' } };
      }
      case 'read': {
        const link = this.controllerLink(request.port, request.address);
        const result = await link.run(request.address, (channel) => readBlocks(channel, request.reads));
        if (result.error !== undefined) return { id, ok: false, error: result.error };
        return { id, ok: true, data: { ts: Date.now(), blocks: result.blocks } };
      }
      case 'write': {
        const link = this.controllerLink(request.port, request.address);
        const deadline = Date.now() + (request.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
        const writes = request.writes;
        await link.run(request.address, async (channel) => {
          for (const [index, write] of writes.entries()) {
            const applied = index === 0 ? '' : `; the ${index} write(s) before it were applied`;
            if (Date.now() > deadline) {
              throw new Error(`timed out before write ${index + 1} of ${writes.length}${applied}`);
            }
            try {
              await channel.write(write);
            } catch (error) {
              const which = `write ${index + 1} of ${writes.length} (fc ${write.fc} at ${write.address})`;
              throw new Error(`${which} failed: ${errorText(error)}${applied}`, { cause: error });
            }
          }
        });
        return { id, ok: true };
      }
    }
  }

  private controllerLink(port: string, address: number): ModbusLink {
    const link = this.links.get(port);
    if (!link?.hasController(address)) throw new Error(`no controller at port ${port} address ${address}`);
    return link;
  }
}

function requestIdOf(payload: Buffer): string | undefined {
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'string' && value.id.length <= 64) {
      return value.id;
    }
  } catch {
    // not JSON: nobody to answer
  }
  return undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
