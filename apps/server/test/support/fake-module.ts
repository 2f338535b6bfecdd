// A bare MQTT client speaking the module side of the contract, for tests that need to send exactly
// chosen messages (malformed ones included) rather than run a whole cloud module.
import mqtt, { type MqttClient } from 'mqtt';
import { modemTopic, type ModemChannel } from '@genset/protocol';

export interface FakeModule {
  client: MqttClient;
  received: { channel: string; payload: any }[];
  publish(channel: ModemChannel, payload: unknown, retain?: boolean): Promise<void>;
  waitFor(channel: string, predicate?: (payload: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

export async function connectFakeModule(
  url: string,
  modemKey: string,
  secret: string,
  opts: { will?: boolean } = {},
): Promise<FakeModule> {
  const client = mqtt.connect(url, {
    clientId: modemKey,
    username: modemKey,
    password: secret,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...(opts.will !== false
      ? { will: { topic: modemTopic(modemKey, 'state'), payload: Buffer.from('offline'), qos: 1, retain: true } }
      : {}),
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  const received: { channel: string; payload: any }[] = [];
  const waiters: { channel: string; predicate: (p: any) => boolean; resolve: (p: any) => void }[] = [];
  client.on('message', (topic, payload) => {
    const channel = topic.split('/')[2]!;
    let parsed: any;
    try {
      parsed = JSON.parse(payload.toString());
    } catch {
      parsed = payload.toString();
    }
    received.push({ channel, payload: parsed });
    for (const w of [...waiters]) {
      if (w.channel === channel && w.predicate(parsed)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(parsed);
      }
    }
  });
  await client.subscribeAsync(
    ['plan', 'ack', 'request'].map((c) => modemTopic(modemKey, c as ModemChannel)),
    { qos: 1 },
  );
  return {
    client,
    received,
    async publish(channel, payload, retain = false) {
      await client.publishAsync(
        modemTopic(modemKey, channel),
        typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload),
        { qos: 1, retain },
      );
    },
    waitFor(channel, predicate = () => true, timeoutMs = 5000) {
      const seen = received.find((r) => r.channel === channel && predicate(r.payload));
      if (seen) return Promise.resolve(seen.payload);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${channel} message in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ channel, predicate, resolve: (p) => (clearTimeout(timer), resolve(p)) });
      });
    },
    async close() {
      await client.endAsync();
    },
  };
}
