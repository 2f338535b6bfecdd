// A company's webhooks: notices posted as signed JSON to addresses its administrators choose. An address must
// be http(s), carry no credentials, and not lead back into this server (nor, unless the deployment allows it,
// into private networks: a webhook must not become a way to reach what only the server can reach).
import { randomBytes } from 'node:crypto';
import {
  WEBHOOKS_PER_COMPANY_MAX,
  type NoticeKind,
  type WebhookDeliveryItem,
  type WebhookItem,
  type WebhookSaveRequest,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { ResultCode } from '@genset/protocol';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { AddressPolicy, OutboundRefusal, OutboundTarget } from '../../lib/address-policy.ts';
import { requestPinned } from '../../lib/outbound-http.ts';
import type { SessionContext } from '../auth/service.ts';

const REFUSALS: Record<OutboundRefusal, string> = {
  self: 'webhook.self',
  private: 'webhook.private',
  reserved: 'webhook.reserved',
  unresolved: 'webhook.unresolved',
};

export interface UrlCheckOptions {
  policy: AddressPolicy;
  /** Private, loopback and this machine's addresses are allowed (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/** The address to post to, or why it is refused (a message key). */
async function webhookTarget(opts: UrlCheckOptions, raw: string): Promise<OutboundTarget | string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'webhook.notHttp';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'webhook.notHttp';
  if (url.username || url.password) return 'webhook.userInfo';
  const checked = await opts.policy.check(url, { allowPrivate: opts.allowPrivate });
  return checked.ok ? checked.target : REFUSALS[checked.reason];
}

/** Why a webhook address is refused (a message key), or null. */
export function createWebhookUrlCheck(opts: UrlCheckOptions) {
  return async function check(raw: string): Promise<string | null> {
    const target = await webhookTarget(opts, raw);
    return typeof target === 'string' ? target : null;
  };
}
export type WebhookUrlCheck = ReturnType<typeof createWebhookUrlCheck>;

/**
 * Posts a webhook: the address is checked again now (names resolve differently over time) and the request goes
 * to exactly the address checked. Throws an error whose message is the refusal's key when refused.
 */
export function createWebhookPoster(opts: UrlCheckOptions) {
  return async function post(
    raw: string,
    init: { headers: Record<string, string>; body: string; timeoutMs: number },
  ): Promise<number> {
    const target = await webhookTarget(opts, raw);
    if (typeof target === 'string') throw new Error(target);
    const res = await requestPinned(new URL(raw), target, { method: 'POST', ...init });
    return res.status;
  };
}
export type WebhookPoster = ReturnType<typeof createWebhookPoster>;

function refused(key: string) {
  return new AppError(ResultCode.invalid, key, {}, { fieldErrors: [{ field: 'url', rule: key }] });
}

export function createWebhookService(deps: { db: Db; check: WebhookUrlCheck }) {
  const { db } = deps;

  async function lastDeliveries(ids: number[]) {
    if (!ids.length) return new Map<number, WebhookItem['lastDelivery']>();
    const rows = await db
      .selectFrom('notification_delivery')
      .select(['webhook_id', 'status', 'created_at', 'sent_at', 'response_status', 'id'])
      .where('webhook_id', 'in', ids)
      .orderBy('id', 'desc')
      .limit(ids.length * 20)
      .execute();
    const out = new Map<number, WebhookItem['lastDelivery']>();
    for (const r of rows) {
      if (r.webhook_id === null || out.has(r.webhook_id)) continue;
      out.set(r.webhook_id, {
        status: r.status,
        at: Number(r.sent_at ?? r.created_at),
        responseStatus: r.response_status,
      });
    }
    return out;
  }

  async function own(companyId: number, id: number) {
    const row = await db
      .selectFrom('webhook')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    if (!row) throw new AppError(ResultCode.notFound, 'webhook.notFound');
    return row;
  }

  return {
    async list(companyId: number): Promise<{ list: WebhookItem[] }> {
      const rows = await db
        .selectFrom('webhook')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('id')
        .execute();
      const last = await lastDeliveries(rows.map((r) => r.id));
      return {
        list: rows.map((r) => ({
          id: r.id,
          name: r.name,
          url: r.url,
          events: JSON.parse(r.events) as NoticeKind[],
          enabled: r.enabled === 1,
          secret: r.secret,
          createdAt: Number(r.created_at),
          lastDelivery: last.get(r.id) ?? null,
        })),
      };
    },

    async save(ctx: SessionContext, companyId: number, ip: string, req: WebhookSaveRequest & { enabled: boolean }) {
      const why = await deps.check(req.url);
      if (why) throw refused(why);
      const now = Date.now();
      const values = {
        name: req.name,
        url: req.url,
        events: JSON.stringify([...new Set(req.events)]),
        enabled: req.enabled ? 1 : 0,
        updated_at: now,
      };
      let id: number;
      if (req.id) {
        await own(companyId, req.id);
        await db.updateTable('webhook').set(values).where('id', '=', req.id).execute();
        id = req.id;
      } else {
        const count = await db
          .selectFrom('webhook')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= WEBHOOKS_PER_COMPANY_MAX)
          throw new AppError(ResultCode.conflict, 'webhook.tooMany', { max: WEBHOOKS_PER_COMPANY_MAX });
        const row = await db
          .insertInto('webhook')
          .values({ ...values, company_id: companyId, secret: randomBytes(24).toString('base64url'), created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = row.id;
      }
      await writeOperationLog(db, {
        ctx,
        companyId,
        ip,
        matter: 'log.webhookSaved',
        feedback: { name: req.name, url: req.url },
        target: `webhook:${id}`,
      });
      return { id };
    },

    async remove(ctx: SessionContext, companyId: number, ip: string, id: number) {
      const row = await own(companyId, id);
      await db.deleteFrom('webhook').where('id', '=', id).execute();
      await writeOperationLog(db, {
        ctx,
        companyId,
        ip,
        matter: 'log.webhookDeleted',
        feedback: { name: row.name },
        target: `webhook:${id}`,
      });
      return { id };
    },

    async deliveries(companyId: number, id: number): Promise<{ list: WebhookDeliveryItem[] }> {
      await own(companyId, id);
      const rows = await db
        .selectFrom('notification_delivery as d')
        .innerJoin('notification_event as e', 'e.id', 'd.event_id')
        .select([
          'd.id',
          'e.kind',
          'd.status',
          'd.attempts',
          'd.response_status',
          'd.last_error',
          'd.created_at',
          'd.sent_at',
          'd.not_before',
        ])
        .where('d.webhook_id', '=', id)
        .orderBy('d.id', 'desc')
        .limit(100)
        .execute();
      return {
        list: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          status: r.status as WebhookDeliveryItem['status'],
          attempts: r.attempts,
          responseStatus: r.response_status,
          lastError: r.last_error,
          createdAt: Number(r.created_at),
          sentAt: r.sent_at === null ? null : Number(r.sent_at),
          nextAttemptAt: r.status === 'pending' ? Number(r.not_before) : null,
        })),
      };
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
