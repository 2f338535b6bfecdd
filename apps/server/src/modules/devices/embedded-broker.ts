// The embedded MQTT broker (Aedes) for the single-machine setup. Modules authenticate with their modem id
// and secret from the database; each may publish only under its own up-topics and subscribe only to its
// own down-topics; oversized messages are refused. Everything refused is logged.
import { createServer, type Server } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Aedes, type AedesPublishPacket, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { isModemTopicAllowed, MQTT_MAX_PAYLOAD_BYTES, modemTopic, parseTopic } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import type { DeviceTransport, ModemMessageHandler } from './transport.ts';

export function hashModemSecret(secret: string, salt: string): string {
  return `${salt}$${createHash('sha256').update(`${salt}:${secret}`).digest('hex')}`;
}

export function verifyModemSecret(stored: string, secret: string): boolean {
  const [salt = ''] = stored.split('$');
  const expected = Buffer.from(hashModemSecret(secret, salt));
  const actual = Buffer.from(stored);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

interface AuthError extends Error {
  returnCode: number;
}
const BAD_USERNAME_OR_PASSWORD = 4;

async function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

export async function startEmbeddedBroker(opts: {
  db: Db;
  port: number;
  host: string;
  log: FastifyBaseLogger;
}): Promise<DeviceTransport> {
  const { db, log } = opts;
  const handlers: ModemMessageHandler[] = [];
  const connected = new Map<string, Client>();
  const modemOf = new WeakMap<Client, string>();

  const broker = await Aedes.createBroker({
    heartbeatInterval: 60_000,
    // No cap on messages in flight inside the broker (0 = unlimited). The default cap (100) does not bound
    // memory (messages over it wait in an unbounded queue), but that queue is emptied by recursion, one
    // level per message nobody subscribes to (a module's `data`): a burst arriving while 100 deliveries
    // (acks, plans) are pending overflowed the stack and crashed the server (bench/ingest.ts, max rate).
    // Reading from each socket still waits until its previous packets are handled (backpressure stays).
    concurrency: 0,
    authenticate: (client, username, password, done) => {
      const refuse = (why: string) => {
        log.warn({ clientId: client.id, username, why }, 'mqtt connection refused');
        const err = new Error('bad modem id or secret') as AuthError;
        err.returnCode = BAD_USERNAME_OR_PASSWORD;
        done(err, false);
      };
      if (!username || !password) return refuse('no credentials');
      db.selectFrom('modem')
        .select(['secret_hash'])
        .where('modem_key', '=', username)
        .executeTakeFirst()
        .then((modem) => {
          if (!modem || !verifyModemSecret(modem.secret_hash, password.toString('utf8')))
            return refuse('bad credentials');
          modemOf.set(client, username);
          done(null, true);
        })
        .catch((err: unknown) => {
          log.error({ err }, 'mqtt authentication failed');
          refuse('server error');
        });
    },
    authorizePublish: (client, packet, callback) => {
      if (!client) return callback(null);
      const modemKey = modemOf.get(client);
      if (!modemKey || !isModemTopicAllowed(modemKey, 'publish', packet.topic)) {
        log.warn({ modem: modemKey, topic: packet.topic }, 'mqtt publish refused: not its topic');
        return callback(new Error('topic not allowed'));
      }
      if (packet.payload.length > MQTT_MAX_PAYLOAD_BYTES) {
        log.warn(
          { modem: modemKey, topic: packet.topic, bytes: packet.payload.length },
          'mqtt publish refused: too large',
        );
        return callback(new Error('payload too large'));
      }
      callback(null);
    },
    // Aedes reads a client's next packet (and acknowledges this one) only once `done` is called: holding it
    // while ingestion is behind makes the module wait, with its data safe in its outbox.
    published: (packet: AedesPublishPacket, client: Client | null, done: (err?: Error) => void) => {
      const parsed = client ? parseTopic(packet.topic) : null;
      if (!parsed) return done();
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
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
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const modemKey = modemOf.get(client);
      if (!modemKey || !isModemTopicAllowed(modemKey, 'subscribe', subscription.topic)) {
        log.warn({ modem: modemKey, topic: subscription.topic }, 'mqtt subscribe refused: not its topic');
        // A negative acknowledgement (0x80) tells the module; its other subscriptions carry on.
        return callback(null, null);
      }
      callback(null, subscription);
    },
  });

  broker.on('clientReady', (client) => {
    const key = modemOf.get(client);
    if (key) connected.set(key, client);
  });
  broker.on('clientDisconnect', (client) => {
    const key = modemOf.get(client);
    if (key && connected.get(key) === client) connected.delete(key);
  });

  const server = createServer(broker.handle);
  let port: number;
  try {
    port = await listen(server, opts.port, opts.host);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    // Another broker already has the port (a Mosquitto on the same machine, say): take a free one and say so.
    port = await listen(server, 0, opts.host);
    log.warn({ wanted: opts.port, port }, `MQTT port ${opts.port} is taken; the embedded broker listens on ${port}`);
  }
  log.info({ port }, `embedded MQTT broker listening on port ${port}`);

  return {
    port,
    onMessage(handler) {
      handlers.push(handler);
    },
    publish(modemKey, channel, payload, options = {}) {
      return new Promise((resolve, reject) => {
        broker.publish(
          {
            cmd: 'publish',
            topic: modemTopic(modemKey, channel),
            payload: Buffer.from(payload),
            qos: options.qos ?? 1,
            retain: options.retain ?? false,
            dup: false,
          },
          (err?: Error | null) => (err ? reject(err) : resolve()),
        );
      });
    },
    connected(modemKey) {
      return connected.has(modemKey);
    },
    connectedCount: () => connected.size,
    isUp: () => server.listening,
    async close() {
      for (const client of connected.values()) client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
