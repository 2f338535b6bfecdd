// What the parts of the station service share: its options, the caller of a call, the repository and the
// answers kept in memory (answers.ts), what is done when stations or templates change, who may see and change
// which station (site:view and site:manage, within the role's data scope, never another company's) and the
// operation log a change is written to.
import {
  ALL_PERMISSIONS,
  hasAnyPermission,
  Permission,
  ResultCode,
  type Language,
  type SiteListItem,
  type SiteStatsResponse,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { Grant } from '../account/service.ts';
import type { UserRow } from '../auth/repository.ts';
import type { SessionContext } from '../auth/service.ts';
import type { RealtimeBus } from '../devices/bus.ts';
import type { CommandDispatcher } from '../devices/commands.ts';
import type { Fleet } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import type { LatestRow } from '../devices/service.ts';
import type { DeviceTransport } from '../devices/transport.ts';
import { createSiteRepository, type SiteRow } from './repository.ts';
import { byDepartment, covers, type RoleReach } from '../account/scope.ts';
import { createStationAnswers } from './answers.ts';

export interface SiteCaller {
  ctx: SessionContext;
  ip: string;
  lang: Language;
}

export interface SiteServiceOptions {
  db: Db;
  fleet: Fleet;
  protocols: ProtocolStore;
  commands: CommandDispatcher;
  transport: DeviceTransport;
  bus: RealtimeBus;
  commandTimeoutMs: number;
  /** The latest state ingestion holds in memory (newer than `set_latest`). */
  live?: (gensetId: number) => LatestRow | undefined;
  /** Stations or templates changed: ingestion reads its energy bindings again. */
  changed?: () => void;
  now?: () => number;
}

/** A refusal of one field with parameters for its rule (shown beside the field, like a schema's). */
export function fieldProblem(field: string, rule: string, params: Record<string, string | number> = {}) {
  return new AppError(ResultCode.invalid, 'errors.validation', {}, { fieldErrors: [{ field, rule, params }] });
}

export function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function createSiteContext(opts: SiteServiceOptions) {
  const { db, fleet, protocols, commands, transport, bus } = opts;
  const repo = createSiteRepository(db);
  const now = opts.now ?? Date.now;
  const answers = createStationAnswers<SiteRow[], Omit<SiteListItem, 'statusname'>, SiteStatsResponse>({ bus, now });
  const changed = () => {
    answers.invalidate();
    opts.changed?.();
  };

  // ---- who may see and change what ------------------------------------------------------------------------

  const isPlatform = (grant: Grant) => grant.permissions.includes(ALL_PERMISSIONS);

  function requirePermission(grant: Grant, need: 'view' | 'manage') {
    if (!hasAnyPermission(grant.permissions, [need === 'view' ? Permission.siteView : Permission.siteManage]))
      throw forbidden();
  }

  /**
   * Whether the station is within what the user's role reaches (account/scope.ts: its company, its department —
   * its own, else its owner's — or the role's chosen stations), or is their own. `ownerDepartments`: the owners'
   * departments when already read for many stations.
   */
  async function inScope(
    user: UserRow,
    grant: Grant,
    site: SiteRow,
    ownerDepartments?: ReadonlyMap<number, number | null>,
  ): Promise<boolean> {
    if (isPlatform(grant)) return true;
    if (site.company_id !== user.company_id) return false;
    const { role } = await fleet.scope.reach(user, grant);
    const owner = site.owner_user_id;
    const departments =
      ownerDepartments ??
      (site.department_id === null && byDepartment(role) && owner !== null && owner !== user.id
        ? new Map([[owner, await repo.ownerDepartment(owner)]])
        : undefined);
    return reaches(user, role, site, departments);
  }

  /** inScope once what the role reaches (and, for a role by department, the owners' departments) is at hand. */
  function reaches(
    user: UserRow,
    role: RoleReach | null,
    site: SiteRow,
    ownerDepartments: ReadonlyMap<number, number | null> | undefined,
  ): boolean {
    if (role === null) return true;
    const owner = site.owner_user_id;
    if (owner === user.id && site.company_id === user.company_id) return true;
    if (site.company_id !== user.company_id) return false;
    const departmentId =
      site.department_id ?? (byDepartment(role) && owner !== null ? (ownerDepartments?.get(owner) ?? null) : null);
    return covers(role, 'site', { id: site.id, companyId: site.company_id, departmentId });
  }

  /** The station named by token if the caller may see it (404 otherwise) with the permission needed (403). */
  async function visible(ctx: SessionContext, token: string, need: 'view' | 'manage'): Promise<SiteRow> {
    requirePermission(ctx.grant, need);
    const site = await repo.byToken(token);
    if (!site || !(await inScope(ctx.user, ctx.grant, site))) throw notFound();
    return site;
  }

  const canManage = (grant: Grant) => hasAnyPermission(grant.permissions, [Permission.siteManage]);

  async function log(
    caller: SiteCaller,
    site: { company_id: number; token: string },
    matter: string,
    feedback: object,
  ) {
    await writeOperationLog(db, {
      ctx: caller.ctx,
      companyId: site.company_id,
      ip: caller.ip,
      matter,
      feedback: feedback as Record<string, unknown>,
      target: site.token,
    });
  }

  const announce = (site: { id: number; token: string }) => bus.publish('site', { siteId: site.id, token: site.token });

  return {
    opts,
    db,
    fleet,
    protocols,
    commands,
    transport,
    bus,
    repo,
    now,
    answers,
    changed,
    announce,
    isPlatform,
    requirePermission,
    inScope,
    reaches,
    visible,
    canManage,
    log,
  };
}
export type SiteContext = ReturnType<typeof createSiteContext>;
