// Commands to a whole group, run by the server: one call records the job (the command, the group, each set in
// the group's order with its part), the runner sends it set by set through the set's own command path (a
// parallel group's sets at once, as they start together onto their bus), and each set's outcome is stored and
// written to the operation log with the set's name, then one entry for the group. The job outlives the page that
// asked and a restart: the runner holds the job lease 'group-commands' (one instance of a deployment at a time)
// and takes up the jobs still running. A set whose command was on the way when its instance stopped is not sent
// it again (its outcome is unknown): it is failed with that reason, and the sets still waiting are sent theirs.
// A set the caller may not control is refused, the others carry on.
import { randomUUID } from 'node:crypto';
import {
  ResultCode,
  checkCommandPreconditions,
  findCommand,
  planCommandWrites,
  type GroupCommandJob,
  type GroupCommandRequest,
  type GroupCommandSetState,
  type GroupKind,
  type Language,
  type ProtocolText,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { GroupCommandTable } from '../../db/schema.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { holdLease, releaseLease } from '../../lib/job-lease.ts';
import { writeOperationLog, writeSetLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import { grantOf } from '../account/service.ts';
import type { SessionContext } from '../auth/service.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { DeviceService } from '../devices/service.ts';
import { atLeast, type GensetRow } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { GroupService } from './service.ts';

const LEASE = 'group-commands';
const LEASE_TTL_MS = 30_000;
export const GROUP_COMMAND_TICK_MS = 2000;

type JobRow = Selectable<GroupCommandTable>;
/** A parameter of an outcome: a value, or a text in each language (a controller protocol's reason). */
type Param = string | number | Partial<Record<Language, string>>;

interface Outcome {
  state: Exclude<GroupCommandSetState, 'pending' | 'sending'>;
  code: number;
  message: string;
  params: Record<string, Param>;
}

export interface GroupCommandOptions {
  db: Db;
  groups: GroupService;
  devices: DeviceService;
  protocols: ProtocolStore;
  log: FastifyBaseLogger;
  holder?: string;
}

/** An outcome's message in the reader's language; a parameter given in every language is taken in theirs. */
function outcomeText(lang: Language, message: string | null, params: string): string {
  if (!message) return '';
  const raw = JSON.parse(params) as Record<string, Param>;
  const worded: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(raw))
    worded[key] = typeof value === 'object' ? (value[lang] ?? value['en-US'] ?? '') : value;
  return translate(lang, message, worded);
}

export function createGroupCommands(opts: GroupCommandOptions) {
  const { db, groups, devices, protocols, log } = opts;
  const holder = opts.holder ?? `group-commands-${process.pid}-${randomUUID().slice(0, 8)}`;
  /** Jobs this instance is running now. */
  const active = new Set<number>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  /** The command as the set's protocol defines it, and its title in every language. */
  async function commandOf(protocolKey: string, action: string) {
    const protocol = await protocols.get(protocolKey);
    return protocol ? findCommand(protocol.doc, action) : undefined;
  }

  /** The person who gave the command, as the runner acts for them (their role's grant, no session). */
  async function actorOf(userId: number): Promise<SessionContext | null> {
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!user || user.status !== 'active') return null;
    const role = user.role_id
      ? await db.selectFrom('role').selectAll().where('id', '=', user.role_id).executeTakeFirst()
      : undefined;
    return { sessionId: 0, user, grant: grantOf(role) };
  }

  async function settle(jobId: number, gensetId: number, outcome: Outcome, from: GroupCommandSetState[]) {
    const result = await db
      .updateTable('group_command_set')
      .set({
        state: outcome.state,
        code: outcome.code,
        message: outcome.message,
        params: JSON.stringify(outcome.params),
        updated_at: Date.now(),
      })
      .where('job_id', '=', jobId)
      .where('genset_id', '=', gensetId)
      .where('state', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The set's entry in the operation log for an outcome decided here (the command path writes its own). */
  async function logSet(
    ctx: SessionContext,
    job: JobRow,
    set: { company_id: number; token: string; name: string },
    outcome: string,
    title?: ProtocolText,
  ) {
    await writeSetLog(db, {
      ctx,
      ip: job.ip,
      matter: 'log.groupCommandSet',
      feedback: {
        command: job.command,
        ...(title ? { title } : {}),
        set: set.name,
        group: job.group_name,
        job: job.id,
        outcome,
      },
      set,
    });
  }

  /** One set's command, through the set's own command path (precondition, module, controller, timeout). */
  async function runSet(ctx: SessionContext, job: JobRow, gensetId: number, name: string): Promise<void> {
    const claimed = await db
      .updateTable('group_command_set')
      .set({ state: 'sending', updated_at: Date.now() })
      .where('job_id', '=', job.id)
      .where('genset_id', '=', gensetId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return;
    const set: GensetRow | undefined = await db
      .selectFrom('genset')
      .selectAll()
      .where('id', '=', gensetId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!set) {
      const gone = await db
        .selectFrom('genset')
        .select(['company_id', 'token', 'name'])
        .where('id', '=', gensetId)
        .executeTakeFirst();
      if (gone) await logSet(ctx, job, gone, 'refused');
      await settle(
        job.id,
        gensetId,
        { state: 'refused', code: ResultCode.notFound, message: 'groups.command.setGone', params: { set: name } },
        ['sending'],
      );
      return;
    }
    const command = await commandOf(set.protocol_key, job.command);
    if (!command) {
      await logSet(ctx, job, set, 'refused');
      await settle(
        job.id,
        gensetId,
        {
          state: 'refused',
          code: ResultCode.invalid,
          message: 'errors.commandUnknown',
          params: { action: job.command },
        },
        ['sending'],
      );
      return;
    }
    const snapshot = await devices.snapshot(set.id);
    const refusal = checkCommandPreconditions(command, snapshot?.monitor.values ?? {});
    if (refusal) {
      await logSet(ctx, job, set, 'refused', command.title);
      await settle(
        job.id,
        gensetId,
        { state: 'refused', code: ResultCode.conflict, message: 'errors.commandRefused', params: { reason: refusal } },
        ['sending'],
      );
      return;
    }
    let outcome: Outcome;
    try {
      await devices.dispatch(ctx, set, {
        name: command.key,
        request: { kind: 'write', port: set.port, address: set.address, writes: planCommandWrites(command) },
        matter: 'log.groupCommandSet',
        feedback: { command: command.key, title: command.title, set: set.name, group: job.group_name, job: job.id },
        ip: job.ip,
        lang: job.lang as Language,
      });
      outcome = { state: 'ok', code: ResultCode.ok, message: 'success.operation', params: {} };
    } catch (err) {
      if (err instanceof AppError) outcome = { state: 'failed', code: err.code, message: err.key, params: err.params };
      else {
        log.error({ err, job: job.id, set: set.id }, 'group command to a set failed');
        await logSet(ctx, job, set, 'error', command.title);
        outcome = { state: 'failed', code: ResultCode.error, message: 'groups.command.notSent', params: {} };
      }
    }
    await settle(job.id, gensetId, outcome, ['sending']);
  }

  /** Runs a job's waiting sets (a parallel group's at once, a multi-set group's one after the other), then ends it. */
  async function runJob(job: JobRow): Promise<void> {
    const members = await db
      .selectFrom('group_command_set')
      .select(['genset_id', 'set_name', 'state'])
      .where('job_id', '=', job.id)
      .orderBy('position')
      .execute();
    const ctx = await actorOf(job.user_id);
    // who the log names: the giver, even when their account is no longer active
    const actor = ctx ?? (await anyActor(job.user_id));
    // Sets whose command was on the way when the instance running the job stopped: not sent twice.
    for (const m of members.filter((m) => m.state === 'sending')) {
      if (
        (await settle(
          job.id,
          m.genset_id,
          {
            state: 'failed',
            code: ResultCode.deviceTimeout,
            message: 'groups.command.interrupted',
            params: { set: m.set_name },
          },
          ['sending'],
        )) &&
        actor
      ) {
        const set = await db
          .selectFrom('genset')
          .select(['company_id', 'token', 'name'])
          .where('id', '=', m.genset_id)
          .executeTakeFirst();
        if (set) await logSet(actor, job, set, 'interrupted');
      }
    }
    const waiting = members.filter((m) => m.state === 'pending');
    if (!ctx) {
      for (const m of waiting) {
        const refused = await settle(
          job.id,
          m.genset_id,
          { state: 'refused', code: ResultCode.forbidden, message: 'groups.command.actorGone', params: {} },
          ['pending'],
        );
        const set = await db
          .selectFrom('genset')
          .select(['company_id', 'token', 'name'])
          .where('id', '=', m.genset_id)
          .executeTakeFirst();
        if (refused && actor && set) await logSet(actor, job, set, 'refused');
      }
    } else if ((job.kind as GroupKind) === 'parallel') {
      await Promise.all(waiting.map((m) => runSet(ctx, job, m.genset_id, m.set_name)));
    } else {
      for (const m of waiting) {
        if (stopped) return;
        await runSet(ctx, job, m.genset_id, m.set_name);
      }
    }
    if (stopped) return;
    const outcomes = await db.selectFrom('group_command_set').select('state').where('job_id', '=', job.id).execute();
    if (outcomes.some((o) => o.state === 'pending' || o.state === 'sending')) return;
    const ended = await db
      .updateTable('group_command')
      .set({ state: 'done', finished_at: Date.now() })
      .where('id', '=', job.id)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) === 0) return;
    const count = (state: string) => outcomes.filter((o) => o.state === state).length;
    const first = await db
      .selectFrom('genset')
      .select('protocol_key')
      .where('id', '=', members[0]?.genset_id ?? 0)
      .executeTakeFirst();
    const title = first ? (await commandOf(first.protocol_key, job.command))?.title : undefined;
    const groupToken = await db
      .selectFrom('genset_group')
      .select('token')
      .where('id', '=', job.group_id)
      .executeTakeFirst();
    if (actor)
      await writeOperationLog(db, {
        ctx: actor,
        companyId: job.company_id,
        ip: job.ip,
        matter: 'log.groupCommand',
        feedback: {
          command: job.command,
          ...(title ? { title } : {}),
          group: job.group_name,
          job: job.id,
          sets: outcomes.length,
          ok: count('ok'),
          failed: count('failed'),
          refused: count('refused'),
        },
        target: `group:${groupToken?.token ?? job.group_id}`,
      });
  }

  /** The giver of a job as the log names them, even when their account is no longer active. */
  async function anyActor(userId: number): Promise<SessionContext | null> {
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    return user ? { sessionId: 0, user, grant: grantOf(null) } : null;
  }

  /** One round: holding the lease, takes up every running job this instance is not running yet. */
  async function tick(): Promise<number> {
    if (stopped) return 0;
    if (!(await holdLease(db, LEASE, holder, LEASE_TTL_MS))) return 0;
    const jobs = await db
      .selectFrom('group_command')
      .selectAll()
      .where('state', '=', 'running')
      .orderBy('id')
      .execute();
    let taken = 0;
    for (const job of jobs) {
      if (active.has(job.id)) continue;
      active.add(job.id);
      taken++;
      const run = runJob(job)
        .catch((err: unknown) => log.error({ err, job: job.id }, 'group command failed'))
        .finally(() => {
          active.delete(job.id);
          running.delete(run);
        });
      running.add(run);
    }
    return taken;
  }

  const kick = () => void tick().catch((err: unknown) => log.warn({ err }, 'group commands not taken up'));

  async function view(job: JobRow, groupToken: string, lang: Language): Promise<GroupCommandJob> {
    const sets = await db
      .selectFrom('group_command_set as c')
      .innerJoin('genset as g', 'g.id', 'c.genset_id')
      .select(['g.token', 'g.protocol_key', 'c.set_name', 'c.state', 'c.message', 'c.params', 'c.updated_at'])
      .where('c.job_id', '=', job.id)
      .orderBy('c.position')
      .execute();
    const by = await db
      .selectFrom('users')
      .select(['nickname', 'account'])
      .where('id', '=', job.user_id)
      .executeTakeFirst();
    let title = job.command;
    for (const s of sets) {
      const command = await commandOf(s.protocol_key, job.command);
      if (command) {
        title = command.title[lang];
        break;
      }
    }
    return {
      id: job.id,
      group: groupToken,
      groupName: job.group_name,
      kind: job.kind as GroupKind,
      command: job.command,
      title,
      by: by?.nickname || by?.account || '',
      state: job.state === 'done' ? 'done' : 'running',
      createdAt: job.created_at,
      finishedAt: job.finished_at,
      sets: sets.map((s) => ({
        token: s.token,
        name: s.set_name,
        state: s.state as GroupCommandSetState,
        text: outcomeText(lang, s.message, s.params),
        updatedAt: s.updated_at,
      })),
    };
  }

  return {
    holder,
    tick,

    /**
     * Records the command to every set of the group and starts it. The caller sees the group (else 404); a
     * risky command takes their password; a set they may not control is refused in the job, the others run.
     */
    async start(ctx: SessionContext, input: GroupCommandRequest, lang: Language, ip: string): Promise<GroupCommandJob> {
      const { group, members, rights } = await groups.load(ctx, input.token);
      if (members.length === 0) throw new AppError(ResultCode.invalid, 'groups.command.noSets');
      let known = false;
      let risky = false;
      for (const m of members) {
        const command = await commandOf(m.protocol_key, input.action);
        known ||= command !== undefined;
        risky ||= command?.risky ?? false;
      }
      if (!known) throw new AppError(ResultCode.invalid, 'errors.commandUnknown', { action: input.action });
      if (risky) {
        if (!input.password) throw fieldError('password', 'errors.passwordRequired');
        if (!(await verifyPassword(ctx.user.password_hash, input.password)))
          throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      }
      const now = Date.now();
      const jobId = await db.transaction().execute(async (trx) => {
        // one command at a time per group (checked in the transaction that records the new one)
        const busy = await trx
          .selectFrom('group_command')
          .select('id')
          .where('group_id', '=', group.id)
          .where('state', '=', 'running')
          .executeTakeFirst();
        if (busy) throw new AppError(ResultCode.conflict, 'groups.command.busy', { group: group.name });
        const row = await trx
          .insertInto('group_command')
          .values({
            group_id: group.id,
            company_id: group.company_id,
            user_id: ctx.user.id,
            group_name: group.name,
            kind: group.kind,
            command: input.action,
            ip,
            lang,
            state: 'running',
            created_at: now,
            finished_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('group_command_set')
          .values(
            members.map((m, position) => {
              const allowed = atLeast(rights[position] ?? null, 'control');
              return {
                job_id: row.id,
                position,
                genset_id: m.genset_id,
                set_name: m.name,
                state: allowed ? 'pending' : 'refused',
                code: allowed ? null : ResultCode.forbidden,
                message: allowed ? null : 'groups.command.noControl',
                params: JSON.stringify(allowed ? {} : { set: m.name }),
                updated_at: now,
              };
            }),
          )
          .execute();
        return row.id;
      });
      const job = await db.selectFrom('group_command').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      // the sets refused at once are in the log like the others
      for (const [position, m] of members.entries()) {
        if (atLeast(rights[position] ?? null, 'control')) continue;
        await logSet(ctx, job, { company_id: m.company_id, token: m.token, name: m.name }, 'refused');
      }
      kick();
      return view(job, group.token, lang);
    },

    /** A command given to the group (`id`), else its latest; null when it has had none. */
    async job(
      ctx: SessionContext,
      token: string,
      id: number | undefined,
      lang: Language,
    ): Promise<GroupCommandJob | null> {
      const { group } = await groups.load(ctx, token);
      let query = db.selectFrom('group_command').selectAll().where('group_id', '=', group.id);
      query = id === undefined ? query.orderBy('id', 'desc').limit(1) : query.where('id', '=', id);
      const job = await query.executeTakeFirst();
      return job ? view(job, group.token, lang) : null;
    },

    /** Takes up the running jobs now (those a stopped instance left too) and every `tickMs` after. */
    run(tickMs = GROUP_COMMAND_TICK_MS) {
      kick();
      timer = setInterval(kick, tickMs);
      timer.unref();
    },

    /** Stops taking up jobs, lets the sets on their way finish, and frees the lease for the next instance. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.all(running);
      await releaseLease(db, LEASE, holder).catch(() => undefined);
    },
  };
}
export type GroupCommands = ReturnType<typeof createGroupCommands>;
