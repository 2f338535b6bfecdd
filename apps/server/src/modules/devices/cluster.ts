// Several server instances on one database and one external broker (REDIS_URL and MQTT_URL set). Redis
// carries what must cross instances:
// - the realtime bus: `monitor` and `alarm` messages reach the WebSockets of every instance;
// - membership: each instance stamps itself in a sorted set every second; one silent for 5 s is gone;
// - ownership: each module belongs to one live instance (rendezvous hashing of its id over the members), and
//   the shared subscription's messages of a module that another instance owns are passed on to it, so that
//   one process keeps a set's state (status, alarms, rollups) and does the once-per-event work. Instances learn
//   of a change a poll apart, so a module changes hands in two steps: its old owner writes what it holds and
//   publishes the member list it has handed over for (`settle`); only then does the new owner take the module
//   up (until then it holds the module's messages). Never do two instances keep one set's rollups at once,
//   which would have each write its own count over the other's;
// - command replies: a module's reply reaches whichever instance the broker picked and is broadcast, so the
//   instance whose HTTP call waits for it finds it.
import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { ModemChannel } from '@genset/protocol';
import type { BusEvents, RealtimeBus } from './bus.ts';

/** An instance that has not stamped itself for this long is taken as gone and its modules move. */
export const MEMBER_TIMEOUT_MS = 5000;
const STAMP_EVERY_MS = 1000;

export interface Cluster {
  instanceId: string;
  bus: RealtimeBus;
  /** Whether this instance owns the module now: it is the module's instance and no other still holds it. */
  owns(modemKey: string): boolean;
  /** Whether the module is this instance's by the members it knows (owned, or about to be once handed over). */
  assigned(modemKey: string): boolean;
  /** Says that this instance has written and let go what `members` no longer give it. */
  settle(members: readonly string[]): void;
  /** Called after a poll that may have moved a module to or from this instance. */
  onOwnership(handler: () => void): void;
  /** Hands a module's message to the instance that owns it. */
  forward(modemKey: string, channel: ModemChannel, payload: Buffer): void;
  /** Messages other instances passed on to this one. */
  onForwarded(handler: (modemKey: string, channel: ModemChannel, payload: Buffer) => void): void;
  /** Sends a module's reply to every instance (this one included). */
  broadcastReply(modemKey: string, payload: Buffer): void;
  onReply(handler: (modemKey: string, payload: Buffer) => void): void;
  /** Called after the members changed (modules may have moved). */
  onMembersChanged(handler: () => void): void;
  members(): string[];
  close(): Promise<void>;
}

/** Rendezvous hashing: a module belongs to the live instance with the highest weight for it. */
export function ownerOf(members: readonly string[], modemKey: string): string {
  let best = members[0]!;
  let bestWeight = -1n;
  for (const id of members) {
    const w = weight(id, modemKey);
    if (w > bestWeight) {
      best = id;
      bestWeight = w;
    }
  }
  return best;
}

function weight(instance: string, modemKey: string): bigint {
  return createHash('sha1').update(`${instance}|${modemKey}`).digest().readBigUInt64BE(0);
}

export async function startCluster(opts: {
  redisUrl: string;
  /** Prefix of every Redis key and channel: deployments (or tests) sharing one Redis stay apart. */
  namespace: string;
  instanceId?: string;
  log: FastifyBaseLogger;
}): Promise<Cluster> {
  const { log, namespace } = opts;
  const instanceId = opts.instanceId ?? randomUUID();
  const MEMBERS = `${namespace}:members`;
  const BUS = `${namespace}:bus`;
  const REPLIES = `${namespace}:replies`;
  const inbox = (id: string) => `${namespace}:ingest:${id}`;
  const pub = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
  const sub = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
  // While Redis is away both connections retry on their own (the subscriber subscribes again once back), and
  // what is published meanwhile waits in the offline queue. Without a listener ioredis writes every failed
  // attempt to stderr with its stack: one warning a minute says the same.
  let warned = 0;
  for (const client of [pub, sub]) {
    client.on('error', (err: Error) => {
      if (Date.now() - warned < 60_000) return;
      warned = Date.now();
      log.warn({ err: err.message }, 'redis unreachable (cluster bus and membership); reconnecting');
    });
  }
  await pub.connect();
  await sub.connect();
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const forwarded: ((modemKey: string, channel: ModemChannel, payload: Buffer) => void)[] = [];
  const replies: ((modemKey: string, payload: Buffer) => void)[] = [];
  const changed: (() => void)[] = [];
  const ownership: (() => void)[] = [];
  let live: string[] = [instanceId];
  /** The members each instance has last handed over for (what it may still hold is what they give it). */
  let settled = new Map<string, string[]>();
  const SETTLED = `${namespace}:settled`;

  /** The live instance other than this one that still holds the module, if any. */
  function holder(modemKey: string): string | undefined {
    for (const id of live) {
      if (id === instanceId) continue;
      const view = settled.get(id);
      if (view && ownerOf(view, modemKey) === id) return id;
    }
    return undefined;
  }

  async function stamp() {
    const now = Date.now();
    await pub.zadd(MEMBERS, now, instanceId);
    await pub.zremrangebyscore(MEMBERS, 0, now - 10 * MEMBER_TIMEOUT_MS);
    const ids = await pub.zrangebyscore(MEMBERS, now - MEMBER_TIMEOUT_MS, '+inf');
    const views = await pub.hgetall(SETTLED);
    const known = new Set(await pub.zrange(MEMBERS, '0', '-1'));
    const gone = Object.keys(views).filter((id) => !known.has(id));
    if (gone.length) await pub.hdel(SETTLED, ...gone);
    const next = [...new Set([...ids, instanceId])].sort();
    const nextSettled = new Map<string, string[]>();
    for (const [id, view] of Object.entries(views)) {
      if (id !== instanceId && next.includes(id)) nextSettled.set(id, JSON.parse(view) as string[]);
    }
    const own = settled.get(instanceId);
    if (own) {
      nextSettled.set(instanceId, own);
      // (a Redis that came back empty has lost it)
      if (!views[instanceId]) await pub.hset(SETTLED, instanceId, JSON.stringify(own));
    }
    const before = JSON.stringify([...settled].sort());
    settled = nextSettled;
    if (next.join() !== live.join()) {
      log.info({ members: next.length, instanceId }, 'cluster members changed');
      live = next;
      for (const h of changed) h();
    }
    if (JSON.stringify([...settled].sort()) !== before) for (const h of ownership) h();
  }
  await stamp();
  const timer = setInterval(() => {
    stamp().catch((err: unknown) => log.warn({ err }, 'cluster stamp failed'));
  }, STAMP_EVERY_MS);
  timer.unref();

  await sub.subscribe(BUS, REPLIES, inbox(instanceId));
  sub.on('messageBuffer', (channelBuf: Buffer, message: Buffer) => {
    const channel = channelBuf.toString();
    try {
      if (channel === BUS) {
        const { c, m } = JSON.parse(message.toString('utf8')) as { c: keyof BusEvents; m: unknown };
        local.emit(c, m);
      } else if (channel === REPLIES) {
        const { k, p } = JSON.parse(message.toString('utf8')) as { k: string; p: string };
        for (const h of replies) h(k, Buffer.from(p, 'base64'));
      } else {
        const { k, c, p } = JSON.parse(message.toString('utf8')) as { k: string; c: ModemChannel; p: string };
        for (const h of forwarded) h(k, c, Buffer.from(p, 'base64'));
      }
    } catch (err) {
      log.warn({ err, channel }, 'unreadable cluster message');
    }
  });

  const send = (channel: string, message: object) => {
    pub.publish(channel, JSON.stringify(message)).catch((err: unknown) => log.warn({ err }, 'redis publish failed'));
  };

  return {
    instanceId,
    bus: {
      publish(channel, message) {
        send(BUS, { c: channel, m: message });
      },
      subscribe(channel, handler) {
        local.on(channel, handler as (m: unknown) => void);
        return () => local.off(channel, handler as (m: unknown) => void);
      },
      async close() {
        local.removeAllListeners();
      },
    },
    owns: (modemKey) => ownerOf(live, modemKey) === instanceId && holder(modemKey) === undefined,
    assigned: (modemKey) => ownerOf(live, modemKey) === instanceId,
    settle(members) {
      const view = [...members];
      settled.set(instanceId, view);
      pub
        .hset(SETTLED, instanceId, JSON.stringify(view))
        .catch((err: unknown) => log.warn({ err }, 'hand-over not published'));
      for (const h of ownership) h();
    },
    onOwnership: (h) => void ownership.push(h),
    forward(modemKey, channel, payload) {
      const to = holder(modemKey) ?? ownerOf(live, modemKey);
      send(inbox(to), { k: modemKey, c: channel, p: payload.toString('base64') });
    },
    onForwarded: (h) => void forwarded.push(h),
    broadcastReply(modemKey, payload) {
      send(REPLIES, { k: modemKey, p: payload.toString('base64') });
    },
    onReply: (h) => void replies.push(h),
    onMembersChanged: (h) => void changed.push(h),
    members: () => [...live],
    async close() {
      clearInterval(timer);
      await pub.zrem(MEMBERS, instanceId).catch(() => undefined);
      await pub.hdel(SETTLED, instanceId).catch(() => undefined);
      sub.disconnect();
      pub.disconnect();
    },
  };
}
