// A company built straight in the database for the authority tests: departments, roles with chosen permissions
// and data scopes, people holding them, and sets in departments. People get one precomputed password hash, so a
// company of many people costs no hashing.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/database.ts';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { ensureCompanyRoles } from '../../src/seed/base.ts';
import { insertCompany } from '../helpers.ts';

export const PASSWORD = 'Start#2026';
let hashed: Promise<string> | undefined;
let n = 0;
const uid = () => `${Date.now().toString(36)}${(n++).toString(36)}${randomBytes(2).toString('hex')}`;

export async function company(db: Db, name: string) {
  const id = await insertCompany(db, name);
  const builtIn = await ensureCompanyRoles(db, id);
  return { id, builtIn };
}

export async function department(db: Db, companyId: number, name: string, parent: number | null) {
  const r = await db
    .insertInto('department')
    .values({ company_id: companyId, parent_id: parent, name, sort: 0, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function role(
  db: Db,
  companyId: number,
  name: string,
  permissions: string[],
  dataScope: string,
  chosenSets: number[] = [],
) {
  const r = await db
    .insertInto('role')
    .values({
      company_id: companyId,
      role_key: `custom_${uid()}`,
      name,
      permissions: JSON.stringify(permissions),
      menus: JSON.stringify(['*']),
      data_scope: dataScope,
      status: 1,
      created_at: Date.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (chosenSets.length)
    await db
      .insertInto('role_target')
      .values(chosenSets.map((id) => ({ role_id: r.id, kind: 'set', target_id: id })))
      .execute();
  return r.id;
}

/** A person of the company (their home) with a role in a department. */
export async function person(db: Db, companyId: number, roleId: number | null, departmentId: number | null) {
  hashed ??= hashPassword(PASSWORD);
  const account = `p${uid()}@example.com`;
  const now = Date.now();
  const { id } = await db
    .insertInto('users')
    .values({
      company_id: companyId,
      department_id: departmentId,
      role_id: roleId,
      account,
      account_kind: 'email',
      nickname: account.slice(0, 12),
      type: 'corporate',
      password_hash: await hashed,
      invite_code: uid().toUpperCase(),
      status: 'active',
      message_settings: '{}',
      created_at: now,
      updated_at: now,
      deleted_at: null,
      must_change_password: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('user_company')
    .values({ user_id: id, company_id: companyId, role_id: roleId, department_id: departmentId, created_at: now })
    .execute();
  return { id, account };
}

/** A set of the company in a department (or its owner's). */
export async function set(
  db: Db,
  companyId: number,
  name: string,
  departmentId: number | null,
  ownerUserId: number | null = null,
) {
  const token = uid();
  const r = await db
    .insertInto('genset')
    .values({
      token,
      company_id: companyId,
      owner_user_id: ownerUserId,
      name,
      modem_id: null,
      port: '1',
      address: 1,
      protocol_key: 'layout-s',
      time_zone: 'UTC',
      subscription_code: uid(),
      control_code: uid(),
      details: '{}',
      created_at: Date.now(),
      deleted_at: null,
      department_id: departmentId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: r.id, token, name };
}
