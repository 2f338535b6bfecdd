// Firmware upgrades over the air: the files of a company, their assignment to sets as campaigns, the
// dispatcher that starts each set's upgrade on its module (at most `concurrency` downloading at once per
// campaign, only within the maintenance window, only while the module is connected) and the module's progress
// replies that move each job along. The dispatcher runs on one instance of the deployment at a time (job lease
// 'ota'); replies reach every instance and move a job only forward, so any instance may record them.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ALL_PERMISSIONS,
  OTA_CANCELLABLE_STATES,
  OTA_OPEN_STATES,
  Permission,
  ResultCode,
  hasAnyPermission,
  otaAssignRequest,
  otaSpecState,
  type Language,
  type ModemReply,
  type ModemRequest,
  type OtaAssignRequest,
  type OtaFile,
  type OtaJobState,
  type OtaUploadFields,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { holdLease } from '../../lib/job-lease.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import { atLeast, type Fleet, type GensetRow } from '../devices/fleet.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import type { DeviceTransport } from '../devices/transport.ts';
import type { FirmwareStore, IncomingFirmware } from './files.ts';
import { createOtaRepository } from './repository.ts';

const LEASE = 'ota';
/** Order of the states a job goes through; a reply never moves a job back. */
const RANK: Record<OtaJobState, number> = {
  queued: 0,
  initiated: 1,
  downloading: 2,
  downloaded: 3,
  verified: 4,
  updating: 5,
  updated: 6,
  failed: 7,
  cancelled: 7,
};
const ACTIVE: readonly OtaJobState[] = ['initiated', 'downloading'];
/** How long a module has for a whole upgrade request (download, check, install, reconnect). */
const REQUEST_TIMEOUT_MS = 600_000;

export interface OtaServiceOptions {
  db: Db;
  fleet: Fleet;
  transport: DeviceTransport;
  bus: RealtimeBus;
  store: FirmwareStore;
  log: FastifyBaseLogger;
  /** Address the modules download from, e.g. https://console.example.com (the route's path is added). */
  downloadBase: () => string;
  /** A download that has not moved for this long fails (the module stopped answering). */
  stallMs: number;
  /** Downloaded but not updated after this long: failed. */
  updateWaitMs: number;
  holder?: string;
  now?: () => number;
}

/** The server's own reasons are message keys, worded in the reader's language; a module's are its own words. */
export function reasonText(lang: Language, reason: string): string {
  return reason.startsWith('ota.') ? translate(lang, reason) : reason;
}

export function createOtaService(opts: OtaServiceOptions) {
  const { db, fleet, transport, bus, store, log } = opts;
  const repo = createOtaRepository(db);
  const now = opts.now ?? Date.now;
  const holder = opts.holder ?? `ota-${process.pid}-${randomUUID().slice(0, 8)}`;

  function requireOta(ctx: SessionContext) {
    if (!hasAnyPermission(ctx.grant.permissions, [Permission.otaManage])) throw forbidden();
  }

  /** Tells the consoles of the job's company where it is now. */
  async function announce(jobId: number) {
    const row = await repo.jobById(jobId);
    if (!row) return;
    bus.publish('ota', { companyId: row.company_id, job: repo.toJob(row, (r) => r) });
  }

  async function managedSet(ctx: SessionContext, token: string) {
    const set = await fleet.byToken(token);
    if (!set) throw new AppError(ResultCode.notFound, 'ota.setNotFound', { set: token.slice(0, 64) });
    const rights = await fleet.rightsOn(ctx.user, ctx.grant, set);
    if (!rights) throw new AppError(ResultCode.notFound, 'ota.setNotFound', { set: token.slice(0, 64) });
    if (!atLeast(rights, 'manage')) throw new AppError(ResultCode.forbidden, 'ota.notManager', { set: set.name });
    return set;
  }

  /** Model a set's firmware of this target must be for: its module's reported model, or its controller protocol. */
  async function modelsOf(gensetIds: number[]) {
    if (gensetIds.length === 0) return new Map<number, { module: string; controller: string; modemKey: string }>();
    const rows = await db
      .selectFrom('genset as g')
      .innerJoin('modem as m', 'm.id', 'g.modem_id')
      .select(['g.id', 'm.model', 'g.protocol_key', 'm.modem_key'])
      .where('g.id', 'in', gensetIds)
      .execute();
    return new Map(rows.map((r) => [r.id, { module: r.model, controller: r.protocol_key, modemKey: r.modem_key }]));
  }

  async function tick(): Promise<number> {
    const t = now();
    if (!(await holdLease(db, LEASE, holder, 60_000, t))) return 0;
    // Downloads that stopped moving and upgrades that never finished.
    const stalled = await db
      .selectFrom('ota_job')
      .select(['id', 'state'])
      .where((eb) =>
        eb.or([
          eb.and([eb('state', 'in', ACTIVE), eb('updated_at', '<', t - opts.stallMs)]),
          eb.and([
            eb('state', 'in', ['downloaded', 'verified', 'updating']),
            eb('updated_at', '<', t - opts.updateWaitMs),
          ]),
        ]),
      )
      .execute();
    for (const job of stalled) {
      const reason = ACTIVE.includes(job.state as OtaJobState) ? 'ota.reason.stalled' : 'ota.reason.noUpdate';
      if (await repo.move(job.id, [job.state as OtaJobState], 'failed', { reason, now: t })) await announce(job.id);
    }
    // Start what the campaigns allow.
    const campaigns = await db
      .selectFrom('ota_campaign as c')
      .innerJoin('ota_file as f', 'f.id', 'c.file_id')
      .select([
        'c.id',
        'c.concurrency',
        'c.window_start',
        'c.window_end',
        'f.id as file_id',
        'f.version',
        'f.sha256',
        'f.size',
        'f.target',
      ])
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('ota_job')
            .select('id')
            .whereRef('ota_job.campaign_id', '=', 'c.id')
            .where('ota_job.state', '=', 'queued'),
        ),
      )
      .execute();
    let started = 0;
    for (const c of campaigns) {
      if (!inWindow(c.window_start, c.window_end, t)) continue;
      const active = await db
        .selectFrom('ota_job')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('campaign_id', '=', c.id)
        .where('state', 'in', ACTIVE)
        .executeTakeFirstOrThrow();
      let slots = c.concurrency - Number(active.n);
      if (slots <= 0) continue;
      const queued = await db
        .selectFrom('ota_job as j')
        .innerJoin('modem as m', 'm.id', 'j.modem_id')
        .innerJoin('genset as g', 'g.id', 'j.genset_id')
        .select(['j.id', 'm.modem_key', 'm.firmware', 'g.port', 'g.address'])
        .where('j.campaign_id', '=', c.id)
        .where('j.state', '=', 'queued')
        .orderBy('j.id')
        .execute();
      for (const job of queued) {
        if (slots <= 0) break;
        // a module away waits in the queue; it is started once it is back
        if (!transport.connected(job.modem_key)) continue;
        const requestId = randomUUID();
        const token = randomBytes(24).toString('base64url');
        const moved = await db
          .updateTable('ota_job')
          .set({
            state: 'initiated',
            request_id: requestId,
            download_token: token,
            from_version: job.firmware,
            progress: 0,
            started_at: t,
            updated_at: t,
          })
          .where('id', '=', job.id)
          .where('state', '=', 'queued')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) continue;
        slots -= 1;
        started += 1;
        const request: ModemRequest = {
          id: requestId,
          kind: 'ota',
          url: `${opts.downloadBase().replace(/\/+$/, '')}/yewu/ota/download/${token}`,
          version: c.version,
          sha256: c.sha256,
          size: Number(c.size),
          target: c.target === 'controller' ? 'controller' : 'module',
          ...(c.target === 'controller' ? { port: job.port, address: job.address } : {}),
          timeoutMs: REQUEST_TIMEOUT_MS,
        };
        try {
          await transport.publish(job.modem_key, 'request', JSON.stringify(request));
        } catch (err) {
          log.warn({ err, modem: job.modem_key }, 'upgrade request not sent');
          await repo.move(job.id, ['initiated'], 'queued', { now: t });
        }
        await announce(job.id);
      }
    }
    return started;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  return {
    holder,
    tick,
    /** Runs a round soon (after an assignment or a reply that freed a slot) rather than at the next tick. */
    kick() {
      running = running.then(() => tick().catch((err: unknown) => log.warn({ err }, 'upgrade dispatcher failed')));
    },
    start(tickMs: number) {
      const round = () => this.kick();
      round();
      timer = setInterval(round, tickMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },

    async upload(
      ctx: SessionContext,
      fields: OtaUploadFields & { sha256?: string; md5?: string },
      file: IncomingFirmware,
    ) {
      requireOta(ctx);
      try {
        if (file.size === 0) throw new AppError(ResultCode.invalid, 'ota.emptyFile');
        if (fields.sha256 && fields.sha256 !== file.sha256)
          throw new AppError(ResultCode.invalid, 'ota.hashMismatch', { hash: 'SHA-256' });
        if (fields.md5 && fields.md5 !== file.md5)
          throw new AppError(ResultCode.invalid, 'ota.hashMismatch', { hash: 'MD5' });
      } catch (err) {
        await store.discard(file);
        throw err;
      }
      const storedName = await store.keep(file);
      try {
        const row = await db
          .insertInto('ota_file')
          .values({
            company_id: ctx.user.company_id,
            name: fields.name,
            version: fields.version,
            target: fields.target,
            model: fields.model,
            size: file.size,
            md5: file.md5,
            sha256: file.sha256,
            stored_name: storedName,
            created_by: ctx.user.id,
            created_at: now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: row.id, size: file.size, md5: file.md5, sha256: file.sha256 };
      } catch (err) {
        await store.remove(storedName);
        throw err;
      }
    },

    async files(ctx: SessionContext): Promise<OtaFile[]> {
      requireOta(ctx);
      const [files, counts] = await Promise.all([repo.files(ctx.user.company_id), repo.jobCounts(ctx.user.company_id)]);
      return files.map((f) => {
        const c = { notDownloaded: 0, downloaded: 0, updated: 0, failed: 0 };
        let inUse = false;
        for (const row of counts) {
          if (row.file_id !== f.id) continue;
          const state = row.state as OtaJobState;
          const n = Number(row.n);
          if (OTA_OPEN_STATES.includes(state)) inUse = true;
          if (state === 'failed' || state === 'cancelled') c.failed += n;
          else c[otaSpecState(state)] += n;
        }
        return {
          id: f.id,
          name: f.name,
          version: f.version,
          target: f.target === 'controller' ? 'controller' : 'module',
          model: f.model,
          size: Number(f.size),
          md5: f.md5,
          sha256: f.sha256,
          createdAt: Number(f.created_at),
          counts: c,
          inUse,
        };
      });
    },

    async deleteFile(ctx: SessionContext, id: number) {
      requireOta(ctx);
      const file = await repo.fileById(ctx.user.company_id, id);
      if (!file) throw notFound();
      if (await repo.fileInUse(id)) throw new AppError(ResultCode.conflict, 'ota.fileInUse', { name: file.name });
      await db.deleteFrom('ota_file').where('id', '=', id).execute();
      await store.remove(file.stored_name);
    },

    async assign(ctx: SessionContext, input: z.output<typeof otaAssignRequest> | OtaAssignRequest) {
      requireOta(ctx);
      const req = otaAssignRequest.parse(input);
      const file = await repo.fileById(ctx.user.company_id, req.fileId);
      if (!file) throw notFound();
      const sets: GensetRow[] = [];
      if (req.allOfModel) {
        const all = ctx.grant.permissions.includes(ALL_PERMISSIONS);
        const candidates = await db
          .selectFrom('genset as g')
          .innerJoin('modem as m', 'm.id', 'g.modem_id')
          .selectAll('g')
          .where('g.deleted_at', 'is', null)
          .where(file.target === 'controller' ? 'g.protocol_key' : 'm.model', '=', file.model)
          .$if(!all, (q) =>
            q.where((eb) =>
              eb.or([
                eb('g.company_id', '=', ctx.user.company_id),
                eb('g.owner_user_id', '=', ctx.user.id),
                eb('g.id', 'in', eb.selectFrom('subscription').select('genset_id').where('user_id', '=', ctx.user.id)),
              ]),
            ),
          )
          .orderBy('g.id')
          .execute();
        for (const set of candidates) {
          if (atLeast(await fleet.rightsOn(ctx.user, ctx.grant, set), 'manage')) sets.push(set);
        }
      }
      for (const token of new Set(req.tokens ?? [])) {
        const set = await managedSet(ctx, token);
        if (!sets.some((s) => s.id === set.id)) sets.push(set);
      }
      if (sets.length === 0) throw new AppError(ResultCode.invalid, 'ota.noSets', { model: file.model });
      const models = await modelsOf(sets.map((s) => s.id));
      for (const set of sets) {
        const m = models.get(set.id);
        if (!m) throw new AppError(ResultCode.invalid, 'ota.noModule', { set: set.name });
        const model = file.target === 'controller' ? m.controller : m.module;
        if (model !== file.model) {
          throw new AppError(ResultCode.invalid, 'ota.wrongModel', {
            set: set.name,
            model: model || '?',
            fileModel: file.model,
          });
        }
      }
      const busy = await repo.busySets(sets.map((s) => s.id));
      const first = sets.find((s) => busy.has(s.id));
      if (first) throw new AppError(ResultCode.conflict, 'ota.setBusy', { set: first.name });
      const t = now();
      const campaignId = await db.transaction().execute(async (trx) => {
        const campaign = await trx
          .insertInto('ota_campaign')
          .values({
            file_id: file.id,
            company_id: ctx.user.company_id,
            concurrency: req.concurrency,
            window_start: req.window && req.window.startHour !== req.window.endHour ? req.window.startHour : null,
            window_end: req.window && req.window.startHour !== req.window.endHour ? req.window.endHour : null,
            created_by: ctx.user.id,
            created_at: t,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('ota_job')
          .values(
            sets.map((set) => ({
              campaign_id: campaign.id,
              file_id: file.id,
              genset_id: set.id,
              modem_id: set.modem_id!,
              state: 'queued',
              progress: 0,
              reason: '',
              from_version: '',
              request_id: null,
              download_token: null,
              created_at: t,
              started_at: null,
              updated_at: t,
              finished_at: null,
            })),
          )
          .execute();
        return campaign.id;
      });
      const created = await db.selectFrom('ota_job').select('id').where('campaign_id', '=', campaignId).execute();
      for (const job of created) await announce(job.id);
      this.kick();
      return { campaignId, jobs: sets.length };
    },

    async jobs(
      ctx: SessionContext,
      query: { fileId?: number | undefined; token?: string | undefined },
      lang: Language,
    ) {
      let q = repo.jobs();
      if (query.token) {
        const set = await fleet.byToken(query.token);
        const rights = set ? await fleet.rightsOn(ctx.user, ctx.grant, set) : null;
        if (!set || !rights) throw notFound();
        q = q.where('j.genset_id', '=', set.id);
      } else {
        requireOta(ctx);
        if (query.fileId === undefined)
          throw new AppError(
            ResultCode.invalid,
            'errors.validation',
            {},
            {
              fieldErrors: [{ field: 'fileId', rule: 'validation.required' }],
            },
          );
        q = q.where('j.file_id', '=', query.fileId).where('f.company_id', '=', ctx.user.company_id);
      }
      const rows = await q.orderBy('j.id', 'desc').limit(1000).execute();
      return rows.map((r) => repo.toJob(r, (reason) => reasonText(lang, reason)));
    },

    async cancel(ctx: SessionContext, id: number) {
      requireOta(ctx);
      const row = await repo.jobById(id);
      if (!row || row.company_id !== ctx.user.company_id) throw notFound();
      const moved = await repo.move(id, OTA_CANCELLABLE_STATES, 'cancelled', {
        reason: 'ota.reason.cancelled',
        now: now(),
      });
      if (!moved) throw new AppError(ResultCode.conflict, 'ota.cannotCancel');
      // Its download address stops working at once; the module's download fails and it keeps its version.
      await announce(id);
      this.kick();
    },

    /** The file a download address may fetch now: only while its upgrade is downloading. */
    async download(token: string) {
      const row = await db
        .selectFrom('ota_job as j')
        .innerJoin('ota_file as f', 'f.id', 'j.file_id')
        .select(['j.id', 'f.stored_name', 'f.size', 'f.sha256'])
        .where('j.download_token', '=', token)
        .where('j.state', 'in', ACTIVE)
        .executeTakeFirst();
      if (!row) return null;
      return { path: store.pathOf(row.stored_name), size: Number(row.size), sha256: row.sha256 };
    },

    /** A module's reply: moves its job along (never back), with progress and reason. */
    async receive(modemKey: string, reply: ModemReply) {
      const row = await repo.jobByRequest(reply.id);
      if (!row) return;
      const modem = await db.selectFrom('modem').select('modem_key').where('id', '=', row.modem_id).executeTakeFirst();
      if (modem?.modem_key !== modemKey) return;
      const current = row.state as OtaJobState;
      const open = OTA_OPEN_STATES.filter((s) => s !== 'queued');
      const t = now();
      let moved: boolean;
      if (!reply.ok) {
        moved = await repo.move(row.id, open, 'failed', { reason: reply.error ?? 'failed', now: t });
      } else {
        const next = stateOf(reply);
        if (!next || RANK[next] < RANK[current]) return;
        const progress =
          next === 'downloading'
            ? (reply.progress?.percent ?? Number(row.progress))
            : RANK[next] >= RANK.downloaded
              ? 100
              : 0;
        const from = open.filter((s) => RANK[s] <= RANK[next]);
        moved = await repo.move(row.id, from, next, { progress, now: t });
      }
      if (!moved) return;
      await announce(row.id);
      if (RANK[current] <= RANK.downloading) this.kick();
    },
  };
}
export type OtaService = ReturnType<typeof createOtaService>;

function stateOf(reply: ModemReply): OtaJobState | null {
  switch (reply.progress?.stage) {
    case 'accepted':
      return 'initiated';
    case 'downloading':
    case 'verifying':
      return 'downloading';
    case 'downloaded':
      return 'downloaded';
    case 'verified':
      return 'verified';
    case 'installing':
    case 'updating':
    case 'rebooting':
      return 'updating';
    case 'updated':
    case 'done':
      return 'updated';
    case 'failed':
      return null;
    default:
      return null;
  }
}

/** Whether the hour now (UTC) lies in the window [start, end); a window may run over midnight. */
export function inWindow(start: number | null, end: number | null, t: number): boolean {
  if (start === null || end === null || start === end) return true;
  const hour = new Date(t).getUTCHours();
  return start < end ? hour >= start && hour < end : hour >= start || hour < end;
}
