// Repair requests. Anyone who sees a set may ask for it to be repaired; the request is then seen by its
// requester and by the service side: users of the set's company whose role has repair:manage (the whole
// company's sets, whatever the role's data scope: the queue is the company's) and the platform. The service
// side moves a request submitted → accepted → in progress → done, or rejects it (with a note) at any step
// before done; every step is kept with its note, who and when, which the requester follows, and goes to the
// set's operation log. Whoever else asks is told the request does not exist.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ALL_PERMISSIONS,
  Permission,
  REPAIR_STATES,
  REPAIR_TRANSITIONS,
  ResultCode,
  canMoveRepair,
  hasAnyPermission,
  type RepairAddFields,
  type RepairDetailResponse,
  type RepairListRequest,
  type RepairListResponse,
  type RepairPicture,
  type RepairState,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import type { Fleet } from '../devices/fleet.ts';
import type { IncomingPicture, PictureStore } from './pictures.ts';

/** What happened, for whoever listens (the notification centre): called after the step is committed. */
export interface RepairEvent {
  kind: 'repair.submitted' | 'repair.state';
  requestId: number;
  gensetId: number;
  gensetName: string;
  requesterId: number;
  companyId: number;
  state: string;
  actorUserId: number;
}
export type RepairEventListener = (event: RepairEvent) => Promise<void> | void;

export interface RepairCaller {
  ctx: SessionContext;
  ip: string;
}

export interface RepairServiceOptions {
  db: Db;
  fleet: Fleet;
  store: PictureStore;
  log: FastifyBaseLogger;
  onEvent?: RepairEventListener;
}

/** The operation-log entry of each state a request goes to. */
const LOG_MATTER: Record<RepairState, string> = {
  submitted: 'log.repairSubmitted',
  accepted: 'log.repairAccepted',
  in_progress: 'log.repairInProgress',
  done: 'log.repairDone',
  rejected: 'log.repairRejected',
};

function isState(value: string): value is RepairState {
  return (REPAIR_STATES as readonly string[]).includes(value);
}

function parsePictures(json: string): RepairPicture[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? (list as RepairPicture[]) : [];
  } catch {
    return [];
  }
}

export function createRepairService(opts: RepairServiceOptions) {
  const { db, fleet, store, log } = opts;
  let listener = opts.onEvent;

  async function emit(event: RepairEvent) {
    if (!listener) return;
    try {
      await listener(event);
    } catch (err) {
      log.error({ err, event }, 'repair event listener failed');
    }
  }

  const mayServe = (ctx: SessionContext) => hasAnyPermission(ctx.grant.permissions, [Permission.repairManage]);
  const isPlatform = (ctx: SessionContext) => ctx.grant.permissions.includes(ALL_PERMISSIONS);

  /** The request rows with their set and requester, as lists and details show them. */
  function requests() {
    return db
      .selectFrom('repair_request as r')
      .innerJoin('genset as g', 'g.id', 'r.genset_id')
      .leftJoin('users as u', 'u.id', 'r.requester_id')
      .select([
        'r.id',
        'r.token',
        'r.genset_id',
        'r.requester_id',
        'r.contact',
        'r.phone',
        'r.address',
        'r.description',
        'r.state',
        'r.pictures',
        'r.created_at',
        'r.updated_at',
        'g.token as set_token',
        'g.name as set_name',
        'g.company_id',
        'u.nickname as requester',
      ]);
  }
  type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof requests>['executeTakeFirst']>>>;

  function item(row: Row) {
    return {
      token: row.token,
      setToken: row.set_token,
      setName: row.set_name,
      requester: row.requester ?? '',
      contact: row.contact,
      phone: row.phone,
      address: row.address,
      description: row.description,
      state: isState(row.state) ? row.state : 'submitted',
      pictures: parsePictures(row.pictures).length,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }

  /** Whether the caller works on the service side of a request of a set of this company. */
  function serves(ctx: SessionContext, companyId: number) {
    return mayServe(ctx) && (isPlatform(ctx) || companyId === ctx.user.company_id);
  }

  /** The request and how the caller stands to it; 404 when it is not theirs to see. */
  async function load(ctx: SessionContext, token: string) {
    const row = await requests().where('r.token', '=', token).executeTakeFirst();
    if (!row) throw notFound();
    const service = serves(ctx, row.company_id);
    if (!service && row.requester_id !== ctx.user.id) throw notFound();
    return { row, service };
  }

  async function page(
    query: RepairListRequest,
    where: (q: ReturnType<typeof requests>) => ReturnType<typeof requests>,
  ): Promise<RepairListResponse> {
    const pageNo = Number(query.page ?? 1);
    const size = Number(query.size ?? 20);
    let q = where(requests());
    if (query.state) q = q.where('r.state', '=', query.state);
    const count = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const rows = await q
      .orderBy('r.updated_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(size)
      .offset((pageNo - 1) * size)
      .execute();
    return { list: rows.map(item), total: Number(count?.n ?? 0), page: pageNo, size };
  }

  return {
    /** Sets (or replaces) the listener of committed steps. */
    setEventListener(fn: RepairEventListener | undefined) {
      listener = fn;
    },

    /**
     * A new request on a set the caller sees, with its pictures (already received and checked by content). The
     * pictures are kept only when everything else is valid; on any refusal they are removed.
     */
    async add(caller: RepairCaller, fields: RepairAddFields, pictures: IncomingPicture[]): Promise<{ token: string }> {
      const { ctx } = caller;
      let kept: Awaited<ReturnType<PictureStore['keep']>> = [];
      let done = false;
      try {
        const set = await fleet.byToken(fields.token);
        if (!set) throw notFound();
        if (!(await fleet.rightsOn(ctx.user, ctx.grant, set))) throw notFound();
        try {
          kept = await store.keep(pictures);
        } catch (err) {
          log.info({ err }, 'repair picture refused: it does not decode');
          throw new AppError(ResultCode.invalid, 'repairs.pictureUnreadable');
        }
        const now = Date.now();
        const token = randomBytes(12).toString('base64url');
        const id = await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('repair_request')
            .values({
              token,
              genset_id: set.id,
              requester_id: ctx.user.id,
              contact: fields.contact,
              phone: fields.phone,
              address: fields.address,
              description: fields.description,
              state: 'submitted',
              pictures: JSON.stringify(kept),
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('repair_event')
            .values({
              request_id: row.id,
              state: 'submitted',
              note: '',
              user_id: ctx.user.id,
              author: ctx.user.nickname,
              created_at: now,
            })
            .execute();
          await writeOperationLog(trx, {
            ctx,
            companyId: set.company_id,
            ip: caller.ip,
            matter: LOG_MATTER.submitted,
            feedback: { request: token, pictures: kept.length },
            target: set.token,
          });
          return row.id;
        });
        done = true;
        await emit({
          kind: 'repair.submitted',
          requestId: id,
          gensetId: set.id,
          gensetName: set.name,
          requesterId: ctx.user.id,
          companyId: set.company_id,
          state: 'submitted',
          actorUserId: ctx.user.id,
        });
        return { token };
      } finally {
        if (!done) {
          await store.discard(pictures);
          await store.remove(kept);
        }
      }
    },

    /** The caller's own requests, latest change first. */
    async my(ctx: SessionContext, query: RepairListRequest): Promise<RepairListResponse> {
      return page(query, (q) => q.where('r.requester_id', '=', ctx.user.id));
    },

    /** The service queue: requests on the sets of the caller's company (the platform: all). */
    async queue(ctx: SessionContext, query: RepairListRequest): Promise<RepairListResponse> {
      if (!mayServe(ctx)) throw forbidden();
      return page(query, (q) => (isPlatform(ctx) ? q : q.where('g.company_id', '=', ctx.user.company_id)));
    },

    async detail(ctx: SessionContext, token: string): Promise<RepairDetailResponse> {
      const { row, service } = await load(ctx, token);
      const events = await db
        .selectFrom('repair_event')
        .select(['state', 'note', 'author', 'created_at'])
        .where('request_id', '=', row.id)
        .orderBy('id')
        .execute();
      const base = item(row);
      return {
        ...base,
        pictureList: parsePictures(row.pictures).map((p) => ({ name: p.name, type: p.type, size: p.size })),
        history: events.map((e) => ({
          state: isState(e.state) ? e.state : 'submitted',
          note: e.note,
          by: e.author,
          at: Number(e.created_at),
        })),
        service,
        next: service ? [...REPAIR_TRANSITIONS[base.state]] : [],
      };
    },

    /** Moves a request to its next state with a note (the service side only; 409 for a step not allowed). */
    async update(caller: RepairCaller, input: { token: string; state: RepairState; note: string }) {
      const { ctx } = caller;
      const { row, service } = await load(ctx, input.token);
      if (!service) throw forbidden();
      const from = isState(row.state) ? row.state : 'submitted';
      const refuse = () =>
        new AppError(ResultCode.conflict, 'repairs.cannotMove', {}, null, (lang) => ({
          params: {
            from: translate(lang, `repairs.state.${from}`),
            to: translate(lang, `repairs.state.${input.state}`),
          },
          data: null,
        }));
      if (!canMoveRepair(from, input.state)) throw refuse();
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('repair_request')
          .set({ state: input.state, updated_at: now })
          .where('id', '=', row.id)
          .where('state', '=', from)
          .executeTakeFirst();
        // someone else moved it meanwhile
        if (Number(moved.numUpdatedRows) !== 1) throw refuse();
        await trx
          .insertInto('repair_event')
          .values({
            request_id: row.id,
            state: input.state,
            note: input.note,
            user_id: ctx.user.id,
            author: ctx.user.nickname,
            created_at: now,
          })
          .execute();
        await writeOperationLog(trx, {
          ctx,
          companyId: row.company_id,
          ip: caller.ip,
          matter: LOG_MATTER[input.state],
          feedback: { request: row.token, note: input.note },
          target: row.set_token,
        });
      });
      await emit({
        kind: 'repair.state',
        requestId: row.id,
        gensetId: row.genset_id,
        gensetName: row.set_name,
        requesterId: row.requester_id,
        companyId: row.company_id,
        state: input.state,
        actorUserId: ctx.user.id,
      });
      return { state: input.state };
    },

    /** Where one picture of a request (or its thumbnail) is, for those who may see the request. */
    async picture(ctx: SessionContext, token: string, name: string, thumb: boolean) {
      const { row } = await load(ctx, token);
      const picture = parsePictures(row.pictures).find((p) => p.name === name);
      if (!picture) throw notFound();
      return store.pathOf(picture, thumb);
    },
  };
}
export type RepairService = ReturnType<typeof createRepairService>;
