// Invitations and the applications made through them: plain typed queries.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { InvitationTable, MemberApplicationTable } from '../../db/schema.ts';

export type InvitationRow = Selectable<InvitationTable>;
export type ApplicationRow = Selectable<MemberApplicationTable>;

export function createMemberRepository(db: Db) {
  return {
    async invitations(companyId: number, page: number, size: number) {
      const rows = await db
        .selectFrom('invitation')
        .leftJoin('role', 'role.id', 'invitation.role_id')
        .leftJoin('department', 'department.id', 'invitation.department_id')
        .selectAll('invitation')
        .select(['role.name as role_name', 'department.name as department_name'])
        .where('invitation.company_id', '=', companyId)
        .orderBy('invitation.created_at', 'desc')
        .orderBy('invitation.id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      const { n } = await db
        .selectFrom('invitation')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      return { rows, total: Number(n) };
    },

    invitation(companyId: number, id: number) {
      return db
        .selectFrom('invitation')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    byCode(code: string) {
      return db
        .selectFrom('invitation')
        .innerJoin('company', 'company.id', 'invitation.company_id')
        .leftJoin('role', 'role.id', 'invitation.role_id')
        .leftJoin('department', 'department.id', 'invitation.department_id')
        .selectAll('invitation')
        .select(['company.title as company_name', 'role.name as role_name', 'department.name as department_name'])
        .where('invitation.code', '=', code)
        .where('company.deleted_at', 'is', null)
        .executeTakeFirst();
    },

    async insertInvitation(row: Insertable<InvitationTable>) {
      const { id } = await db.insertInto('invitation').values(row).returning('id').executeTakeFirstOrThrow();
      return id;
    },

    async revoke(id: number, now: number) {
      await db.updateTable('invitation').set({ revoked_at: now }).where('id', '=', id).execute();
    },

    /** Counts one use unless the last one is gone meanwhile; false when it is. */
    async takeUse(id: number): Promise<boolean> {
      const r = await db
        .updateTable('invitation')
        .set((e) => ({ uses: e('uses', '+', 1) }))
        .where('id', '=', id)
        .where((e) => e('uses', '<', e.ref('max_uses')))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    pendingOf(companyId: number, userId: number) {
      return db
        .selectFrom('member_application')
        .select('id')
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
    },

    /** A pending application to join a company, by an invitation or by a code or host name of the company. */
    async insertApplication(a: { companyId: number; invitationId: number | null; code: string; userId: number }) {
      const row: Insertable<MemberApplicationTable> = {
        company_id: a.companyId,
        invitation_id: a.invitationId,
        invite_code: a.code,
        user_id: a.userId,
        status: 'pending',
        applied_at: Date.now(),
        reviewed_at: null,
        reviewed_by: null,
        role_id: null,
        department_id: null,
      };
      const { id } = await db.insertInto('member_application').values(row).returning('id').executeTakeFirstOrThrow();
      return id;
    },

    application(companyId: number, id: number) {
      return db
        .selectFrom('member_application')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async applications(companyId: number, status: string | undefined, page: number, size: number) {
      let q = db
        .selectFrom('member_application as a')
        .innerJoin('users as u', 'u.id', 'a.user_id')
        .leftJoin('invitation as i', 'i.id', 'a.invitation_id')
        .leftJoin('role as r', (j) => j.on((e) => e('r.id', '=', e.fn.coalesce('a.role_id', 'i.role_id'))))
        .leftJoin('department as d', (j) =>
          j.on((e) => e('d.id', '=', e.fn.coalesce('a.department_id', 'i.department_id'))),
        )
        .where('a.company_id', '=', companyId);
      if (status) q = q.where('a.status', '=', status);
      const rows = await q
        .select([
          'a.id',
          'a.status',
          'a.applied_at',
          'a.reviewed_at',
          'a.user_id',
          'a.invite_code',
          'u.nickname',
          'u.account',
          'u.account_kind',
          'u.type',
          'r.id as role_id',
          'r.name as role_name',
          'd.id as department_id',
          'd.name as department_name',
        ])
        .orderBy('a.applied_at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      const { n } = await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { rows, total: Number(n) };
    },

    department(companyId: number, id: number) {
      return db
        .selectFrom('department')
        .select(['id', 'name'])
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
  };
}
export type MemberRepository = ReturnType<typeof createMemberRepository>;
