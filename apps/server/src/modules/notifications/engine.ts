// The notification engine. Events are written where things happen (an alarm in ingestion's own transaction, a
// hand-over step in its call's), so what is committed is notified. One instance of the deployment at a time
// (a job lease) turns events into notices for each person who wants them (message centre rows, and outbox
// rows for e-mail, SMS, Web Push to each subscribed browser and the company's webhooks), then sends what is due
// from the outbox:
// - a set's alarms to one person on one channel go at most once a minute: the first at once, what follows
//   within the minute together at its end;
// - e-mail, SMS and pushes wait for the end of a person's quiet hours, except alarms that stop a set;
// - a message that cannot be sent is tried again with growing pauses for 24 hours, then marked failed (a browser
//   whose push service says it is gone at once);
// - an outbox row is claimed before sending, so a row is sent once however many instances run.
import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Transaction } from 'kysely';
import {
  pickLanguage,
  WEBHOOK_HEADERS,
  WEBHOOK_RETRY_HOURS,
  type NoticeKind,
  type NoticeLevel,
  type PushPayload,
} from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';
import type { Db } from '../../db/database.ts';
import type { Database, NotificationDeliveryTable } from '../../db/schema.ts';
import { holdLease, releaseLease } from '../../lib/job-lease.ts';
import type { MessageSender } from '../sms/sender.ts';
import type { MessageService } from '../messages/service.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import { readersByIds, readersOfSet, readersWithPermission, type Reader } from './audience.ts';
import { createDataScope, type DataScopeService } from '../account/scope.ts';
import { emailOf, phoneOf, quietUntil, readSettings, stopsTheSet, wants } from './settings.ts';
import { renderNotice, type NoticeFacts } from './render.ts';

/** Who an event is for: the people who may see its set, named people, or a company's holders of a permission. */
/** Who is told: those who may see the set (`only`: those of them named), the people named, or a permission's holders. */
export type Audience = { set: true; only?: number[] } | { users: number[] } | { companyId: number; permission: string };

export interface NoticeEvent {
  kind: NoticeKind;
  companyId: number | null;
  gensetId: number | null;
  audience: Audience;
  facts: NoticeFacts;
  /** The same key twice is one event (a reminder raised by two schedulers, a retried call). */
  dedupeKey?: string;
}

/** Records an event, in the caller's transaction when it has one. A duplicate key records nothing. */
export async function recordNoticeEvent(db: Db | Transaction<Database>, event: NoticeEvent, now = Date.now()) {
  await db
    .insertInto('notification_event')
    .values({
      kind: event.kind,
      company_id: event.companyId,
      genset_id: event.gensetId,
      payload: JSON.stringify({ audience: event.audience, facts: event.facts }),
      dedupe_key: event.dedupeKey ?? null,
      created_at: now,
      processed_at: null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

/** Group window: one message per set, person and channel per minute. */
export const GROUP_MS = 60_000;
const LEASE = 'notifications';
const LEASE_TTL_MS = 30_000;
/** A claimed row not reported back within this is free again (its instance died while sending). */
const CLAIM_MS = 60_000;
const WEBHOOK_TIMEOUT_MS = 10_000;

/** The pause before the next try after `attempts` failed ones: 15 s, 30 s, 1 min … at most 30 min. */
export function retryDelay(attempts: number): number {
  return Math.min(15_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}

export function levelOf(kind: NoticeKind, facts: NoticeFacts): NoticeLevel {
  if (kind === 'alarm.raised' || kind === 'alarm.escalated') return stopsTheSet(facts.level) ? 'alarm' : 'warning';
  if (kind === 'set.offline' || kind === 'maintenance.overdue' || kind === 'sim.usage') return 'warning';
  return 'info';
}

/** The body every webhook receives, and its signature header's value (`sha256=<hex>` of `<timestamp>.<body>`). */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface EmailTransport {
  send(message: {
    to: string;
    subject: string;
    text: string;
    language?: string;
    companyId?: number | null;
    userId?: number | null;
    link?: string;
  }): Promise<void>;
}

export interface EngineOptions {
  db: Db;
  log: FastifyBaseLogger;
  sender: MessageSender;
  email: EmailTransport;
  bus: RealtimeBus;
  /** The instance's name in the lease. */
  holder?: string;
  tickMs?: number;
  now?: () => number;
  /**
   * Records what has become due to be told since the last round (the end of alarm episodes that stayed cleared for
   * their hold time: modules/devices/ingest/episodes.ts), under the round's lease, before it is dispatched.
   */
  beforeRound?: (now: number) => Promise<unknown>;
  /**
   * Posts a webhook's body and answers the receiver's status; checks the address again at sending time (names
   * resolve differently over time) and throws when it is refused (webhooks.ts createWebhookPoster).
   */
  postWebhook: (
    url: string,
    init: { headers: Record<string, string>; body: string; timeoutMs: number },
  ) => Promise<number>;
  /** Logs a message sent here (a push) in the delivery log: modules/messages/service.ts `track`. */
  track?: MessageService['track'];
  /** What roles reach (who is told about a set); without one, resolved here. */
  scope?: DataScopeService;
  /**
   * Sends a notice to one subscribed browser and answers the push service's status (modules/push/service.ts);
   * throws an error with `permanent` when the browser is gone. Without it, nobody is notified by push.
   */
  push?: {
    send(
      subscriptionId: number,
      payload: PushPayload,
      options: { urgency: 'high' | 'normal'; ttlSeconds: number },
    ): Promise<number>;
  };
}

type NewDelivery = Omit<
  Insertable<NotificationDeliveryTable>,
  'status' | 'locked_until' | 'last_error' | 'response_status' | 'sent_at'
>;

/** A message waiting to go out; one per event, channel and address, however often the event is handled. */
async function enqueue(trx: Transaction<Database>, delivery: NewDelivery) {
  await trx
    .insertInto('notification_delivery')
    .values({
      ...delivery,
      status: 'pending',
      locked_until: null,
      last_error: null,
      response_status: null,
      sent_at: null,
    })
    .onConflict((oc) => oc.columns(['event_id', 'channel', 'target']).doNothing())
    .execute();
}

interface Parsed {
  audience: Audience;
  facts: NoticeFacts;
}

export function createNotificationEngine(opts: EngineOptions) {
  const { db, log } = opts;
  const now = opts.now ?? Date.now;
  const holder = opts.holder ?? `notify-${process.pid}-${randomUUID().slice(0, 8)}`;
  const scope = opts.scope ?? createDataScope({ db });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  async function readersOf(event: { genset_id: number | null }, audience: Audience): Promise<Reader[]> {
    if ('set' in audience) {
      if (event.genset_id === null) return [];
      const readers = await readersOfSet(db, scope, event.genset_id);
      const only = audience.only ? new Set(audience.only) : null;
      return only ? readers.filter((r) => only.has(r.user.id)) : readers;
    }
    if ('users' in audience) return readersByIds(db, audience.users);
    return readersWithPermission(db, audience.companyId, audience.permission);
  }

  /** When an alarm message to this group may go: with a message of the group waiting, with it. */
  async function groupSlot(trx: Transaction<Database>, groupKey: string, t: number): Promise<number> {
    const waiting = await trx
      .selectFrom('notification_delivery')
      .select((eb) => eb.fn.max('not_before').as('at'))
      .where('group_key', '=', groupKey)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (waiting?.at != null) return Math.max(Number(waiting.at), t);
    const last = await trx
      .selectFrom('notification_delivery')
      .select((eb) => eb.fn.max('sent_at').as('at'))
      .where('group_key', '=', groupKey)
      .where('sent_at', '>', t - GROUP_MS)
      .executeTakeFirst();
    return last?.at != null ? Number(last.at) + GROUP_MS : t;
  }

  /** Turns waiting events into notices and outbox rows; returns the people whose unread count moved. */
  async function dispatch(): Promise<Map<number, number>> {
    const touched = new Map<number, number>();
    const events = await db
      .selectFrom('notification_event')
      .selectAll()
      .where('processed_at', 'is', null)
      .orderBy('id')
      .limit(100)
      .execute();
    for (const event of events) {
      const kind = event.kind as NoticeKind;
      const { audience, facts: recorded } = JSON.parse(event.payload) as Parsed;
      // a set's name, token, zone and company as they are now (ingestion records only what it knows)
      const set =
        event.genset_id === null
          ? undefined
          : await db
              .selectFrom('genset')
              .select(['name', 'token', 'time_zone', 'company_id'])
              .where('id', '=', event.genset_id)
              .executeTakeFirst();
      const facts: NoticeFacts = set
        ? { set: set.name, token: set.token, timeZone: set.time_zone, ...recorded }
        : recorded;
      const companyId = event.company_id ?? set?.company_id ?? null;
      const readers = await readersOf(event, audience);
      const t = now();
      const level = levelOf(kind, facts);
      const hooks =
        companyId === null
          ? []
          : await db
              .selectFrom('webhook')
              .select(['id', 'events'])
              .where('company_id', '=', companyId)
              .where('enabled', '=', 1)
              .execute();
      const userIds = await db.transaction().execute(async (trx) => {
        // claimed by this transaction, or already done by another holder
        const claim = await trx
          .updateTable('notification_event')
          .set({ processed_at: t })
          .where('id', '=', event.id)
          .where('processed_at', 'is', null)
          .executeTakeFirst();
        if (Number(claim.numUpdatedRows) !== 1) return [];
        const notified: number[] = [];
        for (const reader of readers) {
          const settings = readSettings(reader.user.message_settings);
          if (!wants(settings, kind, { alarmLevel: facts.level, mine: reader.mine })) continue;
          if (settings.alarmPush) {
            await trx
              .insertInto('notification')
              .values({
                user_id: reader.user.id,
                event_id: event.id,
                kind,
                level,
                genset_id: event.genset_id,
                payload: JSON.stringify(facts),
                created_at: t,
                read_at: null,
              })
              .onConflict((oc) => oc.columns(['user_id', 'event_id']).doNothing())
              .execute();
            notified.push(reader.user.id);
          }
          const urgent = kind === 'alarm.raised' && stopsTheSet(facts.level);
          const quiet = urgent ? null : quietUntil(settings, t);
          // each browser the person subscribed is an address of its own (the subscription's id)
          const devices =
            settings.alarmPush && opts.push
              ? await trx.selectFrom('push_subscription').select('id').where('user_id', '=', reader.user.id).execute()
              : [];
          const channels: ['email' | 'sms' | 'push', string | null][] = [
            ['email', settings.alarmEmail ? emailOf(settings, reader.user.account) : null],
            ['sms', settings.alarmSms ? phoneOf(settings, reader.user.account) : null],
            ...devices.map((d): ['push', string] => ['push', String(d.id)]),
          ];
          for (const [channel, target] of channels) {
            if (!target) continue;
            const grouped = kind.startsWith('alarm.') && event.genset_id !== null;
            // alarms that stop a set are a group of their own: they never wait behind warnings held by quiet hours
            const groupKey = grouped
              ? `${channel}:${target}:set:${event.genset_id}${urgent ? ':stop' : ''}`
              : `${channel}:${target}:event:${event.id}`;
            const slot = grouped ? await groupSlot(trx, groupKey, t) : t;
            await enqueue(trx, {
              event_id: event.id,
              company_id: companyId,
              user_id: reader.user.id,
              webhook_id: null,
              channel,
              target,
              group_key: groupKey,
              payload: JSON.stringify({
                kind,
                facts,
                language: reader.user.language || settings.language,
                timeZone: settings.timeZone,
              }),
              not_before: Math.max(slot, quiet ?? 0),
              created_at: t,
            });
          }
        }
        for (const hook of hooks) {
          if (!(JSON.parse(hook.events) as string[]).includes(kind)) continue;
          await enqueue(trx, {
            event_id: event.id,
            company_id: companyId,
            user_id: null,
            webhook_id: hook.id,
            channel: 'webhook',
            target: `webhook:${hook.id}`,
            group_key: `webhook:${hook.id}:event:${event.id}`,
            payload: JSON.stringify({ kind, facts }),
            not_before: t,
            created_at: t,
          });
        }
        return notified;
      });
      for (const id of userIds) touched.set(id, 0);
    }
    if (touched.size) {
      const counts = await db
        .selectFrom('notification')
        .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('user_id', 'in', [...touched.keys()])
        .where('read_at', 'is', null)
        .groupBy('user_id')
        .execute();
      for (const c of counts) touched.set(c.user_id, Number(c.n));
    }
    return touched;
  }

  interface DeliveryRow {
    id: number;
    event_id: number;
    channel: string;
    target: string;
    group_key: string;
    payload: string;
    attempts: number;
    created_at: number;
    webhook_id: number | null;
    company_id: number | null;
    user_id: number | null;
  }

  async function sendGroup(rows: DeliveryRow[]): Promise<void> {
    const t = now();
    const ids = rows.map((r) => r.id);
    // claim: a row another sender claimed (and is still within its claim) is not ours
    const claimed = await db
      .updateTable('notification_delivery')
      .set({ status: 'sending', locked_until: t + CLAIM_MS })
      .where('id', 'in', ids)
      .where((eb) =>
        eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', t)])]),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== ids.length) {
      // part of the group went elsewhere: give back what we took, the next round sees the rest
      await db
        .updateTable('notification_delivery')
        .set({ status: 'pending', locked_until: null })
        .where('id', 'in', ids)
        .where('status', '=', 'sending')
        .where('locked_until', '=', t + CLAIM_MS)
        .execute();
      return;
    }
    const first = rows[0]!;
    let responseStatus: number | null = null;
    try {
      if (first.channel === 'webhook') responseStatus = await postWebhook(first);
      else if (first.channel === 'push') responseStatus = await sendPush(first.target, rows);
      else await sendMessage(first.channel as 'email' | 'sms', first.target, rows);
      await db
        .updateTable('notification_delivery')
        .set({ status: 'sent', sent_at: now(), locked_until: null, response_status: responseStatus, last_error: null })
        .where('id', 'in', ids)
        .execute();
    } catch (err) {
      const e = err as Error & { responseStatus?: number; permanent?: boolean };
      const attempts = first.attempts + 1;
      const giveUp = e.permanent === true || now() - first.created_at >= WEBHOOK_RETRY_HOURS * 3_600_000;
      log.warn({ err: e.message, channel: first.channel, attempts, giveUp }, 'notification not delivered');
      await db
        .updateTable('notification_delivery')
        .set({
          status: giveUp ? 'failed' : 'pending',
          attempts,
          not_before: now() + retryDelay(attempts),
          locked_until: null,
          last_error: e.message.slice(0, 500),
          response_status: e.responseStatus ?? null,
        })
        .where('id', 'in', ids)
        .execute();
    }
  }

  async function sendMessage(channel: 'email' | 'sms', to: string, rows: DeliveryRow[]) {
    const notices = rows.map((r) => {
      const p = JSON.parse(r.payload) as { kind: NoticeKind; facts: NoticeFacts; language: string; timeZone: string };
      return renderNotice(p.kind, { ...p.facts, timeZone: p.facts.timeZone ?? p.timeZone }, p.language);
    });
    const firstPayload = JSON.parse(rows[0]!.payload) as { facts: NoticeFacts; language: string };
    const subject =
      notices.length === 1
        ? notices[0]!.title
        : renderGroupTitle(firstPayload.facts, notices.length, firstPayload.language);
    const body = notices.map((n) => n.text).join('\n');
    // whose message it is: the company's name and logo on it, its row in the company's delivery log
    const whose = {
      language: firstPayload.language,
      companyId: rows[0]!.company_id,
      userId: rows[0]!.user_id,
      ...(notices[0]!.link ? { link: notices[0]!.link } : {}),
    };
    if (channel === 'email') await opts.email.send({ to, subject, text: body, ...whose });
    else
      await opts.sender.send({
        channel: 'sms',
        to,
        purpose: 'notice',
        text: notices.length === 1 ? body : `${subject}\n${body}`,
        ...whose,
      });
  }

  /** A notice (or a set's notices of the minute) to one browser: the console page it leads to opens on a tap. */
  async function sendPush(target: string, rows: DeliveryRow[]): Promise<number> {
    if (!opts.push) throw new Error('push is not available');
    const parsed = rows.map(
      (r) => JSON.parse(r.payload) as { kind: NoticeKind; facts: NoticeFacts; language: string; timeZone: string },
    );
    const notices = parsed.map((p) =>
      renderNotice(p.kind, { ...p.facts, timeZone: p.facts.timeZone ?? p.timeZone }, p.language),
    );
    const first = parsed[0]!;
    const urgent = parsed.some((p) => p.kind === 'alarm.raised' && stopsTheSet(p.facts.level));
    const push = opts.push;
    const send = () =>
      push.send(
        Number(target),
        {
          title:
            notices.length === 1 ? notices[0]!.title : renderGroupTitle(first.facts, notices.length, first.language),
          body: notices.map((n) => n.text).join('\n'),
          url: notices[0]!.link ?? '/message',
          // one notification per set on the device: the next replaces it
          tag: first.facts.token ? `set:${String(first.facts.token)}` : `event:${rows[0]!.event_id}`,
        },
        { urgency: urgent ? 'high' : 'normal', ttlSeconds: WEBHOOK_RETRY_HOURS * 3600 },
      );
    // its row in the company's delivery log, when there is one
    return opts.track
      ? opts.track(
          { channel: 'push', to: target, purpose: 'notice', companyId: rows[0]!.company_id, userId: rows[0]!.user_id },
          'webpush',
          send,
        )
      : send();
  }

  async function postWebhook(row: DeliveryRow): Promise<number> {
    const hook = row.webhook_id
      ? await db.selectFrom('webhook').selectAll().where('id', '=', row.webhook_id).executeTakeFirst()
      : undefined;
    if (!hook) throw new Error('the webhook was deleted');
    const p = JSON.parse(row.payload) as { kind: NoticeKind; facts: NoticeFacts };
    const timestamp = String(Math.floor(now() / 1000));
    const en = renderNotice(p.kind, p.facts, 'en-US');
    const body = JSON.stringify({
      id: row.event_id,
      event: p.kind,
      occurredAt: typeof p.facts.ts === 'number' ? p.facts.ts : row.created_at,
      set: p.facts.token ? { token: p.facts.token, name: p.facts.set ?? null } : null,
      title: en.title,
      text: en.text,
      data: p.facts,
    });
    const status = await opts.postWebhook(hook.url, {
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'genset-cloud-webhook/1',
        [WEBHOOK_HEADERS.event]: p.kind,
        [WEBHOOK_HEADERS.delivery]: String(row.id),
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.signature]: signWebhook(hook.secret, timestamp, body),
      },
    });
    if (status < 200 || status > 299) {
      throw Object.assign(new Error(`the receiver answered ${status}`), { responseStatus: status });
    }
    return status;
  }

  async function sendDue() {
    const t = now();
    const due = await db
      .selectFrom('notification_delivery')
      .select([
        'id',
        'event_id',
        'channel',
        'target',
        'group_key',
        'payload',
        'attempts',
        'created_at',
        'webhook_id',
        'company_id',
        'user_id',
      ])
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('not_before', '<=', t)]),
          eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', t)]),
        ]),
      )
      .orderBy('id')
      .limit(200)
      .execute();
    const groups = new Map<string, DeliveryRow[]>();
    for (const row of due) {
      const r = { ...row, created_at: Number(row.created_at) };
      const list = groups.get(row.group_key);
      if (list) list.push(r);
      else groups.set(row.group_key, [r]);
    }
    // a few at a time: a slow receiver holds up only its own message
    const queue = [...groups.values()];
    const workers = Array.from({ length: Math.min(8, queue.length) }, async () => {
      for (let g = queue.shift(); g; g = queue.shift()) await sendGroup(g);
    });
    await Promise.all(workers);
  }

  async function tick() {
    if (!(await holdLease(db, LEASE, holder, LEASE_TTL_MS, now()))) return;
    await opts.beforeRound?.(now());
    const touched = await dispatch();
    if (touched.size) opts.bus.publish('notice', { unread: Object.fromEntries(touched) });
    await sendDue();
  }

  /** Runs a round now (or right after the one running). */
  function kick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await tick();
        } while (again && !closed);
      } catch (err) {
        log.warn({ err }, 'notification round failed');
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    holder,
    start() {
      const every = opts.tickMs ?? 1000;
      const loop = () => {
        timer = setTimeout(() => void kick().finally(() => !closed && loop()), every);
        timer.unref();
      };
      loop();
    },
    kick,
    /** A round of dispatching and sending, awaited (tests, and callers that just recorded an event). */
    runOnce: () => kick(),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
      await releaseLease(db, LEASE, holder).catch(() => undefined);
    },
  };
}
export type NotificationEngine = ReturnType<typeof createNotificationEngine>;

function renderGroupTitle(facts: NoticeFacts, count: number, language: string) {
  return translate(pickLanguage(language), 'notice.group.title', { set: String(facts.set ?? ''), count });
}
