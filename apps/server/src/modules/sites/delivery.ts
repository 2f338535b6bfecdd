// What a station's module is sent: its tactic (built by tactic.ts from the station's sets and its template's
// latest version; a risky operation, so the account password is checked) and demand-response events. A tactic
// the station cannot run is refused naming what it lacks, with nothing sent; every tactic sent is stored with its
// version and outcome and written to the run records (and, when a person sent it, the operation log). A module
// the broker knows is offline is refused at once.
import { randomUUID } from 'node:crypto';
import { priceTemplateBody, ResultCode, type DemandResponseRequest, type SendTacticRequest } from '@genset/protocol';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import { verifyPassword } from '../auth/passwords.ts';
import type { CommandOutcome } from '../devices/commands.ts';
import { fieldProblem, type SiteCaller, type SiteContext } from './context.ts';
import type { SiteRow } from './repository.ts';
import { buildTactic, tacticProblem, type StationDevice } from './tactic.ts';

/** /ems/sendTactic as the schema hands it over. */
export type SendTactic = Omit<SendTacticRequest, 'templateId' | 'params'> & {
  templateId: number;
  params: { transformerKw?: number | undefined; rechargeHeadroomKw?: number | undefined };
};

/** How long a demand-response event may last. */
const DEMAND_RESPONSE_MAX_MS = 7 * 86_400_000;

export function createDelivery({
  opts,
  db,
  protocols,
  commands,
  transport,
  repo,
  now,
  changed,
  announce,
  visible,
  log,
}: SiteContext) {
  // ---- tactics ---------------------------------------------------------------------------------------------

  async function stationDevices(siteId: number): Promise<(StationDevice & { gensetId: number })[]> {
    const out: (StationDevice & { gensetId: number })[] = [];
    for (const d of await repo.devices(db, [siteId])) {
      out.push({
        gensetId: d.gensetId,
        role: d.role as StationDevice['role'],
        port: d.port,
        address: d.address,
        doc: (await protocols.get(d.protocolKey))?.doc,
      });
    }
    return out;
  }

  /** The station's module, connected: refused at once when the broker knows it is not. */
  async function connectedModule(site: SiteRow) {
    const modem = site.modem_id === null ? undefined : await repo.modem(site.modem_id);
    if (!modem) throw new AppError(ResultCode.conflict, 'sites.noModule');
    const offline = !transport.connected(modem.modem_key) && transport.port !== undefined;
    return { modem, offline };
  }

  function outcomeError(outcome: CommandOutcome, key: string): AppError | null {
    if (outcome.status === 'ok') return null;
    if (outcome.status === 'timeout')
      return new AppError(ResultCode.deviceTimeout, 'errors.deviceTimeout', {
        seconds: Math.round(opts.commandTimeoutMs / 1000),
      });
    return new AppError(ResultCode.deviceFailed, key, { reason: outcome.reply?.error ?? '' });
  }

  /**
   * Builds the station's tactic and sends it to its module: refused naming what the station lacks (nothing sent),
   * recorded with its outcome. `who`: the person sending it (null: the server itself, e.g. the demo).
   */
  async function deliverTactic(site: SiteRow, req: Omit<SendTactic, 'token' | 'password'>, who: SiteCaller | null) {
    const lang = who?.lang ?? 'en-US';
    const template = await repo.template(db, req.templateId);
    if (!template || template.company_id !== site.company_id) throw fieldError('templateId', 'sites.templateUnknown');
    const latest = (await repo.versions(db, [template.id])).at(-1);
    const body = latest ? priceTemplateBody.safeParse(JSON.parse(latest.body)) : undefined;
    if (!latest || !body?.success) throw fieldError('templateId', 'sites.templateInvalid');
    const params = { ...req.params };
    if (params.transformerKw === undefined && site.transformer_kw !== null && req.strategy === 'capacityExpansion')
      params.transformerKw = Number(site.transformer_kw);
    const devices = await stationDevices(site.id);
    const problem = tacticProblem(devices, req.strategy, params, body.data);
    const refused = async (error: AppError, reason: string) => {
      if (who)
        await log(who, site, 'log.siteTactic', {
          name: site.name,
          strategy: req.strategy,
          template: template.name,
          outcome: 'refused',
          reason,
        });
      return error;
    };
    if (problem?.kind === 'device')
      throw await refused(
        fieldProblem('devices', 'sites.deviceMissing', { device: translate(lang, `sites.device.${problem.role}`) }),
        `no ${problem.role}`,
      );
    if (problem?.kind === 'role')
      throw await refused(
        fieldProblem('devices', 'sites.roleMissing', {
          role: `${translate(lang, `sites.role.${problem.role}`)} (${problem.role})`,
          device: translate(lang, `sites.device.${problem.device}`),
        }),
        `no ${problem.role}`,
      );
    if (problem?.kind === 'param')
      throw await refused(
        problem.field === 'transformerKw'
          ? fieldError('params', 'sites.transformerMissing')
          : fieldError('strategy', 'sites.demandLimitMissing'),
        problem.field,
      );
    const { modem, offline } = await connectedModule(site);
    if (offline) throw await refused(new AppError(ResultCode.deviceTimeout, 'sites.moduleOffline'), 'offline');

    const version = Math.max(site.tactic_version, await repo.maxTacticVersion(db, site.id)) + 1;
    const tactic = buildTactic({
      version,
      strategy: req.strategy,
      params,
      template: body.data,
      timeZone: site.time_zone,
      devices,
    });
    const sentAt = now();
    try {
      await db.transaction().execute(async (trx) => {
        await repo.insertTactic(trx, {
          siteId: site.id,
          version,
          strategy: req.strategy,
          templateId: template.id,
          templateVersion: latest.version,
          body: JSON.stringify(tactic),
          userId: who?.ctx.user.id ?? null,
          account: who?.ctx.user.account ?? '',
          now: sentAt,
        });
        await repo.update(trx, site.id, {
          tactic_version: version,
          tactic_outcome: 'pending',
          tactic_sent_at: sentAt,
        });
        await repo.runRecord(trx, {
          siteId: site.id,
          ts: sentAt,
          kind: 'tacticSent',
          version,
          detail: {
            strategy: req.strategy,
            template: template.name,
            templateVersion: latest.version,
            by: who?.ctx.user.account ?? '',
          },
        });
      });
    } catch {
      // another tactic took this version meanwhile
      throw new AppError(ResultCode.conflict, 'sites.tacticBusy');
    }
    const pcs = devices.find((d) => d.role === 'pcs');
    const outcome = await commands.send({
      modemKey: modem.modem_key,
      modemId: modem.id,
      gensetId: pcs?.gensetId ?? null,
      userId: who?.ctx.user.id ?? null,
      name: 'tactic',
      request: { kind: 'tactic', tactic },
      timeoutMs: opts.commandTimeoutMs,
    });
    const word = outcome.status === 'ok' ? 'accepted' : outcome.status === 'failed' ? 'refused' : 'timeout';
    const reason = outcome.reply?.error ?? '';
    const finished = now();
    await db.transaction().execute(async (trx) => {
      await repo.finishTactic(trx, site.id, version, {
        outcome: word,
        reason,
        requestId: outcome.requestId,
        now: finished,
      });
      await repo.update(trx, site.id, {
        tactic_outcome: word,
        ...(word === 'accepted'
          ? {
              strategy: req.strategy,
              template_id: template.id,
              template_version: latest.version,
              updated_at: finished,
            }
          : {}),
      });
      await repo.runRecord(trx, {
        siteId: site.id,
        ts: finished,
        kind: word === 'accepted' ? 'tacticAccepted' : word === 'refused' ? 'tacticRefused' : 'tacticTimeout',
        version,
        detail: word === 'refused' ? { reason } : {},
      });
      if (who)
        await writeOperationLog(trx, {
          ctx: who.ctx,
          companyId: site.company_id,
          ip: who.ip,
          matter: 'log.siteTactic',
          feedback: {
            name: site.name,
            version,
            strategy: req.strategy,
            template: template.name,
            outcome: word,
            ...(reason ? { reason } : {}),
          },
          target: site.token,
        });
    });
    if (word === 'accepted') changed();
    announce(site);
    const error = outcomeError(outcome, 'sites.tacticRefused');
    if (error) throw error;
    return {
      version,
      strategy: req.strategy,
      templateId: template.id,
      templateVersion: latest.version,
      outcome: 'accepted' as const,
    };
  }

  return {
    async sendTactic(caller: SiteCaller, req: SendTactic) {
      const { ctx } = caller;
      const site = await visible(ctx, req.token, 'manage');
      if (!(await verifyPassword(ctx.user.password_hash, req.password)))
        throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      return deliverTactic(site, req, caller);
    },

    /** A tactic sent by the server itself (the demo's stations): no rights or password, no operation log. */
    async sendTacticAsServer(req: Omit<SendTactic, 'password' | 'params'> & { params?: SendTactic['params'] }) {
      const site = await repo.byToken(req.token);
      if (!site) throw notFound();
      return deliverTactic(site, { ...req, params: req.params ?? {} }, null);
    },

    async demandResponse(caller: SiteCaller, req: DemandResponseRequest) {
      const site = await visible(caller.ctx, req.token, 'manage');
      const at = now();
      if (req.end <= at) throw fieldError('end', 'sites.endPassed');
      if (req.end - req.start > DEMAND_RESPONSE_MAX_MS) throw fieldError('end', 'sites.eventTooLong');
      if (!site.strategy) throw new AppError(ResultCode.conflict, 'sites.noTactic');
      const { modem, offline } = await connectedModule(site);
      const id = `dr-${randomUUID()}`;
      const feedback = { name: site.name, id, kw: req.kw, start: req.start, end: req.end };
      if (offline) {
        await log(caller, site, 'log.siteDemandResponse', { ...feedback, outcome: 'offline' });
        throw new AppError(ResultCode.deviceTimeout, 'sites.moduleOffline');
      }
      const pcs = (await repo.devices(db, [site.id])).find((d) => d.role === 'pcs');
      const outcome = await commands.send({
        modemKey: modem.modem_key,
        modemId: modem.id,
        gensetId: pcs?.gensetId ?? null,
        userId: caller.ctx.user.id,
        name: 'demandResponse',
        request: { kind: 'demandResponse', event: { id, startTs: req.start, endTs: req.end, kw: req.kw } },
        timeoutMs: opts.commandTimeoutMs,
      });
      await db.transaction().execute(async (trx) => {
        if (outcome.status === 'ok')
          await repo.runRecord(trx, {
            siteId: site.id,
            ts: now(),
            kind: 'demandResponse',
            detail: { id, phase: 'scheduled', kw: req.kw, start: req.start, end: req.end },
          });
        await writeOperationLog(trx, {
          ctx: caller.ctx,
          companyId: site.company_id,
          ip: caller.ip,
          matter: 'log.siteDemandResponse',
          feedback: {
            ...feedback,
            outcome: outcome.status,
            ...(outcome.reply?.error ? { reason: outcome.reply.error } : {}),
          },
          target: site.token,
        });
      });
      const error = outcomeError(outcome, 'sites.demandResponseRefused');
      if (error) throw error;
      announce(site);
      return { id };
    },
  };
}
