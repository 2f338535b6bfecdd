// The monitoring and command calls: set info, latest values, commands to the controller through its
// module, module restart. Every command goes to the operation log with its outcome.
import { checkCommandPreconditions, findCommand, planCommandWrites, ResultCode, type Language } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { CommandDispatcher, CommandOutcome, ModemRequestBody } from './commands.ts';
import { atLeast, type Fleet, type GensetRow, type Rights } from './fleet.ts';
import type { ProtocolStore } from './protocols.ts';
import type { DeviceTransport } from './transport.ts';
import type { AlarmMessage, MonitorMessage } from './bus.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';

export interface DeviceServiceOptions {
  db: Db;
  fleet: Fleet;
  protocols: ProtocolStore;
  commands: CommandDispatcher;
  transport: DeviceTransport;
  commandTimeoutMs: number;
  /** The latest state ingestion holds in memory (newer than `set_latest`, which it writes every few seconds). */
  live?: (gensetId: number) => LatestRow | undefined;
}

export interface LatestRow {
  status: number;
  alarm_count: number;
  /** JSON text of the latest values, as in `set_latest`. */
  values: string;
  device_ts: number;
}

export function createDeviceService(opts: DeviceServiceOptions) {
  const { db, fleet, protocols } = opts;

  /** The set named by token if the user may see it (404 otherwise) and holds `needed` rights (403 otherwise). */
  async function resolve(
    ctx: SessionContext,
    token: string,
    needed: Rights,
  ): Promise<{ set: GensetRow; rights: Rights }> {
    const set = await fleet.byToken(token);
    if (!set) throw notFound();
    const rights = await fleet.rightsOn(ctx.user, ctx.grant, set);
    if (!rights) throw notFound();
    if (!atLeast(rights, needed)) throw forbidden();
    return { set, rights };
  }

  async function latest(gensetId: number): Promise<LatestRow | undefined> {
    return (
      opts.live?.(gensetId) ??
      db.selectFrom('set_latest').selectAll().where('genset_id', '=', gensetId).executeTakeFirst()
    );
  }

  async function modemOf(set: GensetRow) {
    if (!set.modem_id) return undefined;
    return db.selectFrom('modem').selectAll().where('id', '=', set.modem_id).executeTakeFirst();
  }

  async function log(
    ctx: SessionContext,
    set: GensetRow,
    matter: string,
    feedback: Record<string, unknown>,
    ip: string,
  ) {
    await writeOperationLog(db, { ctx, companyId: set.company_id, ip, matter, feedback, target: set.token });
  }

  function outcomeError(outcome: CommandOutcome, lang: Language): AppError | null {
    if (outcome.status === 'ok') return null;
    if (outcome.status === 'timeout') {
      return new AppError(
        ResultCode.deviceTimeout,
        'errors.deviceTimeout',
        { seconds: Math.round(opts.commandTimeoutMs / 1000) },
        { state: 'error', requestId: outcome.requestId },
      );
    }
    return new AppError(
      ResultCode.deviceFailed,
      'errors.commandFailed',
      { reason: outcome.reply?.error ?? translate(lang, 'errors.invalidBody') },
      {
        state: 'error',
        requestId: outcome.requestId,
      },
    );
  }

  async function requireModule(set: GensetRow) {
    const modem = await modemOf(set);
    if (!modem) throw new AppError(ResultCode.conflict, 'errors.noModule');
    return modem;
  }

  /**
   * Sends a request to the set's module and waits for its reply. Refused at once when the module is known
   * to be offline; a failure or timeout becomes the matching error; every outcome goes to the operation log.
   */
  async function dispatch(
    ctx: SessionContext,
    set: GensetRow,
    input: {
      name: string;
      request: ModemRequestBody;
      matter: string;
      feedback: Record<string, unknown>;
      ip: string;
      lang: Language;
    },
  ): Promise<CommandOutcome> {
    const modem = await requireModule(set);
    if (!opts.transport.connected(modem.modem_key) && opts.transport.port !== undefined) {
      await log(ctx, set, input.matter, { ...input.feedback, outcome: 'offline' }, input.ip);
      throw new AppError(ResultCode.deviceTimeout, 'errors.moduleOffline', {}, { state: 'error', requestId: null });
    }
    const outcome = await opts.commands.send({
      modemKey: modem.modem_key,
      modemId: modem.id,
      gensetId: set.id,
      userId: ctx.user.id,
      name: input.name,
      request: input.request,
      timeoutMs: opts.commandTimeoutMs,
    });
    await log(
      ctx,
      set,
      input.matter,
      { ...input.feedback, outcome: outcome.status, error: outcome.reply?.error },
      input.ip,
    );
    const error = outcomeError(outcome, input.lang);
    if (error) throw error;
    return outcome;
  }

  return {
    resolve,
    dispatch,

    async snapshot(gensetId: number): Promise<{ monitor: MonitorMessage; alarm: AlarmMessage } | null> {
      const set = await db.selectFrom('genset').select(['id', 'token']).where('id', '=', gensetId).executeTakeFirst();
      if (!set) return null;
      const row = await latest(gensetId);
      const open = await db
        .selectFrom('alarm')
        .selectAll()
        .where('genset_id', '=', gensetId)
        .where('end_ts', 'is', null)
        .orderBy('start_ts')
        .execute();
      return {
        monitor: {
          gensetId,
          token: set.token,
          status: row?.status ?? 0,
          alarmnum: open.length,
          ts: row?.device_ts ?? 0,
          values: row ? (JSON.parse(row.values) as Record<string, number | null>) : {},
        },
        alarm: {
          gensetId,
          token: set.token,
          alarmnum: open.length,
          list: open.map((a) => ({
            id: a.id,
            code: a.code,
            level: a.level,
            title: JSON.parse(a.title) as Record<string, string>,
            start: a.start_ts,
            end: null,
          })),
        },
      };
    },

    async info(ctx: SessionContext, token: string) {
      const { set, rights } = await resolve(ctx, token, 'view');
      const row = await latest(set.id);
      const modem = await modemOf(set);
      const protocol = await protocols.get(set.protocol_key);
      return {
        status: row?.status ?? 0,
        alarmnum: row?.alarm_count ?? 0,
        gsname: set.name,
        modulename: modem?.modem_key ?? '',
        template: protocol?.doc.layout ?? '',
        es: 0,
        reportid: null,
        online: modem?.online === 1,
        rights,
        ts: row?.device_ts ?? null,
        runs: Boolean(protocol?.doc.statusRules),
      };
    },

    async monitorList(ctx: SessionContext, token: string, lang: Language) {
      const { set } = await resolve(ctx, token, 'view');
      const row = await latest(set.id);
      const protocol = await protocols.get(set.protocol_key);
      const values = row ? (JSON.parse(row.values) as Record<string, number | null>) : {};
      const items = (protocol?.doc.items ?? []).map((item) => {
        const value = values[item.key] ?? null;
        const option = item.enum?.find((o) => o.value === value);
        return {
          key: item.key,
          name: item.name[lang],
          type: item.type,
          group: item.group,
          unit: item.unit ?? '',
          decimals: item.decimals ?? 0,
          value,
          label: option ? option.label[lang] : null,
          realtime: item.realtime ?? false,
        };
      });
      return { status: row?.status ?? 0, alarmnum: row?.alarm_count ?? 0, ts: row?.device_ts ?? null, items };
    },

    async commandList(ctx: SessionContext, token: string, lang: Language) {
      const { set } = await resolve(ctx, token, 'view');
      const protocol = await protocols.get(set.protocol_key);
      return (protocol?.doc.commands ?? []).map((c) => ({ key: c.key, title: c.title[lang], risky: c.risky }));
    },

    async sendAction(
      ctx: SessionContext,
      input: { token: string; action: string; password?: string },
      lang: Language,
      ip: string,
    ) {
      const { set } = await resolve(ctx, input.token, 'control');
      const protocol = await protocols.get(set.protocol_key);
      const command = protocol ? findCommand(protocol.doc, input.action) : undefined;
      if (!protocol || !command)
        throw new AppError(ResultCode.invalid, 'errors.commandUnknown', { action: input.action });
      if (command.risky) {
        if (!input.password) throw fieldError('password', 'errors.passwordRequired');
        if (!(await verifyPassword(ctx.user.password_hash, input.password)))
          throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      }
      const row = await latest(set.id);
      const refusal = checkCommandPreconditions(
        command,
        row ? (JSON.parse(row.values) as Record<string, number | null>) : {},
      );
      const title = command.title[lang];
      if (refusal) {
        await log(ctx, set, 'log.command', { command: command.key, title: command.title, outcome: 'refused' }, ip);
        throw new AppError(ResultCode.conflict, 'errors.commandRefused', { reason: refusal[lang] });
      }
      const outcome = await dispatch(ctx, set, {
        name: command.key,
        request: { kind: 'write', port: set.port, address: set.address, writes: planCommandWrites(command) },
        matter: 'log.command',
        feedback: { command: command.key, title: command.title },
        ip,
        lang,
      });
      return { state: 'ok' as const, requestId: outcome.requestId, info: title };
    },

    async restartModem(ctx: SessionContext, token: string, ip: string, lang: Language) {
      const { set } = await resolve(ctx, token, 'control');
      const outcome = await dispatch(ctx, set, {
        name: 'restart',
        request: { kind: 'restart' },
        matter: 'log.restart',
        feedback: {},
        ip,
        lang,
      });
      return { state: 'ok' as const, requestId: outcome.requestId, info: translate(lang, 'success.operation') };
    },
  };
}
export type DeviceService = ReturnType<typeof createDeviceService>;
