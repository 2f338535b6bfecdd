// MQTT topic names between a cloud module (modem) and the cloud: every topic is `modem/{modemId}/{channel}`.
// Also says which side may publish on which channel, so a broker can enforce that a module stays in its own tree.
import { z } from 'zod';

export const MODEM_TOPIC_ROOT = 'modem';

/** Channels the module publishes (module → cloud). */
export const MODEM_UP_CHANNELS = ['state', 'hello', 'data', 'event', 'reply'] as const;
/** Channels the cloud publishes and the module subscribes to (cloud → module). */
export const MODEM_DOWN_CHANNELS = ['plan', 'ack', 'request'] as const;
export const MODEM_CHANNELS = [...MODEM_UP_CHANNELS, ...MODEM_DOWN_CHANNELS] as const;

export type ModemUpChannel = (typeof MODEM_UP_CHANNELS)[number];
export type ModemDownChannel = (typeof MODEM_DOWN_CHANNELS)[number];
export type ModemChannel = (typeof MODEM_CHANNELS)[number];

// A modem id is a topic level and the MQTT username, so it must not contain '/', '+', '#' or spaces.
const MODEM_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function isModemId(value: string): boolean {
  return MODEM_ID_RE.test(value);
}

export const modemIdField = () => z.string().regex(MODEM_ID_RE, { error: 'invalid modem id' });

export function isModemChannel(value: string): value is ModemChannel {
  return (MODEM_CHANNELS as readonly string[]).includes(value);
}

/** `modem/{modemId}/{channel}`; throws on a modem id that would break the topic tree. */
export function modemTopic(modemId: string, channel: ModemChannel): string {
  if (!isModemId(modemId)) throw new Error(`invalid modem id: ${JSON.stringify(modemId)}`);
  return `${MODEM_TOPIC_ROOT}/${modemId}/${channel}`;
}

/** Subscription filter for one channel of every module, e.g. `modem/+/data` for the server's ingestion. */
export function modemTopicFilter(channel: ModemChannel): string {
  return `${MODEM_TOPIC_ROOT}/+/${channel}`;
}

/** The modem id and channel of a topic, or null when the topic is not one of ours. */
export function parseTopic(topic: string): { modemId: string; channel: ModemChannel } | null {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== MODEM_TOPIC_ROOT) return null;
  const [, modemId, channel] = parts as [string, string, string];
  if (!isModemId(modemId) || !isModemChannel(channel)) return null;
  return { modemId, channel };
}

/**
 * Whether the module authenticated as `modemId` may publish to / subscribe to `topic`:
 * only its own up-channels for publishing and its own down-channels for subscribing.
 */
export function isModemTopicAllowed(modemId: string, action: 'publish' | 'subscribe', topic: string): boolean {
  const parsed = parseTopic(topic);
  if (!parsed || parsed.modemId !== modemId) return false;
  const allowed: readonly string[] = action === 'publish' ? MODEM_UP_CHANNELS : MODEM_DOWN_CHANNELS;
  return allowed.includes(parsed.channel);
}
