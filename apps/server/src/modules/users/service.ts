// A company's people as its administrators keep them (user:manage): list and search, add with a temporary
// password, edit, move to another department or role, remove from the company, set a temporary password,
// enable and disable. A company is never left without an administrator (someone whose role manages its
// people); the account itself (password, status, nickname) is changed only by the administrators of the
// person's home company (or the platform's). People of another company are "not found".
import {
  ALL_PERMISSIONS,
  Permission,
  ResultCode,
  hasAnyPermission,
  type Language,
  type UserAddRequest,
  type UserItem,
  type UserListRequest,
  type UserMoveRequest,
  type UserUpdateRequest,
} from '@genset/protocol';
import { sql } from 'kysely';
import { contains } from '../../db/like.ts';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import type { AuthService, SessionContext } from '../auth/service.ts';
import { createUser } from '../account/users.ts';
import { isAdministratorGrant, removeMembership, saveMembership } from './memberships.ts';
import { createAuthority, type Actor } from '../authority/service.ts';

export interface UserEvents {
  /** A person's account or memberships changed; `signOut`: their sessions were ended (every instance closes them). */
  onUserChanged(userId: number, signOut: boolean): void;
}

function requireManage(ctx: SessionContext) {
  if (!hasAnyPermission(ctx.grant.permissions, [Permission.userManage])) throw forbidden();
}

const isPlatform = (ctx: SessionContext) => ctx.grant.permissions.includes(ALL_PERMISSIONS);

export function createUserAdmin(deps: { db: Db; auth: AuthService; events: UserEvents }) {
  const { db, auth, events } = deps;
  const authority = createAuthority({ db });

  function baseQuery(companyId: number) {
    return db
      .selectFrom('user_company as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .leftJoin('role as r', 'r.id', 'm.role_id')
      .leftJoin('department as d', 'd.id', 'm.department_id')
      .where('m.company_id', '=', companyId)
      .where('u.status', '!=', 'deleted');
  }

  const columns = [
    'u.id',
    'u.account',
    'u.nickname',
    'u.type',
    'u.status',
    'u.company_id as home_company_id',
    'u.must_change_password',
    'u.created_at',
    'm.role_id',
    'm.department_id',
    'r.name as role_name',
    'd.name as department_name',
  ] as const;

  type Row = {
    id: number;
    account: string | null;
    nickname: string;
    type: string;
    status: string;
    home_company_id: number;
    must_change_password: number;
    created_at: number;
    role_id: number | null;
    department_id: number | null;
    role_name: string | null;
    department_name: string | null;
  };

  function toItem(r: Row, companyId: number, lang: Language): UserItem {
    return {
      id: r.id,
      account: r.account ?? '',
      nickname: r.nickname,
      type: r.type === 'personal' ? 'personal' : 'corporate',
      status: r.status === 'active' ? 'enabled' : 'disabled',
      departmentId: r.department_id,
      departmentName: r.department_name,
      roleId: r.role_id,
      roleName: r.role_name?.startsWith('roles.') ? translate(lang, r.role_name) : r.role_name,
      home: r.home_company_id === companyId,
      mustChangePassword: r.must_change_password === 1,
      createdAt: Number(r.created_at),
    };
  }

  /** The person as a member of the company, or "not found". */
  async function member(companyId: number, userId: number): Promise<Row> {
    const row = await baseQuery(companyId).select(columns).where('u.id', '=', userId).executeTakeFirst();
    if (!row) throw notFound();
    return row as Row;
  }

  /** The company's roles that make administrators (active ones whose permissions manage people). */
  async function administratorRoles(companyId: number): Promise<Set<number>> {
    const roles = await db
      .selectFrom('role')
      .select(['id', 'permissions', 'status'])
      .where('company_id', '=', companyId)
      .execute();
    return new Set(
      roles
        .filter((r) => r.status === 1 && isAdministratorGrant(JSON.parse(r.permissions) as string[]))
        .map((r) => r.id),
    );
  }

  /** Refuses a change after which the company would have no enabled administrator left besides `userId`. */
  async function keepAnAdministrator(companyId: number, userId: number) {
    const adminRoles = await administratorRoles(companyId);
    const target = await db
      .selectFrom('user_company')
      .select('role_id')
      .where('company_id', '=', companyId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!target?.role_id || !adminRoles.has(target.role_id)) return; // not an administrator: nothing is lost
    const others = await db
      .selectFrom('user_company as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('m.company_id', '=', companyId)
      .where('m.user_id', '!=', userId)
      .where('m.role_id', 'in', [...adminRoles])
      .where('u.status', '=', 'active')
      .executeTakeFirstOrThrow();
    if (Number(others.n) === 0) throw new AppError(ResultCode.conflict, 'users.lastAdministrator');
  }

  /** A role of the company; one that grants everything only from someone who holds everything. */
  async function checkRole(ctx: SessionContext, companyId: number, roleId: number) {
    const role = await db
      .selectFrom('role')
      .select(['id', 'company_id', 'permissions', 'data_scope', 'status'])
      .where('id', '=', roleId)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    if (!role) throw fieldError('roleId', 'validation.invalid');
    if ((JSON.parse(role.permissions) as string[]).includes(ALL_PERMISSIONS) && !isPlatform(ctx)) throw forbidden();
    return role;
  }

  async function roleRow(companyId: number, roleId: number | null) {
    if (roleId === null) return null;
    const role = await db
      .selectFrom('role')
      .select(['id', 'company_id', 'permissions', 'data_scope', 'status'])
      .where('id', '=', roleId)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return role ?? null;
  }

  async function checkDepartment(companyId: number, departmentId: number | null) {
    if (departmentId === null) return;
    const d = await db
      .selectFrom('department')
      .select('id')
      .where('id', '=', departmentId)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    if (!d) throw fieldError('departmentId', 'validation.invalid');
  }

  /** The account itself is the home company's (or the platform's) to change. */
  function requireHome(ctx: SessionContext, target: Row, companyId: number) {
    if (target.home_company_id !== companyId && !isPlatform(ctx))
      throw new AppError(ResultCode.forbidden, 'users.notHomeCompany');
  }

  async function log(
    ctx: SessionContext,
    companyId: number,
    ip: string,
    matter: string,
    target: { id: number; account: string | null; nickname: string },
    extra: Record<string, unknown> = {},
  ) {
    await writeOperationLog(db, {
      ctx,
      companyId,
      ip,
      matter,
      feedback: { name: target.nickname || target.account || String(target.id), ...extra },
      target: `user:${target.id}`,
    });
  }

  /** Moves a person within the company (department and/or role), with every check. */
  async function move(
    actor: Actor,
    attempt: string,
    target: Row,
    next: { departmentId?: number | null | undefined; roleId?: number | undefined },
  ) {
    const { ctx, companyId } = actor;
    const roleId = next.roleId ?? target.role_id;
    const departmentId = next.departmentId === undefined ? target.department_id : next.departmentId;
    const roleChanges = next.roleId !== undefined && next.roleId !== target.role_id;
    if (roleChanges) await checkRole(ctx, companyId, next.roleId!);
    if (next.departmentId !== undefined) await checkDepartment(companyId, departmentId);
    if (roleChanges || departmentId !== target.department_id)
      // the role as held in the new department lies within the caller's reach; nobody moves themselves
      await authority.assign(
        actor,
        attempt,
        `user:${target.id}`,
        { role: await roleRow(companyId, roleId), departmentId, userId: target.id },
        { roleId: target.role_id, departmentId: target.department_id },
      );
    if (roleChanges) {
      const adminRoles = await administratorRoles(companyId);
      if (!adminRoles.has(next.roleId!)) await keepAnAdministrator(companyId, target.id);
    }
    await saveMembership(db, target.id, { companyId, roleId, departmentId });
    return { roleId, departmentId };
  }

  return {
    async list(ctx: SessionContext, companyId: number, q: UserListRequest, lang: Language) {
      requireManage(ctx);
      const page = q.page ?? 1;
      const size = q.size ?? 20;
      let base = baseQuery(companyId);
      const search = q.search?.trim();
      if (search)
        base = base.where((eb) =>
          eb.or([contains(sql.ref('u.account'), search), contains(sql.ref('u.nickname'), search)]),
        );
      if (q.departmentId !== undefined) base = base.where('m.department_id', '=', q.departmentId);
      if (q.roleId !== undefined) base = base.where('m.role_id', '=', q.roleId);
      if (q.status) base = base.where('u.status', q.status === 'enabled' ? '=' : '!=', 'active');
      if (q.type) base = base.where('u.type', '=', q.type);
      const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .select(columns)
        .orderBy('u.id')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      return { list: rows.map((r) => toItem(r as Row, companyId, lang)), total: Number(total.n) };
    },

    async info(ctx: SessionContext, companyId: number, userId: number, lang: Language) {
      requireManage(ctx);
      return toItem(await member(companyId, userId), companyId, lang);
    },

    async add(ctx: SessionContext, companyId: number, ip: string, input: UserAddRequest) {
      requireManage(ctx);
      const account = auth.normaliseAccount(input.account);
      const existing = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
      if (existing) throw new AppError(ResultCode.conflict, 'users.accountExists');
      const role = await checkRole(ctx, companyId, input.roleId);
      await checkDepartment(companyId, input.departmentId ?? null);
      await authority.assign({ ctx, companyId, ip }, '/user/add', 'user:new', {
        role,
        departmentId: input.departmentId ?? null,
        userId: null,
      });
      const nickname = input.nickname?.trim() || account.replace(/@.*/, '');
      const id = await createUser(
        db,
        {
          companyId,
          roleId: input.roleId,
          departmentId: input.departmentId ?? null,
          account,
          password: input.password,
          nickname,
          type: input.type ?? 'corporate',
          mustChangePassword: true,
        },
        auth.hashPassword,
      );
      await log(ctx, companyId, ip, 'log.userAdded', { id, account, nickname });
      return { id };
    },

    async update(ctx: SessionContext, companyId: number, ip: string, input: UserUpdateRequest) {
      requireManage(ctx);
      const target = await member(companyId, input.userId);
      const account: { nickname?: string; type?: string } = {};
      if (input.nickname !== undefined && input.nickname.trim() !== target.nickname)
        account.nickname = input.nickname.trim();
      if (input.type !== undefined && input.type !== target.type) account.type = input.type;
      if (Object.keys(account).length) requireHome(ctx, target, companyId);
      const actor = { ctx, companyId, ip };
      await authority.account(actor, '/user/update', target.id, false);
      await move(actor, '/user/update', target, { departmentId: input.departmentId, roleId: input.roleId });
      if (Object.keys(account).length) await auth.updateAccount(target.id, { ...account, updated_at: Date.now() });
      await log(ctx, companyId, ip, 'log.userUpdated', { ...target, nickname: account.nickname ?? target.nickname });
      events.onUserChanged(target.id, false);
    },

    async move(ctx: SessionContext, companyId: number, ip: string, input: UserMoveRequest) {
      requireManage(ctx);
      const target = await member(companyId, input.userId);
      const actor = { ctx, companyId, ip };
      await authority.account(actor, '/user/updateUserid', target.id, false);
      const moved = await move(actor, '/user/updateUserid', target, {
        departmentId: input.departmentId,
        roleId: input.roleId,
      });
      await log(ctx, companyId, ip, 'log.userMoved', target, moved);
      events.onUserChanged(target.id, false);
    },

    /** Takes the person out of the company; one who belongs to no other company has their account closed. */
    async remove(ctx: SessionContext, companyId: number, ip: string, userId: number) {
      requireManage(ctx);
      const target = await member(companyId, userId);
      if (target.id === ctx.user.id) throw new AppError(ResultCode.conflict, 'users.notYourself');
      await authority.account({ ctx, companyId, ip }, '/user/delete', target.id, false);
      await keepAnAdministrator(companyId, target.id);
      await log(ctx, companyId, ip, 'log.userRemoved', target);
      const belongsElsewhere = await removeMembership(db, target.id, companyId);
      if (!belongsElsewhere) {
        const now = Date.now();
        await auth.endSessions(target.id, 'deleted');
        await auth.updateAccount(target.id, {
          account: null,
          nickname: '',
          password_hash: null,
          status: 'deleted',
          message_settings: '{}',
          department_id: null,
          updated_at: now,
          deleted_at: now,
        });
      } else {
        await auth.updateAccount(target.id, { updated_at: Date.now() });
      }
      events.onUserChanged(target.id, !belongsElsewhere);
    },

    /** Sets a temporary password: the person's sessions end and their next sign-in must change it. */
    async resetPassword(ctx: SessionContext, companyId: number, ip: string, userId: number, password: string) {
      requireManage(ctx);
      const target = await member(companyId, userId);
      requireHome(ctx, target, companyId);
      await authority.account({ ctx, companyId, ip }, '/user/resetpassword', target.id, true);
      await auth.updateAccount(target.id, {
        password_hash: await auth.hashPassword(password),
        must_change_password: 1,
        updated_at: Date.now(),
      });
      await auth.endSessions(target.id, 'password');
      if (target.account) await auth.clearSignInLocks(target.account);
      await log(ctx, companyId, ip, 'log.userPasswordReset', target);
      events.onUserChanged(target.id, true);
    },

    /** Enables or disables the account; a disabled person's sessions end at once, on every instance. */
    async setStatus(
      ctx: SessionContext,
      companyId: number,
      ip: string,
      userId: number,
      status: 'enabled' | 'disabled',
    ) {
      requireManage(ctx);
      const target = await member(companyId, userId);
      requireHome(ctx, target, companyId);
      await authority.account({ ctx, companyId, ip }, '/user/userStatus', target.id, true);
      if (status === 'disabled') {
        if (target.id === ctx.user.id) throw new AppError(ResultCode.conflict, 'users.notYourself');
        // the account is disabled everywhere: no company it administers may be left without an administrator
        const memberships = await db
          .selectFrom('user_company')
          .select('company_id')
          .where('user_id', '=', target.id)
          .execute();
        for (const m of memberships) await keepAnAdministrator(m.company_id, target.id);
      }
      await auth.updateAccount(target.id, {
        status: status === 'enabled' ? 'active' : 'disabled',
        updated_at: Date.now(),
      });
      if (status === 'disabled') await auth.endSessions(target.id, 'disabled');
      await log(ctx, companyId, ip, status === 'enabled' ? 'log.userEnabled' : 'log.userDisabled', target);
      events.onUserChanged(target.id, status === 'disabled');
    },
  };
}
export type UserAdmin = ReturnType<typeof createUserAdmin>;
