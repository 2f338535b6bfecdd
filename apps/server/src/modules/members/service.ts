// Joining a company by invitation: administrators (user:manage) create, list and revoke invitation links; a
// signed-in person applies through one; administrators approve an application (the person gets the chosen role
// and department in the company) or reject it (nothing is given).
import { randomBytes } from 'node:crypto';
import {
  Permission,
  ResultCode,
  V,
  type ApplicationStatus,
  type InviteItem,
  type InviteState,
  type Language,
  type MemberItem,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import { requirePermission, roleTitle, type AdminCaller, type RoleService } from '../roles/service.ts';
import { createMemberRepository, type InvitationRow } from './repository.ts';
import { createAuthority } from '../authority/service.ts';

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newCode(): string {
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += INVITE_ALPHABET[b % INVITE_ALPHABET.length];
  return out;
}

export function inviteState(
  row: Pick<InvitationRow, 'revoked_at' | 'expires_at' | 'uses' | 'max_uses'>,
  now: number,
): InviteState {
  if (row.revoked_at) return 'revoked';
  if (Number(row.expires_at) <= now) return 'expired';
  if (row.uses >= row.max_uses) return 'usedUp';
  return 'active';
}

const STATE_ERRORS: Record<Exclude<InviteState, 'active'>, string> = {
  revoked: 'invite.revoked',
  expired: 'invite.expired',
  usedUp: 'invite.usedUp',
};

export function createMemberService(deps: {
  db: Db;
  roles: RoleService;
  /** A person joined a company: what was read of them and of what the company's roles reach is read again. */
  memberChanged: (userId: number, companyId: number) => void;
}) {
  const { db } = deps;
  const repo = createMemberRepository(db);
  const authority = createAuthority({ db });

  function log(
    caller: { ctx: SessionContext; companyId: number; ip: string },
    matter: string,
    feedback: Record<string, unknown>,
    target: string,
  ) {
    return writeOperationLog(db, {
      ctx: caller.ctx,
      companyId: caller.companyId,
      ip: caller.ip,
      matter,
      feedback,
      target,
    });
  }

  async function checkDepartment(companyId: number, id: number | null | undefined) {
    if (id === null || id === undefined) return null;
    const d = await repo.department(companyId, id);
    if (!d) throw fieldError('departmentId', 'members.unknownDepartment');
    return d;
  }

  async function checkRole(companyId: number, id: number | null | undefined, field: string) {
    if (id === null || id === undefined) return null;
    const role = await deps.roles.assignable(companyId, id);
    if (!role) throw fieldError(field, 'members.unknownRole');
    return role;
  }

  return {
    async createInvitation(
      caller: AdminCaller,
      input: {
        expiresAt: number;
        maxUses: number;
        roleId?: number | null | undefined;
        departmentId?: number | null | undefined;
      },
    ) {
      requirePermission(caller.ctx, Permission.userManage);
      const now = Date.now();
      if (input.expiresAt <= now) throw fieldError('expiresAt', 'invite.expiryPast');
      const role = await checkRole(caller.companyId, input.roleId, 'roleId');
      const department = await checkDepartment(caller.companyId, input.departmentId);
      // the role an invitation proposes, as held in its department, lies within the inviter's reach
      await authority.assign(caller, '/invite/create', 'invite:new', {
        role,
        departmentId: department?.id ?? null,
        userId: null,
      });
      const code = newCode();
      const id = await repo.insertInvitation({
        company_id: caller.companyId,
        code,
        role_id: role?.id ?? null,
        department_id: department?.id ?? null,
        max_uses: input.maxUses,
        expires_at: input.expiresAt,
        revoked_at: null,
        created_by: caller.ctx.user.id,
        created_at: now,
      });
      await log(
        caller,
        'log.inviteCreated',
        { code, uses: input.maxUses, expires: new Date(input.expiresAt).toISOString() },
        `invite:${code}`,
      );
      return { id, code, link: `/invite/${code}` };
    },

    async invitations(caller: AdminCaller, q: { page: number; size: number }) {
      requirePermission(caller.ctx, Permission.userManage);
      const { rows, total } = await repo.invitations(caller.companyId, q.page, q.size);
      const now = Date.now();
      const list: InviteItem[] = rows.map((r) => ({
        id: r.id,
        code: r.code,
        link: `/invite/${r.code}`,
        roleId: r.role_id,
        roleName: r.role_name ? roleTitle(caller.lang, r.role_name) : null,
        departmentId: r.department_id,
        departmentName: r.department_name ?? null,
        maxUses: r.max_uses,
        uses: r.uses,
        expiresAt: Number(r.expires_at),
        revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
        createdAt: Number(r.created_at),
        state: inviteState(r, now),
      }));
      return { list, total, page: q.page, size: q.size };
    },

    async revoke(caller: AdminCaller, id: number) {
      requirePermission(caller.ctx, Permission.userManage);
      const row = await repo.invitation(caller.companyId, id);
      if (!row) throw notFound();
      if (!row.revoked_at) await repo.revoke(row.id, Date.now());
      await log(caller, 'log.inviteRevoked', { code: row.code }, `invite:${row.code}`);
    },

    /** What the invitation page shows before one applies; anyone with the link may read it. */
    async publicInfo(code: string, lang: Language) {
      const row = await repo.byCode(code.toUpperCase());
      if (!row) throw new AppError(ResultCode.notFound, 'invite.unknown');
      const state = inviteState(row, Date.now());
      return {
        code: row.code,
        companyName: row.company_name,
        roleName: row.role_name ? roleTitle(lang, row.role_name) : null,
        departmentName: row.department_name ?? null,
        expiresAt: Number(row.expires_at),
        state,
        reason: state === 'active' ? null : translate(lang, STATE_ERRORS[state]),
      };
    },

    async apply(caller: { ctx: SessionContext; ip: string }, code: string) {
      const row = await repo.byCode(code.toUpperCase());
      if (!row) throw new AppError(ResultCode.notFound, 'invite.unknown');
      const state = inviteState(row, Date.now());
      if (state !== 'active') throw new AppError(ResultCode.invalid, STATE_ERRORS[state]);
      const { user } = caller.ctx;
      const member = await db
        .selectFrom('user_company')
        .select('role_id')
        .where('user_id', '=', user.id)
        .where('company_id', '=', row.company_id)
        .executeTakeFirst();
      const home = user.company_id === row.company_id && user.role_id !== null;
      const homeRole = home
        ? await db.selectFrom('role').select('role_key').where('id', '=', user.role_id).executeTakeFirst()
        : undefined;
      const memberRole = member?.role_id
        ? await db.selectFrom('role').select('role_key').where('id', '=', member.role_id).executeTakeFirst()
        : undefined;
      // a personal account of the company (its own sets only) may still apply to work for it
      const isMember =
        (homeRole && homeRole.role_key !== 'personal') || (memberRole && memberRole.role_key !== 'personal');
      if (isMember) throw new AppError(ResultCode.conflict, 'invite.alreadyMember', { company: row.company_name });
      if (await repo.pendingOf(row.company_id, user.id))
        throw new AppError(ResultCode.conflict, 'invite.alreadyApplied', { company: row.company_name });
      if (!(await repo.takeUse(row.id))) throw new AppError(ResultCode.invalid, 'invite.usedUp');
      const id = await repo.insertApplication({
        companyId: row.company_id,
        invitationId: row.id,
        code: row.code,
        userId: user.id,
      });
      await log(
        { ctx: caller.ctx, companyId: row.company_id, ip: caller.ip },
        'log.memberApplied',
        { code: row.code, company: row.company_name },
        `invite:${row.code}`,
      );
      return { id, status: 'pending' as ApplicationStatus };
    },

    async applications(caller: AdminCaller, q: { status?: ApplicationStatus | undefined; page: number; size: number }) {
      requirePermission(caller.ctx, Permission.userManage);
      const { rows, total } = await repo.applications(caller.companyId, q.status, q.page, q.size);
      const list: MemberItem[] = rows.map((r) => ({
        id: r.id,
        status: r.status as ApplicationStatus,
        appliedAt: Number(r.applied_at),
        reviewedAt: r.reviewed_at === null ? null : Number(r.reviewed_at),
        userId: r.user_id,
        nickname: r.nickname,
        account: r.account ?? '',
        accountKind: r.account_kind,
        accountType: r.type,
        inviteCode: r.invite_code,
        roleId: r.role_id ?? null,
        roleName: r.role_name ? roleTitle(caller.lang, r.role_name) : null,
        departmentId: r.department_id ?? null,
        departmentName: r.department_name ?? null,
      }));
      return { list, total, page: q.page, size: q.size };
    },

    async audit(
      caller: AdminCaller,
      input: {
        id: number;
        action: 'approve' | 'reject';
        roleId?: number | null | undefined;
        departmentId?: number | null | undefined;
      },
    ) {
      requirePermission(caller.ctx, Permission.userManage);
      const application = await repo.application(caller.companyId, input.id);
      if (!application) throw notFound();
      if (application.status !== 'pending') throw new AppError(ResultCode.conflict, 'members.alreadyReviewed');
      const now = Date.now();
      const person = await db.selectFrom('users').selectAll().where('id', '=', application.user_id).executeTakeFirst();
      if (!person || person.status === 'deleted') throw new AppError(ResultCode.conflict, 'members.personGone');

      if (input.action === 'reject') {
        await db
          .updateTable('member_application')
          .set({ status: 'rejected', reviewed_at: now, reviewed_by: caller.ctx.user.id })
          .where('id', '=', application.id)
          .execute();
        await log(
          caller,
          'log.memberRejected',
          { account: person.account ?? '', name: person.nickname },
          `user:${person.id}`,
        );
        return { status: 'rejected' as ApplicationStatus };
      }

      if (input.roleId === null || input.roleId === undefined) throw fieldError('roleId', V.required);
      const role = (await checkRole(caller.companyId, input.roleId, 'roleId'))!;
      const department = await checkDepartment(caller.companyId, input.departmentId);
      await authority.assign(caller, '/member/audit', `user:${person.id}`, {
        role,
        departmentId: department?.id ?? null,
        userId: person.id,
      });
      const homeRole = person.role_id
        ? await db
            .selectFrom('role')
            .select(['company_id', 'role_key'])
            .where('id', '=', person.role_id)
            .executeTakeFirst()
        : undefined;
      // A personal account with no company role makes this company its home; one already working for another
      // company keeps its home and belongs to this one as well.
      const moveHome = person.company_id === caller.companyId || !homeRole || homeRole.role_key === 'personal';
      await db.transaction().execute(async (trx) => {
        if (moveHome)
          await trx
            .updateTable('users')
            .set({
              company_id: caller.companyId,
              role_id: role.id,
              department_id: department?.id ?? null,
              updated_at: now,
            })
            .where('id', '=', person.id)
            .execute();
        const existing = await trx
          .selectFrom('user_company')
          .select('user_id')
          .where('user_id', '=', person.id)
          .where('company_id', '=', caller.companyId)
          .executeTakeFirst();
        if (existing)
          await trx
            .updateTable('user_company')
            .set({ role_id: role.id, department_id: department?.id ?? null })
            .where('user_id', '=', person.id)
            .where('company_id', '=', caller.companyId)
            .execute();
        else
          await trx
            .insertInto('user_company')
            .values({
              user_id: person.id,
              company_id: caller.companyId,
              role_id: role.id,
              department_id: department?.id ?? null,
              created_at: now,
            })
            .execute();
        if (moveHome && person.company_id !== caller.companyId)
          // the personal membership it leaves is no longer its home
          await trx
            .deleteFrom('user_company')
            .where('user_id', '=', person.id)
            .where('company_id', '=', person.company_id)
            .where((e) => e.or([e('role_id', 'is', null), e('role_id', '=', person.role_id ?? 0)]))
            .execute();
        await trx
          .updateTable('member_application')
          .set({
            status: 'approved',
            reviewed_at: now,
            reviewed_by: caller.ctx.user.id,
            role_id: role.id,
            department_id: department?.id ?? null,
          })
          .where('id', '=', application.id)
          .execute();
      });
      deps.memberChanged(person.id, caller.companyId);
      await log(
        caller,
        'log.memberApproved',
        {
          account: person.account ?? '',
          name: person.nickname,
          role: roleTitle(caller.lang, role.name),
          department: department?.name ?? '',
        },
        `user:${person.id}`,
      );
      return { status: 'approved' as ApplicationStatus };
    },
  };
}
export type MemberService = ReturnType<typeof createMemberService>;
