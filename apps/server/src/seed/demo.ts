// The demo company and accounts a newcomer signs in with. Written once; a second start changes nothing.
import type { Db } from '../db/database.ts';
import { createUser, ensureCompanyRoles, seedBase } from './base.ts';

export const DEMO_PASSWORD = 'Demo#2026';
export const DEMO_ADMIN = { account: 'admin@example.com', password: 'Admin#2026' };
export const DEMO_ACCOUNTS = [
  { account: 'manager@example.com', role: 'companyAdmin', nickname: 'Mia Manager', label: 'Company administrator' },
  { account: 'operator@example.com', role: 'operator', nickname: 'Oscar Operator', label: 'Operator' },
  { account: 'viewer@example.com', role: 'viewer', nickname: 'Vera Viewer', label: 'Viewer' },
  {
    account: '13800000001',
    role: 'personal',
    nickname: 'Pat Personal',
    label: 'Personal user',
    type: 'personal' as const,
  },
];
export const DEMO_COMPANY_NAME = 'Demo Power Co.';
/** The demo company's departments, each after its parent. */
export const DEMO_DEPARTMENTS: { name: string; parent: string | null }[] = [
  { name: 'Headquarters', parent: null },
  { name: 'North region', parent: 'Headquarters' },
  { name: 'Service team', parent: 'North region' },
];

/** The id of a demo department by name (undefined: none such, e.g. a demo company seeded before the tree). */
export async function demoDepartment(db: Db, companyId: number, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('department')
    .select('id')
    .where('company_id', '=', companyId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id;
}

export async function seedDemo(db: Db): Promise<{ created: boolean }> {
  await seedBase(db, DEMO_ADMIN);
  const existing = await db.selectFrom('company').select('id').where('name', '=', DEMO_COMPANY_NAME).executeTakeFirst();
  if (existing) return { created: false };
  const now = Date.now();
  const company = await db
    .insertInto('company')
    .values({
      name: DEMO_COMPANY_NAME,
      title: 'Demo Power Fleet',
      logo: null,
      baidu_key: '',
      index_template: 'default',
      created_at: now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('company_host').values({ host: 'demo.localhost', company_id: company.id }).execute();
  const roles = await ensureCompanyRoles(db, company.id);
  // A small department tree, so that department data scopes show something: the manager and the operator
  // (department scope) in the north region, the viewer in its service team. The demo fleet puts some sets at
  // headquarters, some in the region and one in the team, and a station in the region; the others follow their
  // owner, the manager (DEMO_DEPARTMENTS).
  const departments: Record<string, number> = {};
  for (const [sort, d] of DEMO_DEPARTMENTS.entries()) {
    const row = await db
      .insertInto('department')
      .values({
        company_id: company.id,
        parent_id: d.parent ? departments[d.parent]! : null,
        name: d.name,
        sort,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    departments[d.name] = row.id;
  }
  const departmentOf: Record<string, string | null> = {
    companyAdmin: 'North region',
    operator: 'North region',
    viewer: 'Service team',
    personal: null,
  };
  for (const a of DEMO_ACCOUNTS) {
    const department = departmentOf[a.role] ?? null;
    await createUser(db, {
      companyId: company.id,
      roleId: roles[a.role] ?? null,
      departmentId: department ? departments[department]! : null,
      account: a.account,
      password: DEMO_PASSWORD,
      nickname: a.nickname,
      type: a.type ?? 'corporate',
    });
  }
  return { created: true };
}
