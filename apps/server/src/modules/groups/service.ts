// Parallel and multi-machine groups: the navigation list of a user's groups, one group's members with their
// latest values and the bus, and saving or deleting a group. A group is seen by whoever sees every member;
// it is saved or deleted with manage rights on every member, all of one company. A refused save changes nothing.
import {
  DEFAULT_GROUP_ITEMS,
  GROUP_BUS_KEYS,
  ResultCode,
  groupBusOf,
  type DataItem,
  type GensetRights,
  type GroupItemResponse,
  type GroupKind,
  type GroupNavResponse,
  type GroupSaveRequest,
  type Language,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SessionContext } from '../auth/service.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { DeviceService } from '../devices/service.ts';
import { atLeast, rightsFrom, type Fleet, type GensetRow, type Rights } from '../devices/fleet.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import { parseDetails } from '../gensets/fields.ts';
import { visibleSets } from '../history/visibility.ts';
import type { Reach } from '../account/scope.ts';
import type { GroupRepository, GroupRow, MemberRow } from './repository.ts';

export interface GroupServiceOptions {
  db: Db;
  repository: GroupRepository;
  fleet: Fleet;
  devices: DeviceService;
  protocols: ProtocolStore;
}

const RANK: Record<Rights, number> = { view: 1, control: 2, manage: 3 };

/** The least of the rights, or null when any member is not the user's to see. */
function leastRights(rights: (Rights | null)[]): Rights | null {
  let least: Rights | null = 'manage';
  for (const r of rights) {
    if (r === null) return null;
    if (least === null || RANK[r] < RANK[least]) least = r;
  }
  return least;
}

export function createGroupService(opts: GroupServiceOptions) {
  const { db, repository, fleet, devices, protocols } = opts;

  function memberRights(reach: Reach, member: MemberRow): Rights | null {
    return rightsFrom(reach, {
      id: member.genset_id,
      companyId: member.company_id,
      ownerUserId: member.owner_user_id,
      departmentId: member.department_id,
      subscription: (member.subscription as Rights | null) ?? null,
    });
  }

  /** The group with its members if the user sees every member (404 otherwise: never reveal a group). */
  async function load(ctx: SessionContext, token: string) {
    const group = await repository.byToken(token);
    if (!group) throw notFound();
    const members = await repository.members([group.id], ctx.user.id);
    const reach = await fleet.scope.reach(ctx.user, ctx.grant);
    const rights = members.map((m) => memberRights(reach, m));
    const least = members.length ? leastRights(rights) : null;
    // A group whose sets all went away is managed by the company that made it, and seen by nobody else.
    const ownCompany = ctx.user.company_id === group.company_id && atLeast(rightsOfRole(reach), 'manage');
    if (least === null && !(members.length === 0 && ownCompany)) throw notFound();
    return { group, members, rights, least: least ?? 'manage' };
  }

  /** The role's rights on a set of the user's company that no department or list names (its whole company's). */
  function rightsOfRole(reach: Reach): Rights | null {
    return rightsFrom(reach, {
      id: 0,
      companyId: reach.user.company_id,
      ownerUserId: null,
      departmentId: null,
      subscription: null,
    });
  }

  async function modemsOnline(members: MemberRow[]): Promise<Map<number, boolean>> {
    const ids = members.map((m) => m.modem_id).filter((id): id is number => id !== null);
    if (ids.length === 0) return new Map();
    const rows = await db.selectFrom('modem').select(['id', 'online']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.online === 1]));
  }

  /** The items a group may show: measurements at least one member's protocol has. */
  async function protocolItems(protocolKeys: string[]): Promise<Map<string, DataItem>> {
    const items = new Map<string, DataItem>();
    for (const key of new Set(protocolKeys)) {
      for (const item of (await protocols.get(key))?.doc.items ?? [])
        if (!items.has(item.key)) items.set(item.key, item);
    }
    return items;
  }

  return {
    /** The group with its members and the caller's rights on each, if they see every member (404 otherwise). */
    load,

    async nav(ctx: SessionContext, kind: GroupKind | undefined): Promise<GroupNavResponse> {
      const reach = await fleet.scope.reach(ctx.user, ctx.grant);
      const visible = await visibleSets(db, reach).select('g.id').execute();
      const ids = await repository.idsWithSets(
        visible.map((v) => v.id),
        kind,
      );
      const groups = await repository.byIds(ids);
      const members = await repository.members(
        groups.map((g) => g.id),
        ctx.user.id,
      );
      const latest = members.length
        ? await db
            .selectFrom('set_latest')
            .select(['genset_id', 'status', 'alarm_count'])
            .where(
              'genset_id',
              'in',
              members.map((m) => m.genset_id),
            )
            .execute()
        : [];
      const byId = new Map(latest.map((l) => [l.genset_id, l]));
      const online = await modemsOnline(members);
      const list: GroupNavResponse['list'] = [];
      for (const group of groups) {
        const own = members.filter((m) => m.group_id === group.id);
        const rights = leastRights(own.map((m) => memberRights(reach, m)));
        if (!rights || own.length === 0) continue;
        list.push({
          token: group.token,
          name: group.name,
          kind: group.kind,
          rights,
          sets: own.map((m) => ({
            token: m.token,
            name: m.name,
            status: byId.get(m.genset_id)?.status ?? 0,
            alarmnum: byId.get(m.genset_id)?.alarm_count ?? 0,
            online: m.modem_id !== null && (online.get(m.modem_id) ?? false),
          })),
        });
      }
      return { list };
    },

    async item(ctx: SessionContext, token: string, lang: Language): Promise<GroupItemResponse> {
      const { group, members, rights, least } = await load(ctx, token);
      const items = await protocolItems(members.map((m) => m.protocol_key));
      const shown = group.items.map((key) => items.get(key)).filter((i): i is DataItem => i !== undefined);
      const online = await modemsOnline(members);
      const wanted = new Set<string>([...group.items, ...GROUP_BUS_KEYS]);
      const readings: GroupItemResponse['members'] = [];
      for (const [i, m] of members.entries()) {
        const snap = await devices.snapshot(m.genset_id);
        const all = snap?.monitor.values ?? {};
        const values: Record<string, number | null> = {};
        for (const key of wanted) values[key] = all[key] ?? null;
        const own = (await protocols.get(m.protocol_key))?.doc.items ?? [];
        const labels: Record<string, Record<string, string>> = {};
        for (const item of own) {
          if (!item.enum || !group.items.includes(item.key)) continue;
          labels[item.key] = Object.fromEntries(item.enum.map((o) => [String(o.value), o.label[lang]]));
        }
        readings.push({
          token: m.token,
          name: m.name,
          position: i + 1,
          ratedKw: parseDetails(m.details).ratedPowerKw ?? null,
          rights: rights[i] as GensetRights,
          status: snap?.monitor.status ?? 0,
          alarmnum: snap?.monitor.alarmnum ?? 0,
          online: m.modem_id !== null && (online.get(m.modem_id) ?? false),
          ts: snap?.monitor.ts || null,
          values,
          labels,
        });
      }
      return {
        token: group.token,
        name: group.name,
        kind: group.kind,
        rights: least,
        items: shown.map((item) => ({
          key: item.key,
          name: item.name[lang],
          unit: item.unit,
          decimals: item.decimals,
        })),
        members: readings,
        bus: groupBusOf(group.kind, readings),
      };
    },

    async save(ctx: SessionContext, input: GroupSaveRequest, ip = ''): Promise<{ token: string; created: boolean }> {
      const existing = input.token ? await load(ctx, input.token) : null;
      if (existing && existing.least !== 'manage') throw new AppError(ResultCode.forbidden, 'groups.needsManage');

      const tokens = input.members;
      if (new Set(tokens).size !== tokens.length) throw new AppError(ResultCode.invalid, 'groups.duplicateMember');
      const sets: GensetRow[] = [];
      for (const token of tokens) {
        const set = await fleet.byToken(token);
        const rights = set ? await fleet.rightsOn(ctx.user, ctx.grant, set) : null;
        // A set the user may not see is as unknown as one that does not exist.
        if (!set || !rights) throw new AppError(ResultCode.notFound, 'groups.unknownSet', { token });
        if (!atLeast(rights, 'manage'))
          throw new AppError(ResultCode.forbidden, 'groups.needsManageOn', { name: set.name });
        sets.push(set);
      }
      const companies = new Set(sets.map((s) => s.company_id));
      if (existing) companies.add(existing.group.company_id);
      if (companies.size > 1) throw new AppError(ResultCode.invalid, 'groups.mixedCompanies');
      const kind = input.kind;
      if (kind === 'parallel' && sets.length < 2) throw new AppError(ResultCode.invalid, 'groups.parallelTooFew');

      const available = await protocolItems(sets.map((s) => s.protocol_key));
      const items = input.items ?? DEFAULT_GROUP_ITEMS.filter((key) => available.has(key));
      const unknown = items.find((key) => !available.has(key));
      if (unknown) throw new AppError(ResultCode.invalid, 'groups.unknownItem', { item: unknown });
      if (new Set(items).size !== items.length) throw new AppError(ResultCode.invalid, 'groups.duplicateItem');

      const companyId = existing?.group.company_id ?? sets[0]!.company_id;
      const groupId = existing?.group.id ?? null;
      const name = input.name;
      if (await repository.nameTaken(companyId, name, groupId))
        throw new AppError(ResultCode.conflict, 'groups.nameTaken', { name });
      const taken = await repository.takenBy(
        sets.map((s) => s.id),
        kind,
        groupId,
      );
      if (taken.length > 0) {
        const set = sets.find((s) => s.id === taken[0]!.genset_id)!;
        throw new AppError(ResultCode.conflict, kind === 'parallel' ? 'groups.onAnotherBus' : 'groups.atAnotherSite', {
          name: set.name,
          group: taken[0]!.name,
        });
      }
      const saved = await repository.save({
        id: groupId,
        companyId,
        name,
        kind,
        items,
        gensetIds: sets.map((s) => s.id),
      });
      await writeOperationLog(db, {
        ctx,
        companyId,
        ip,
        matter: groupId === null ? 'log.groupCreated' : 'log.groupUpdated',
        feedback: { name, kind, sets: sets.length },
        target: `group:${saved.token}`,
      });
      return { token: saved.token, created: groupId === null };
    },

    async remove(ctx: SessionContext, token: string, ip = ''): Promise<{ deleted: number }> {
      const { group, least } = await load(ctx, token);
      if (least !== 'manage') throw new AppError(ResultCode.forbidden, 'groups.needsManage');
      const deleted = await repository.remove(group.id);
      await writeOperationLog(db, {
        ctx,
        companyId: group.company_id,
        ip,
        matter: 'log.groupDeleted',
        feedback: { name: group.name },
        target: `group:${group.token}`,
      });
      return { deleted };
    },
  };
}
export type GroupService = ReturnType<typeof createGroupService>;
export type { GroupRow };
