// Sign-in, sessions and the account's own life cycle (register, reset, change password, delete).
import {
  ResultCode,
  isEmail,
  type Language,
  type LoginResponse,
  type MessageSettings,
  type SetMessageRequest,
} from '@genset/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, fieldError, notSignedIn, tooMany } from '../../lib/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { MessageSender } from '../sms/sender.ts';
import { createAuthRepository, type UserRow } from './repository.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { keepRecent } from '../../lib/memo.ts';
import { grantOf, type Grant } from '../account/service.ts';
import { hashCode, hashToken, newNumericCode, newToken, TOKEN_PATTERN } from './tokens.ts';
import { DEFAULT_MESSAGE_SETTINGS } from './defaults.ts';
import { createUser } from '../account/users.ts';

export interface SessionContext {
  sessionId: number;
  user: UserRow;
  /** What the user's role grants, read with the session. */
  grant: Grant;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
  lang: Language;
}

const CODE_MAX_ATTEMPTS = 5;
const CODES_PER_HOUR = 10;
/** A sliding expiry is pushed forward at most this often, so a busy console does not write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

/** Signed-in sessions kept in memory, at most this many. */
const SESSION_CACHE_SIZE = 50_000;

/**
 * Sessions with their user and role as read last, for `ttlMs`. Every signed call needs them; reading them
 * was the largest cost left in a call like "my gensets". Changes made through this server drop the entries
 * concerned at once; changes made elsewhere (another instance, the database by hand) count after `ttlMs`.
 */
function createSessionCache(ttlMs: number) {
  const entries = new Map<string, { ctx: SessionContext; expiresAt: number; readAt: number }>();
  return {
    get(tokenHash: string) {
      const hit = entries.get(tokenHash);
      if (!hit) return undefined;
      if (Date.now() - hit.readAt >= ttlMs) {
        entries.delete(tokenHash);
        return undefined;
      }
      return hit;
    },
    set(tokenHash: string, ctx: SessionContext, expiresAt: number) {
      if (ttlMs > 0) keepRecent(entries, tokenHash, { ctx, expiresAt, readAt: Date.now() }, SESSION_CACHE_SIZE);
    },
    forget(which: (ctx: SessionContext) => boolean) {
      for (const [key, entry] of entries) if (which(entry.ctx)) entries.delete(key);
    },
  };
}

function normaliseAccount(account: string): string {
  const trimmed = account.trim();
  return isEmail(trimmed) ? trimmed.toLowerCase() : trimmed.replace(/^\+/, '');
}

export function createAuthService(deps: { db: Db; config: Config; sender: MessageSender; log: FastifyBaseLogger }) {
  const { config, sender, log } = deps;
  const repo = createAuthRepository(deps.db);
  const profileListeners: ((userId: number) => void)[] = [];
  const signedIn = createSessionCache(config.sessionCacheMs);

  /** Changes to a user or their sessions: the cache must not answer for them any more. */
  async function updateUser(id: number, patch: Parameters<typeof repo.updateUser>[1]) {
    await repo.updateUser(id, patch);
    signedIn.forget((ctx) => ctx.user.id === id);
  }
  async function revokeSession(id: number, now: number, reason: string) {
    await repo.revokeSession(id, now, reason);
    signedIn.forget((ctx) => ctx.sessionId === id);
  }
  async function revokeUserSessions(userId: number, now: number, reason: string, exceptSessionId?: number) {
    await repo.revokeUserSessions(userId, now, reason, exceptSessionId);
    signedIn.forget((ctx) => ctx.user.id === userId);
  }

  async function writeLog(user: UserRow | null, matter: string, feedback: Record<string, unknown>, ip: string | null) {
    await repo.log({
      company_id: user?.company_id ?? null,
      user_id: user?.id ?? null,
      account: user?.account ?? null,
      nickname: user?.nickname ?? null,
      matter,
      feedback: JSON.stringify(feedback),
      ip,
      target: null,
      created_at: Date.now(),
    });
  }

  /** Refuses while an account or address is locked; logs (once) when a lock has run out. */
  async function checkLocks(accountKey: string, ip: string, account: string) {
    const now = Date.now();
    const ipRow = await repo.findThrottle(`ip:${ip}`);
    if (ipRow?.locked_until && ipRow.locked_until > now) {
      const seconds = Math.ceil((ipRow.locked_until - now) / 1000);
      throw tooMany('errors.addressLocked', seconds, { minutes: Math.ceil(seconds / 60) });
    }
    const row = await repo.findThrottle(accountKey);
    if (row?.locked_until) {
      if (row.locked_until > now) {
        const seconds = Math.ceil((row.locked_until - now) / 1000);
        throw tooMany('errors.accountLocked', seconds, { minutes: Math.ceil(seconds / 60) });
      }
      await repo.clearThrottle(accountKey);
      log.warn({ account, lockedUntil: row.locked_until }, 'sign-in lock ended');
      const user = await repo.findUserByAccount(account);
      await writeLog(user ?? null, 'log.lockEnded', { account, until: row.locked_until }, ip);
    }
  }

  /** Counts a failed sign-in for the account and the address; the failure past the limit locks. */
  async function recordFailure(accountKey: string, ip: string, account: string): Promise<AppError> {
    const now = Date.now();
    const bump = async (key: string, limit: number) => {
      const row = await repo.findThrottle(key);
      const fresh = !row || now - row.first_failure_at > Math.max(config.authLockMs, 3_600_000);
      const failures = fresh ? 1 : row.failures + 1;
      const lockedUntil = failures > limit ? now + config.authLockMs : null;
      await repo.saveThrottle({
        throttle_key: key,
        failures,
        first_failure_at: fresh ? now : row.first_failure_at,
        locked_until: lockedUntil,
      });
      return lockedUntil;
    };
    const ipLock = await bump(`ip:${ip}`, config.authIpMaxFailures);
    const accountLock = await bump(accountKey, config.authMaxFailures);
    const seconds = Math.ceil(config.authLockMs / 1000);
    if (accountLock) {
      const until = new Date(accountLock).toISOString();
      log.warn({ account, ip, lockedUntil: until }, 'account locked after repeated failed sign-ins');
      const user = await repo.findUserByAccount(account);
      await writeLog(user ?? null, 'log.locked', { account, until }, ip);
      return tooMany('errors.accountLocked', seconds, { minutes: Math.ceil(seconds / 60) });
    }
    if (ipLock) {
      log.warn({ ip, lockedUntil: new Date(ipLock).toISOString() }, 'address locked after repeated failed sign-ins');
      return tooMany('errors.addressLocked', seconds, { minutes: Math.ceil(seconds / 60) });
    }
    return new AppError(ResultCode.invalid, 'errors.badCredentials');
  }

  /** `startIn`: another company of the person's to start in (the one the sign-in page's host name is bound to). */
  async function openSession(user: UserRow, client: ClientInfo, startIn?: number): Promise<LoginResponse> {
    const companyId = startIn ?? user.company_id;
    const now = Date.now();
    if (config.singleSession) await revokeUserSessions(user.id, now, 'replaced');
    const token = newToken();
    await repo.insertSession({
      user_id: user.id,
      token_hash: hashToken(token),
      created_at: now,
      last_seen_at: now,
      expires_at: now + config.sessionTtlMs,
      revoked_at: null,
      revoke_reason: null,
      ip: client.ip,
      user_agent: client.userAgent.slice(0, 300),
    });
    const company = await deps.db
      .selectFrom('company')
      .select(['index_template'])
      .where('id', '=', companyId)
      .executeTakeFirst();
    return {
      utoken: token,
      indextemplate: company?.index_template ?? 'default',
      companyid: companyId,
      mustChangePassword: user.must_change_password === 1,
    };
  }

  /**
   * A host bound to one company admits the people of that company (and the platform's) only: true for any host
   * the person may sign in on, or the id of another company of theirs the host is bound to (they start there).
   */
  async function hostAdmits(user: UserRow, hostname: string | undefined): Promise<boolean | number> {
    if (!hostname || user.company_id === 1) return true;
    const bound = await deps.db
      .selectFrom('company_host')
      .select('company_id')
      .where('host', '=', hostname.toLowerCase())
      .executeTakeFirst();
    if (!bound || bound.company_id === user.company_id) return true;
    const member = await deps.db
      .selectFrom('user_company')
      .select('company_id')
      .where('user_id', '=', user.id)
      .where('company_id', '=', bound.company_id)
      .executeTakeFirst();
    return member ? bound.company_id : false;
  }

  async function consumeCode(target: string, purpose: string, code: string): Promise<boolean> {
    const row = await repo.latestCode(target, purpose);
    const now = Date.now();
    if (!row || row.used_at || row.expires_at < now || row.attempts >= CODE_MAX_ATTEMPTS) return false;
    if (row.code_hash !== hashCode(config.signSecret, target, purpose, code)) {
      await repo.markCode(row.id, { attempts: row.attempts + 1 });
      return false;
    }
    await repo.markCode(row.id, { used_at: now });
    return true;
  }

  async function requireActive(user: UserRow | undefined): Promise<UserRow> {
    if (!user || user.status === 'deleted') throw notSignedIn();
    if (user.status !== 'active') throw new AppError(ResultCode.forbidden, 'errors.accountDisabled');
    return user;
  }

  return {
    normaliseAccount,

    async login(input: { username: string; password: string; hostname?: string }, client: ClientInfo) {
      const account = normaliseAccount(input.username);
      const key = `acct:${account}`;
      await checkLocks(key, client.ip, account);
      const user = await repo.findUserByAccount(account);
      const good = await verifyPassword(user?.password_hash ?? null, input.password);
      const admitted = user && good && user.status !== 'deleted' ? await hostAdmits(user, input.hostname) : false;
      if (!user || admitted === false) {
        throw await recordFailure(key, client.ip, account);
      }
      if (user.status !== 'active') throw new AppError(ResultCode.forbidden, 'errors.accountDisabled');
      await repo.clearThrottle(key);
      const session = await openSession(user, client, typeof admitted === 'number' ? admitted : undefined);
      await writeLog(user, 'log.signedIn', { method: 'password' }, client.ip);
      return session;
    },

    async codeLogin(input: { username: string; code: string; hostname?: string }, client: ClientInfo) {
      const account = normaliseAccount(input.username);
      const key = `acct:${account}`;
      await checkLocks(key, client.ip, account);
      const user = await repo.findUserByAccount(account);
      const good = await consumeCode(account, 'login', input.code);
      const admitted = user && good && user.status !== 'deleted' ? await hostAdmits(user, input.hostname) : false;
      if (!user || admitted === false) {
        const failure = await recordFailure(key, client.ip, account);
        throw failure.code === ResultCode.invalid ? new AppError(ResultCode.invalid, 'errors.codeInvalid') : failure;
      }
      if (user.status !== 'active') throw new AppError(ResultCode.forbidden, 'errors.accountDisabled');
      await repo.clearThrottle(key);
      const session = await openSession(user, client, typeof admitted === 'number' ? admitted : undefined);
      await writeLog(user, 'log.signedIn', { method: 'code' }, client.ip);
      return session;
    },

    /**
     * Sends a one-time code. The answer is the same whether or not the account exists, so the call
     * cannot be used to find out who has an account.
     */
    async sendCode(input: { username: string; purpose: 'login' | 'register' | 'reset' }, client: ClientInfo) {
      const target = normaliseAccount(input.username);
      const now = Date.now();
      const last = await repo.latestCode(target);
      if (last && now - last.created_at < config.smsResendMs) {
        throw tooMany('errors.codeTooSoon', Math.ceil((config.smsResendMs - (now - last.created_at)) / 1000), {
          seconds: Math.ceil((config.smsResendMs - (now - last.created_at)) / 1000),
        });
      }
      if ((await repo.countCodesSince(target, now - 3_600_000)) >= CODES_PER_HOUR) {
        throw tooMany('errors.codeTooSoon', 3600, { seconds: 3600 });
      }
      const ipKey = `code-ip:${client.ip}`;
      const ipRow = await repo.findThrottle(ipKey);
      const ipFresh = !ipRow || now - ipRow.first_failure_at > 3_600_000;
      const ipCount = ipFresh ? 1 : ipRow.failures + 1;
      if (ipCount > CODES_PER_HOUR * 5) {
        throw tooMany('errors.codeTooSoon', 3600, { seconds: 3600 });
      }
      await repo.saveThrottle({
        throttle_key: ipKey,
        failures: ipCount,
        first_failure_at: ipFresh ? now : ipRow.first_failure_at,
        locked_until: null,
      });

      const user = await repo.findUserByAccount(target);
      const exists = !!user && user.status !== 'deleted';
      const code = newNumericCode();
      await repo.insertCode({
        target,
        purpose: input.purpose,
        code_hash: hashCode(config.signSecret, target, input.purpose, code),
        created_at: now,
        expires_at: now + config.smsCodeTtlMs,
      });
      const channel = isEmail(target) ? 'email' : 'sms';
      const minutes = Math.round(config.smsCodeTtlMs / 60_000);
      if (input.purpose === 'register' && exists) {
        await sender.send({
          channel,
          to: target,
          purpose: input.purpose,
          text: translate(client.lang, 'sms.accountExists'),
        });
      } else if (input.purpose === 'register' || exists) {
        await sender.send({
          channel,
          to: target,
          purpose: input.purpose,
          code,
          text: translate(client.lang, 'sms.code', { code, minutes }),
        });
      }
      return { retryAfter: Math.ceil(config.smsResendMs / 1000) };
    },

    /** Resolves a token into its session; the error says why it is not usable. */
    async authenticate(token: string | undefined): Promise<SessionContext> {
      if (!token) throw notSignedIn();
      if (!TOKEN_PATTERN.test(token)) throw new AppError(ResultCode.tokenInvalid, 'errors.tokenInvalid');
      const tokenHash = hashToken(token);
      const known = signedIn.get(tokenHash);
      if (known) {
        if (known.expiresAt <= Date.now()) throw new AppError(ResultCode.tokenExpired, 'errors.tokenExpired');
        return known.ctx;
      }
      const row = await repo.findSignedIn(tokenHash);
      if (!row) throw notSignedIn();
      const {
        session_id: sessionId,
        session_expires_at: expiresAt,
        session_last_seen_at: lastSeenAt,
        session_revoked_at: revokedAt,
        session_revoke_reason: revokeReason,
        role_key_id: roleId,
        role_name: roleName,
        role_permissions: permissions,
        role_menus: menus,
        role_data_scope: dataScope,
        role_status: roleStatus,
        ...userRow
      } = row;
      if (revokedAt) {
        if (revokeReason === 'replaced') throw new AppError(ResultCode.sessionReplaced, 'errors.sessionReplaced');
        throw notSignedIn();
      }
      const now = Date.now();
      if (expiresAt <= now) throw new AppError(ResultCode.tokenExpired, 'errors.tokenExpired');
      const user = await requireActive(userRow);
      if (now - lastSeenAt > TOUCH_INTERVAL_MS) {
        await repo.touchSession(sessionId, now, now + config.sessionTtlMs);
      }
      const grant = grantOf(
        roleId === null
          ? null
          : {
              id: roleId,
              name: roleName!,
              permissions: permissions!,
              menus: menus!,
              data_scope: dataScope!,
              status: roleStatus!,
            },
      );
      const ctx = { sessionId, user, grant };
      signedIn.set(tokenHash, ctx, now - lastSeenAt > TOUCH_INTERVAL_MS ? now + config.sessionTtlMs : expiresAt);
      return ctx;
    },

    /** The user's subscriptions (or anything else read with the session) changed: read it again. */
    forgetUser(userId: number) {
      signedIn.forget((ctx) => ctx.user.id === userId);
    },

    /** A role changed (permissions, pages, scope, status) or is gone: sessions holding it read it again. */
    forgetRole(roleId: number) {
      signedIn.forget((ctx) => ctx.grant.roleId === roleId || ctx.user.role_id === roleId);
    },

    /** An administrator's change to a person's account (status, temporary password, nickname). */
    async updateAccount(userId: number, patch: Parameters<typeof repo.updateUser>[1]) {
      await updateUser(userId, patch);
      if (patch.nickname !== undefined) for (const listener of profileListeners) listener(userId);
    },

    /** Ends every session of a person (disabled, removed, password set by an administrator). */
    async endSessions(userId: number, reason: string) {
      await revokeUserSessions(userId, Date.now(), reason);
    },

    async logout(ctx: SessionContext, ip: string | null = null) {
      await revokeSession(ctx.sessionId, Date.now(), 'logout');
      await writeLog(ctx.user, 'log.signedOut', {}, ip);
    },

    async changePassword(ctx: SessionContext, input: { password: string; newPassword: string }, client: ClientInfo) {
      if (!(await verifyPassword(ctx.user.password_hash, input.password))) {
        throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      }
      if (input.password === input.newPassword) throw fieldError('newPassword', 'errors.samePassword');
      const now = Date.now();
      await updateUser(ctx.user.id, {
        password_hash: await hashPassword(input.newPassword),
        must_change_password: 0,
        updated_at: now,
      });
      await revokeUserSessions(ctx.user.id, now, 'password', ctx.sessionId);
      await writeLog(ctx.user, 'log.passwordChanged', {}, client.ip);
    },

    async register(
      input: {
        username: string;
        code: string;
        newPassword: string;
        nickname?: string;
        type: 'personal' | 'corporate';
        inviteCode?: string;
        hostname?: string;
      },
      client: ClientInfo,
    ) {
      const account = normaliseAccount(input.username);
      if (!(await consumeCode(account, 'register', input.code)))
        throw new AppError(ResultCode.invalid, 'errors.codeInvalid');
      if (await repo.findUserByAccount(account)) throw new AppError(ResultCode.conflict, 'errors.accountTaken');
      let companyId = 1;
      if (input.inviteCode) {
        const inviter = await repo.findUserByInviteCode(input.inviteCode.toUpperCase());
        if (!inviter) throw fieldError('inviteCode', 'errors.inviteInvalid');
        companyId = inviter.company_id;
      } else if (input.hostname) {
        const bound = await deps.db
          .selectFrom('company_host')
          .select('company_id')
          .where('host', '=', input.hostname.toLowerCase())
          .executeTakeFirst();
        if (bound) companyId = bound.company_id;
      }
      const role = await deps.db
        .selectFrom('role')
        .select('id')
        .where('company_id', '=', companyId)
        .where('role_key', '=', 'personal')
        .executeTakeFirst();
      const id = await createUser(deps.db, {
        companyId,
        roleId: role?.id ?? null,
        account,
        password: input.newPassword,
        nickname: input.nickname?.trim() || account.replace(/@.*/, ''),
        type: input.type,
      });
      const user = (await repo.findUserById(id))!;
      await writeLog(user, 'log.registered', {}, client.ip);
      return openSession(user, client);
    },

    async forgetPassword(input: { username: string; code: string; newPassword: string }, client: ClientInfo) {
      const account = normaliseAccount(input.username);
      const user = await repo.findUserByAccount(account);
      const good = await consumeCode(account, 'reset', input.code);
      if (!user || !good || user.status === 'deleted') throw new AppError(ResultCode.invalid, 'errors.codeInvalid');
      const now = Date.now();
      await updateUser(user.id, {
        password_hash: await hashPassword(input.newPassword),
        must_change_password: 0,
        updated_at: now,
      });
      await revokeUserSessions(user.id, now, 'password');
      await repo.clearThrottle(`acct:${account}`);
      await writeLog(user, 'log.passwordReset', {}, client.ip);
    },

    /** Erases the person's data for good; operation-log rows stay, without who did them. */
    async deleteAccount(ctx: SessionContext, password: string, client: ClientInfo) {
      if (!(await verifyPassword(ctx.user.password_hash, password))) {
        throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      }
      const now = Date.now();
      await writeLog(ctx.user, 'log.accountDeleted', {}, client.ip);
      await revokeUserSessions(ctx.user.id, now, 'deleted');
      await repo.anonymiseLog(ctx.user.id);
      await updateUser(ctx.user.id, {
        account: null,
        nickname: '',
        password_hash: null,
        status: 'deleted',
        message_settings: '{}',
        department_id: null,
        updated_at: now,
        deleted_at: now,
      });
    },

    async updateProfile(ctx: SessionContext, nickname: string, ip: string | null = null) {
      await updateUser(ctx.user.id, { nickname: nickname.trim(), updated_at: Date.now() });
      await writeLog(
        { ...ctx.user, nickname: nickname.trim() },
        'log.profileChanged',
        { nickname: nickname.trim() },
        ip,
      );
      for (const listener of profileListeners) listener(ctx.user.id);
    },

    /** Called after a user changed their nickname (set lists show owners by it). */
    onProfileChanged(listener: (userId: number) => void) {
      profileListeners.push(listener);
    },

    async setMessageSettings(ctx: SessionContext, patch: SetMessageRequest, ip: string | null = null) {
      const current: MessageSettings = {
        ...DEFAULT_MESSAGE_SETTINGS,
        ...(JSON.parse(ctx.user.message_settings) as Partial<MessageSettings>),
      };
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) (current as Record<string, unknown>)[k] = v;
      // an unknown zone would make quiet hours the server's; keep the one known to work
      if (patch.timeZone) {
        try {
          new Intl.DateTimeFormat('en', { timeZone: patch.timeZone });
        } catch {
          current.timeZone = '';
        }
      }
      await updateUser(ctx.user.id, { message_settings: JSON.stringify(current), updated_at: Date.now() });
      await writeLog(ctx.user, 'log.messageSettingsChanged', {}, ip);
      return current;
    },

    hashPassword,
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
