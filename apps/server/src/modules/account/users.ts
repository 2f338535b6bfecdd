// Creating a user account: one place for the defaults every new account gets (hashed password, invite
// code, message settings, the membership of its home company), used by registration, administrators, the seed
// and tests.
import { isEmail } from '@genset/protocol';
import type { Db } from '../../db/database.ts';
import { hashPassword } from '../auth/passwords.ts';
import { newInviteCode } from '../auth/tokens.ts';
import { DEFAULT_MESSAGE_SETTINGS } from '../auth/defaults.ts';

export interface NewUser {
  companyId: number;
  roleId: number | null;
  departmentId?: number | null;
  account: string;
  password: string;
  nickname: string;
  type?: 'personal' | 'corporate';
  /** A temporary password set by an administrator: changed at the first sign-in. */
  mustChangePassword?: boolean;
}

/** `hash`: how the password is hashed (Argon2id; a caller with its own, e.g. the auth service's, passes it). */
export async function createUser(db: Db, u: NewUser, hash = hashPassword): Promise<number> {
  const now = Date.now();
  const row = await db
    .insertInto('users')
    .values({
      company_id: u.companyId,
      department_id: u.departmentId ?? null,
      role_id: u.roleId,
      account: u.account,
      account_kind: isEmail(u.account) ? 'email' : 'mobile',
      nickname: u.nickname,
      type: u.type ?? 'corporate',
      password_hash: await hash(u.password),
      invite_code: newInviteCode(),
      status: 'active',
      message_settings: JSON.stringify(DEFAULT_MESSAGE_SETTINGS),
      created_at: now,
      updated_at: now,
      deleted_at: null,
      must_change_password: u.mustChangePassword ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('user_company')
    .values({
      user_id: row.id,
      company_id: u.companyId,
      role_id: u.roleId,
      department_id: u.departmentId ?? null,
      created_at: now,
    })
    .execute();
  return row.id;
}
