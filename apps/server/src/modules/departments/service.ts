// A company's department tree: those who manage departments or people read it as far as their data scope reaches;
// those with department:manage add, rename, move and delete departments within their data scope (the authority rule:
// a new department's parent, the department renamed or deleted, and for a move the department's branch and its new
// parent lie within reach; the top of the tree takes a company scope). A move into the department's own branch, and
// deleting a department that still has people or departments below it, are refused.
import {
  ALL_PERMISSIONS,
  Permission,
  ResultCode,
  hasAnyPermission,
  type DepartmentAddRequest,
  type DepartmentNode,
  type DepartmentUpdateRequest,
} from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.ts';
import { writeOperationLog } from '../../lib/operation-log.ts';
import type { SessionContext } from '../auth/service.ts';
import { createAuthority } from '../authority/service.ts';

export interface DepartmentEvents {
  /** The tree of a company changed shape (a move, a deletion): what a department's branch holds may differ. */
  onTreeChanged?(companyId: number): void;
}

function requireManage(ctx: SessionContext) {
  if (!hasAnyPermission(ctx.grant.permissions, [Permission.departmentManage])) throw forbidden();
}

export function createDepartmentService(deps: { db: Db; events?: DepartmentEvents }) {
  const { db, events } = deps;
  const authority = createAuthority({ db });

  async function rows(companyId: number) {
    return db
      .selectFrom('department as d')
      .select(['d.id', 'd.name', 'd.parent_id', 'd.sort'])
      .select((eb) =>
        eb
          .selectFrom('user_company as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('m.department_id', '=', 'd.id')
          .where('u.status', '!=', 'deleted')
          .as('users'),
      )
      .where('d.company_id', '=', companyId)
      .orderBy('d.sort')
      .orderBy('d.id')
      .execute();
  }

  async function inCompany(companyId: number, id: number) {
    return db
      .selectFrom('department')
      .select(['id', 'name', 'parent_id'])
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
  }

  async function log(ctx: SessionContext, companyId: number, ip: string, matter: string, name: string, id: number) {
    await writeOperationLog(db, { ctx, companyId, ip, matter, feedback: { name }, target: `department:${id}` });
  }

  return {
    inCompany,

    /**
     * The tree as far as the caller's data scope reaches: the whole company for a company-wide scope (and the
     * platform), the caller's department and those below it for a department-tree scope, else their department
     * alone (nothing when they have none).
     */
    async tree(companyId: number, ctx: SessionContext): Promise<DepartmentNode[]> {
      let all = await rows(companyId);
      const { permissions, dataScope } = ctx.grant;
      if (!permissions.includes(ALL_PERMISSIONS) && dataScope !== 'company' && dataScope !== 'all') {
        const mine = ctx.user.department_id;
        const reached = new Set<number>(mine !== null && all.some((r) => r.id === mine) ? [mine] : []);
        if (dataScope === 'departmentTree')
          for (let grew = true; grew;) {
            grew = false;
            for (const r of all)
              if (r.parent_id !== null && reached.has(r.parent_id) && !reached.has(r.id)) {
                reached.add(r.id);
                grew = true;
              }
          }
        all = all.filter((r) => reached.has(r.id));
      }
      const ids = new Set(all.map((r) => r.id));
      const byParent = new Map<number | null, DepartmentNode[]>();
      for (const r of all) {
        // a parent that is gone (or in another company) puts the department at the top
        const parent = r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null;
        const node: DepartmentNode = {
          id: r.id,
          name: r.name,
          parentId: parent,
          sort: r.sort,
          users: Number(r.users ?? 0),
          children: [],
        };
        byParent.set(parent, [...(byParent.get(parent) ?? []), node]);
      }
      const attach = (nodes: DepartmentNode[]): DepartmentNode[] =>
        nodes.map((n) => ({ ...n, children: attach(byParent.get(n.id) ?? []) }));
      return attach(byParent.get(null) ?? []);
    },

    /** The department and every one below it (for data scopes and filters). */
    async branch(companyId: number, id: number): Promise<number[]> {
      const all = await rows(companyId);
      const out = [id];
      for (let i = 0; i < out.length; i++) for (const r of all) if (r.parent_id === out[i]) out.push(r.id);
      return out;
    },

    async add(ctx: SessionContext, companyId: number, ip: string, input: DepartmentAddRequest) {
      requireManage(ctx);
      const parentId = input.parentId ?? null;
      if (parentId !== null && !(await inCompany(companyId, parentId)))
        throw fieldError('parentId', 'validation.invalid');
      // a new department goes under one within the caller's reach (at the top: a company scope)
      await authority.departmentWrite({ ctx, companyId, ip }, '/dept/add', null, parentId);
      const row = await db
        .insertInto('department')
        .values({
          company_id: companyId,
          parent_id: parentId,
          name: input.name,
          sort: input.sort ?? 0,
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await log(ctx, companyId, ip, 'log.departmentAdded', input.name, row.id);
      return { id: row.id };
    },

    async update(ctx: SessionContext, companyId: number, ip: string, input: DepartmentUpdateRequest) {
      requireManage(ctx);
      const current = await inCompany(companyId, input.id);
      if (!current) throw notFound();
      // renaming or moving takes reaching the department itself
      await authority.departmentWrite({ ctx, companyId, ip }, '/dept/update', input.id, null);
      const patch: { name?: string; parent_id?: number | null; sort?: number } = {};
      if (input.name !== undefined) patch.name = input.name;
      if (input.sort !== undefined) patch.sort = input.sort;
      let moved = false;
      if (input.parentId !== undefined && input.parentId !== current.parent_id) {
        if (input.parentId !== null) {
          if (!(await inCompany(companyId, input.parentId))) throw fieldError('parentId', 'validation.invalid');
          // the new parent may not be the department itself or anything below it
          const below = await this.branch(companyId, input.id);
          if (below.includes(input.parentId)) throw new AppError(ResultCode.conflict, 'departments.cycle');
        }
        // the department's branch and its new parent lie within the caller's reach
        await authority.department({ ctx, companyId, ip }, '/dept/update', input.id, input.parentId);
        patch.parent_id = input.parentId;
        moved = true;
      }
      if (Object.keys(patch).length) await db.updateTable('department').set(patch).where('id', '=', input.id).execute();
      await log(
        ctx,
        companyId,
        ip,
        moved ? 'log.departmentMoved' : 'log.departmentUpdated',
        patch.name ?? current.name,
        input.id,
      );
      if (moved) events?.onTreeChanged?.(companyId);
    },

    async remove(ctx: SessionContext, companyId: number, ip: string, id: number) {
      requireManage(ctx);
      const current = await inCompany(companyId, id);
      if (!current) throw notFound();
      await authority.departmentWrite({ ctx, companyId, ip }, '/dept/delete', id, null);
      const children = await db
        .selectFrom('department')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('parent_id', '=', id)
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      if (Number(children.n) > 0)
        throw new AppError(ResultCode.conflict, 'departments.hasChildren', { count: Number(children.n) });
      const people = await db
        .selectFrom('user_company as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('m.department_id', '=', id)
        .where('u.status', '!=', 'deleted')
        .executeTakeFirstOrThrow();
      if (Number(people.n) > 0)
        throw new AppError(ResultCode.conflict, 'departments.hasUsers', { count: Number(people.n) });
      await db.deleteFrom('department').where('id', '=', id).execute();
      await log(ctx, companyId, ip, 'log.departmentDeleted', current.name, id);
      events?.onTreeChanged?.(companyId);
    },
  };
}
export type DepartmentService = ReturnType<typeof createDepartmentService>;
