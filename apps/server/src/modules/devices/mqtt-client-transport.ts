// The server as a client of an external broker (MQTT_URL: Mosquitto, EMQX …), for deployments with several
// server instances. It subscribes with MQTT 5 shared subscriptions (`$share/<group>/modem/+/<channel>`), so the
// broker hands each module message to one instance of the group; authentication of the modules and their
// topic limits are the broker's job then (see deploy/). A message is acknowledged to the broker only once
// ingestion has taken it, and not while ingestion asks to wait (backpressure, as with the embedded broker).
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { MODEM_UP_CHANNELS, MQTT_MAX_PAYLOAD_BYTES, modemTopic, modemTopicFilter, parseTopic } from '@genset/protocol';
import type { DeviceTransport, ModemMessageHandler } from './transport.ts';

export interface MqttClientTransportOptions {
  url: string;
  username?: string;
  password?: string;
  /** Shared-subscription group: instances of one deployment share it. */
  group: string;
  clientId: string;
  log: FastifyBaseLogger;
}

export async function connectMqttClientTransport(opts: MqttClientTransportOptions): Promise<DeviceTransport> {
  const { log } = opts;
  const handlers: ModemMessageHandler[] = [];
  const options: IClientOptions = {
    protocolVersion: 5,
    clientId: opts.clientId,
    clean: true,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    // A connection whose other end vanished without closing it (the broker's host died, a NAT or firewall
    // forgot the connection) is noticed only by the keepalive: nothing received for 1.5 × keepalive ends it and
    // the client connects again. With mqtt.js's default of 60 s that took 90 s, while the broker kept handing
    // this instance its share of the modules' messages and the acks sent meanwhile went nowhere. 10 s notices
    // it within 15 s, and the broker, which applies the same 1.5 × to the keepalive asked for, likewise drops
    // a silent instance's connection (and its share of the messages) after 15 s; a ping every 10 s costs
    // nothing.
    keepalive: 10,
    ...(opts.username ? { username: opts.username } : {}),
    ...(opts.password ? { password: opts.password } : {}),
  };
  const client: MqttClient = mqtt.connect(opts.url, options);

  // mqtt.js acknowledges a QoS 1 message when this calls back: holding it holds the broker's next deliveries.
  client.handleMessage = (packet, done) => {
    const parsed = parseTopic(packet.topic);
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (!parsed || payload.length > MQTT_MAX_PAYLOAD_BYTES) {
      log.warn({ topic: packet.topic, bytes: payload.length }, 'mqtt message refused');
      return done();
    }
    const waits: Promise<void>[] = [];
    for (const h of handlers) {
      const wait = h(parsed.modemId, parsed.channel, payload);
      if (wait) waits.push(wait);
    }
    if (!waits.length) return done();
    void Promise.all(waits).then(
      () => done(),
      () => done(),
    );
  };

  const subscribe = () =>
    client.subscribeAsync(
      MODEM_UP_CHANNELS.map((channel) => `$share/${opts.group}/${modemTopicFilter(channel)}`),
      { qos: 1 },
    );
  client.on('connect', () => {
    log.info({ url: opts.url, group: opts.group }, 'connected to the MQTT broker');
    void subscribe().catch((err: unknown) => log.error({ err }, 'mqtt subscribe failed'));
  });
  client.on('error', (err) => log.warn({ err: err.message }, 'mqtt client error'));
  client.on('offline', () => log.warn({ url: opts.url }, 'MQTT broker unreachable; reconnecting'));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`MQTT broker at ${opts.url} did not answer`)), 15_000);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });

  return {
    port: undefined,
    onMessage(handler) {
      handlers.push(handler);
    },
    async publish(modemKey, channel, payload, options = {}) {
      await client.publishAsync(modemTopic(modemKey, channel), payload, {
        qos: options.qos ?? 1,
        retain: options.retain ?? false,
      });
    },
    // Presence is the broker's; requests are sent and time out if nobody answers.
    connected: () => true,
    isUp: () => client.connected,
    async close() {
      await client.endAsync();
    },
  };
}
