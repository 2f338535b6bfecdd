// Authentication of modules for an external EMQX broker over HTTP (EMQX "HTTP authentication", 5.8 or later
// for the ACL in the answer): `POST /mqtt/auth` with {username, password} answers {result, is_superuser, acl}
// from the same database the embedded broker uses, so new modules and new secrets count at once and no file
// is generated. A module may publish only its own up-channels and subscribe only to its own down-channels;
// the server instances' account (MQTT_USERNAME / MQTT_PASSWORD) reads every module's up-channels through
// shared subscriptions and writes their down-channels. Off unless MQTT_AUTH_TOKEN is set; EMQX sends it as
// `Authorization: Bearer <token>` (deploy/mqtt-auth.md). The answer is always HTTP 200: a 4xx would make EMQX
// go on to its next authenticator instead of refusing.
import { timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MODEM_DOWN_CHANNELS, MODEM_UP_CHANNELS, isModemId, modemTopic, modemTopicFilter } from '@genset/protocol';
import { verifyModemSecret } from '../modules/devices/embedded-broker.ts';

export const BROKER_AUTH_PATH = '/mqtt/auth';

interface AclRule {
  permission: 'allow' | 'deny';
  action: 'publish' | 'subscribe' | 'all';
  topic: string;
}

const body = z.object({
  username: z.string().max(200).default(''),
  password: z.string().max(500).default(''),
  clientid: z.string().max(200).optional(),
});

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What a module may do: its own up-channels out, its own down-channels in, nothing else. */
export function modemAcl(modemKey: string): AclRule[] {
  return [
    ...MODEM_UP_CHANNELS.map((c) => ({
      permission: 'allow' as const,
      action: 'publish' as const,
      topic: modemTopic(modemKey, c),
    })),
    ...MODEM_DOWN_CHANNELS.map((c) => ({
      permission: 'allow' as const,
      action: 'subscribe' as const,
      topic: modemTopic(modemKey, c),
    })),
    { permission: 'deny', action: 'all', topic: '#' },
  ];
}

/** What the server instances may do: read every module's up-channels (also as a shared subscription), write down. */
export function serverAcl(group: string): AclRule[] {
  return [
    ...MODEM_UP_CHANNELS.flatMap((c) => [
      { permission: 'allow' as const, action: 'subscribe' as const, topic: modemTopicFilter(c) },
      { permission: 'allow' as const, action: 'subscribe' as const, topic: `$share/${group}/${modemTopicFilter(c)}` },
    ]),
    ...MODEM_DOWN_CHANNELS.map((c) => ({
      permission: 'allow' as const,
      action: 'publish' as const,
      topic: modemTopicFilter(c),
    })),
    { permission: 'deny', action: 'all', topic: '#' },
  ];
}

export default fp(
  async function brokerAuth(app: FastifyInstance) {
    const { config } = app;
    const token = config.mqttAuthToken;
    if (!token) return;
    const db = app.database.db;
    const deny = { result: 'deny' as const, is_superuser: false };

    app.post(BROKER_AUTH_PATH, async (req, reply) => {
      const header = req.headers.authorization ?? '';
      if (!sameText(header, `Bearer ${token}`)) {
        req.log.warn('broker authentication call without the right token');
        return reply.status(200).send(deny);
      }
      const parsed = body.safeParse(req.body ?? {});
      if (!parsed.success) return reply.status(200).send(deny);
      const { username, password } = parsed.data;
      if (!username || !password) return reply.status(200).send(deny);

      if (config.mqttUsername && config.mqttPassword && username === config.mqttUsername) {
        return reply
          .status(200)
          .send(
            sameText(password, config.mqttPassword)
              ? { result: 'allow', is_superuser: false, acl: serverAcl(config.mqttShareGroup) }
              : deny,
          );
      }
      if (!isModemId(username)) return reply.status(200).send(deny);
      const modem = await db
        .selectFrom('modem')
        .select('secret_hash')
        .where('modem_key', '=', username)
        .executeTakeFirst();
      if (!modem || !verifyModemSecret(modem.secret_hash, password)) {
        req.log.warn({ username }, 'broker refused a module: bad modem id or secret');
        return reply.status(200).send(deny);
      }
      return reply.status(200).send({ result: 'allow', is_superuser: false, acl: modemAcl(username) });
    });
  },
  { name: 'broker-auth' },
);
