// Gensets and modules as the device pipeline needs them: who may see or control a set, and creating
// modules and sets (the set management screens build on these).
import { randomBytes, randomInt } from 'node:crypto';
import { ALL_PERMISSIONS, Permission } from '@genset/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { GensetTable } from '../../db/schema.ts';
import type { UserRow } from '../auth/repository.ts';
import type { Grant } from '../account/service.ts';
import { byDepartment, covers, createDataScope, type DataScopeService, type Reach } from '../account/scope.ts';
import { hashModemSecret } from './embedded-broker.ts';
import { brokerHash } from './broker-credentials.ts';
import { gensetSearchText } from '../../db/migrations/004-gensets.ts';

export type Rights = 'view' | 'control' | 'manage';
const RANK: Record<Rights, number> = { view: 1, control: 2, manage: 3 };
export type GensetRow = Selectable<GensetTable>;

export function atLeast(rights: Rights | null, needed: Rights): boolean {
  return rights !== null && RANK[rights] >= RANK[needed];
}

function best(...list: (Rights | null)[]): Rights | null {
  let out: Rights | null = null;
  for (const r of list) if (r && (!out || RANK[r] > RANK[out])) out = r;
  return out;
}

/** A random code of the given length over 32 unambiguous characters (5 bits each). */
export function newCode(length: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[randomInt(0, alphabet.length)];
  return s;
}

/** What the role gives on the company's sets its data scope covers: none without genset:view. */
export function roleRights(grant: Grant): Rights | null {
  if (grant.permissions.includes(ALL_PERMISSIONS)) return 'manage';
  if (!grant.permissions.includes(Permission.gensetView)) return null;
  if (grant.permissions.includes(Permission.gensetManage)) return 'manage';
  if (grant.permissions.includes(Permission.gensetControl)) return 'control';
  return 'view';
}

/** The facts about a set that decide a user's rights on it (a list query can select them in one go). */
export interface RightsFacts {
  id: number;
  companyId: number;
  ownerUserId: number | null;
  /** The department the set belongs to (its own, else its owner's); needed only for a department scope. */
  departmentId: number | null;
  /** The user's own subscription rights on the set, if any. */
  subscription: Rights | null;
}

/**
 * A user's rights on a set: the best of owning it (manage), a subscription, and the role's rights when the
 * role's data scope reaches the set (account/scope.ts). '*:*' manages everything. Null: not theirs to see.
 */
export function rightsFrom(reach: Reach, set: RightsFacts): Rights | null {
  const { user, grant } = reach;
  if (grant.permissions.includes(ALL_PERMISSIONS)) return 'manage';
  const own: Rights | null = set.ownerUserId === user.id ? 'manage' : null;
  const company = covers(reach.role, 'set', set) ? roleRights(grant) : null;
  return best(own, set.subscription, company);
}

/**
 * Sets and modules of the fleet. `scope` decides what roles reach (one per server, shared by every module; a
 * fleet made without one resolves reaches on its own, trusting them for at most a minute).
 */
export function createFleet(db: Db, scope: DataScopeService = createDataScope({ db })) {
  return {
    /** What roles reach: the one answer every module asks. */
    scope,

    /** The user's rights on a set, or null when the set is not theirs to see. */
    async rightsOn(user: UserRow, grant: Grant, set: GensetRow): Promise<Rights | null> {
      if (grant.permissions.includes(ALL_PERMISSIONS)) return 'manage';
      const reach = await scope.reach(user, grant);
      const sub = await db
        .selectFrom('subscription')
        .select('rights')
        .where('genset_id', '=', set.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      const needsOwnerDepartment =
        byDepartment(reach.role) &&
        set.department_id === null &&
        set.company_id === user.company_id &&
        set.owner_user_id !== user.id;
      return rightsFrom(reach, {
        id: set.id,
        companyId: set.company_id,
        ownerUserId: set.owner_user_id,
        departmentId: set.department_id ?? (needsOwnerDepartment ? await ownerDepartment(set) : null),
        subscription: (sub?.rights as Rights | undefined) ?? null,
      });
    },

    /**
     * Whether the role's data scope reaches the set (ownership and subscriptions aside): a call acting for another
     * company acts with that company's role only on the sets it reaches.
     */
    async reachedByRole(user: UserRow, grant: Grant, set: GensetRow): Promise<boolean> {
      if (grant.permissions.includes(ALL_PERMISSIONS)) return true;
      const { role } = await scope.reach(user, grant);
      if (set.company_id !== role.companyId) return false;
      const departmentId =
        set.department_id ?? (byDepartment(role) && set.owner_user_id !== null ? await ownerDepartment(set) : null);
      return covers(role, 'set', { id: set.id, companyId: set.company_id, departmentId });
    },

    byToken(token: string) {
      return db
        .selectFrom('genset')
        .selectAll()
        .where('token', '=', token)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    },

    async createModem(input: { companyId: number; modemKey: string; secret?: string }) {
      const secret = input.secret ?? randomBytes(18).toString('base64url');
      const row = await db
        .insertInto('modem')
        .values({
          modem_key: input.modemKey,
          secret_hash: hashModemSecret(secret, randomBytes(8).toString('hex')),
          broker_hash: brokerHash(secret),
          company_id: input.companyId,
          model: '',
          firmware: '',
          imei: '',
          iccid: '',
          online: 0,
          last_seen_at: null,
          last_seq: 0,
          telemetry: '{}',
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, secret };
    },

    async createGenset(input: {
      companyId: number;
      ownerUserId: number | null;
      name: string;
      modemId: number | null;
      port?: string;
      address?: number;
      protocolKey: string;
      timeZone?: string;
      number?: string | null;
      details?: Record<string, unknown>;
      /** The department it belongs to (null: its owner's). */
      departmentId?: number | null;
    }) {
      const token = randomBytes(12).toString('base64url');
      const row = await db
        .insertInto('genset')
        .values({
          token,
          company_id: input.companyId,
          owner_user_id: input.ownerUserId,
          name: input.name,
          modem_id: input.modemId,
          port: input.port ?? 'port1',
          address: input.address ?? 1,
          protocol_key: input.protocolKey,
          time_zone: input.timeZone ?? 'UTC',
          subscription_code: newCode(10),
          control_code: newCode(12),
          details: JSON.stringify(input.details ?? {}),
          created_at: Date.now(),
          deleted_at: null,
          number: input.number ?? null,
          search_text: gensetSearchText(input.name, input.number),
          department_id: input.departmentId ?? null,
        })
        .returning(['id', 'subscription_code', 'control_code'])
        .executeTakeFirstOrThrow();
      return { id: row.id, token, subscriptionCode: row.subscription_code, controlCode: row.control_code };
    },

    async subscribe(gensetId: number, userId: number, rights: Rights) {
      await db
        .insertInto('subscription')
        .values({ genset_id: gensetId, user_id: userId, rights, created_at: Date.now() })
        .onConflict((oc) => oc.columns(['user_id', 'genset_id']).doUpdateSet({ rights }))
        .execute();
    },
  };

  async function ownerDepartment(set: GensetRow): Promise<number | null> {
    if (!set.owner_user_id) return null;
    const owner = await db
      .selectFrom('users')
      .select('department_id')
      .where('id', '=', set.owner_user_id)
      .executeTakeFirst();
    return owner?.department_id ?? null;
  }
}
export type Fleet = ReturnType<typeof createFleet>;
