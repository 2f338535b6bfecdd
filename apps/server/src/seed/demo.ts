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
  const ops = await db
    .insertInto('department')
    .values({ company_id: company.id, parent_id: null, name: 'Operations', sort: 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const a of DEMO_ACCOUNTS) {
    await createUser(db, {
      companyId: company.id,
      roleId: roles[a.role] ?? null,
      departmentId: a.role === 'personal' ? null : ops.id,
      account: a.account,
      password: DEMO_PASSWORD,
      nickname: a.nickname,
      type: a.type ?? 'corporate',
    });
  }
  return { created: true };
}
