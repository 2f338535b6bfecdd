// Sign-in, sessions and the account's own life cycle (register, reset, change password, delete).
import {
  ResultCode,
  isEmail,
  pickLanguage,
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
import { DeliveryError } from '../messages/types.ts';
import { createAuthRepository, type UserRow } from './repository.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { keepRecent } from '../../lib/memo.ts';
import { grantOf, type Grant } from '../account/service.ts';
import { hashCode, hashToken, newNumericCode, newToken, TOKEN_PATTERN } from './tokens.ts';
import { DEFAULT_MESSAGE_SETTINGS } from './defaults.ts';
import { createUser } from '../account/users.ts';
import { createMemberRepository } from '../members/repository.ts';

export interface SessionContext {
  sessionId: number;
  user: UserRow;
  /** What the user's role grants, read with the session. */
  grant: Grant;
  /**
   * Set when the call acts for another company the person belongs to (X-Companyid): the person as they are at
   * home (their own company, role and department). Sets the switched role does not reach are theirs only through
   * ownership and subscriptions, with what the home role grants.
   */
  home?: SessionContext;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
  lang: Language;
}

/**
 * A code that did not leave the server, as the person asking reads it: a number the provider refuses is the
 * field's fault; anything else says why it did not go out and that nothing was sent.
 */
function sendFailure(err: unknown): AppError {
  if (!(err instanceof DeliveryError)) return new AppError(ResultCode.unavailable, 'messages.failure.unavailable');
  if (err.kind === 'invalid-recipient') return fieldError('username', 'messages.failure.invalid-recipient');
  const code = err.kind === 'quota' ? ResultCode.tooMany : ResultCode.unavailable;
  return new AppError(code, `messages.failure.${err.kind}`);
}

const CODE_MAX_ATTEMPTS = 5;
/** How long a code that opens an embedded console lives (it is taken once, at once, by the frame). */
export const EMBED_CODE_TTL_MS = 60_000;
/** The one-time codes table holds embedding codes under this purpose prefix, with the account's id after it. */
const EMBED_PURPOSE = 'embed:';
/** An embedding code's row is found by the code's hash, never by the code itself. */
const embedTarget = (code: string) => `embed:${hashToken(code)}`;
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

  /** The count of one account's failures from one address. */
  const pairKey = (account: string, ip: string) => `acct-ip:${account}|${ip}`;
  const accountKey = (account: string) => `acct:${account}`;
  const lockedFor = (until: number, now: number) => {
    const seconds = Math.ceil((until - now) / 1000);
    return tooMany('errors.accountLocked', seconds, { minutes: Math.ceil(seconds / 60) });
  };
  /** Ends every sign-in lock and count of the account, at every address (a new password was set). */
  async function clearSignInLocks(account: string) {
    await repo.clearThrottle(accountKey(account));
    await repo.clearThrottles(`acct-ip:${account}|`);
  }

  /**
   * Refuses while the address, the account at this address, or the whole account is locked; logs (once) when a
   * lock has run out. The account-wide lock does not refuse an address the person has signed in from before.
   */
  async function checkLocks(account: string, ip: string, user: UserRow | undefined) {
    const now = Date.now();
    const ipRow = await repo.findThrottle(`ip:${ip}`);
    if (ipRow?.locked_until && ipRow.locked_until > now) {
      const seconds = Math.ceil((ipRow.locked_until - now) / 1000);
      throw tooMany('errors.addressLocked', seconds, { minutes: Math.ceil(seconds / 60) });
    }
    for (const key of [pairKey(account, ip), accountKey(account)]) {
      const row = await repo.findThrottle(key);
      if (!row?.locked_until) continue;
      if (row.locked_until > now) {
        if (key !== accountKey(account) || !user || !(await repo.signedInFrom(user.id, ip)))
          throw lockedFor(row.locked_until, now);
        continue;
      }
      await repo.clearThrottle(key);
      log.warn({ account, ip, lockedUntil: row.locked_until }, 'sign-in lock ended');
      await writeLog(user ?? null, 'log.lockEnded', { account, until: row.locked_until }, ip);
    }
  }

  /**
   * Tells the owner that their account is locked for new addresses (an outsider can put this lock on from many
   * addresses; the owner is told, and still signs in from where they have before): through the same sender as
   * one-time codes, to the notice address of their message settings or the account itself, in the account's
   * language.
   */
  async function noticeLock(user: UserRow, until: number) {
    const settings = {
      ...DEFAULT_MESSAGE_SETTINGS,
      ...(JSON.parse(user.message_settings) as Partial<MessageSettings>),
    };
    const account = user.account ?? '';
    const email = settings.email || (isEmail(account) ? account : '');
    const phone = settings.phone || (!isEmail(account) ? account : '');
    const to = email || phone;
    if (!to) return;
    // the language the person uses the console in, else the one of their notices (as notices choose)
    const lang = pickLanguage(user.language || settings.language);
    const minutes = Math.ceil(config.authLockMs / 60_000);
    try {
      await sender.send({
        channel: email ? 'email' : 'sms',
        to,
        purpose: 'accountLocked',
        subject: translate(lang, 'sms.accountLockedSubject'),
        text: translate(lang, 'sms.accountLocked', { minutes }),
        language: lang,
        companyId: user.company_id,
        userId: user.id,
      });
    } catch (err) {
      log.warn({ err, userId: user.id, until }, 'the notice of an account lock was not sent');
    }
  }

  /**
   * Counts a failed sign-in for the address, the account at the address and the whole account; the failure past
   * a limit locks. The account at one address locks early; the whole account only after many more failures,
   * which then come from many addresses, since each address is locked long before.
   */
  async function recordFailure(account: string, ip: string, user: UserRow | undefined): Promise<AppError> {
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
      // newly locked, not extended by a failure from an address the account-wide lock lets through
      const newly = lockedUntil !== null && !(row?.locked_until && row.locked_until > now);
      return { lockedUntil, newly };
    };
    const ipLock = await bump(`ip:${ip}`, config.authIpMaxFailures);
    const pairLock = await bump(pairKey(account, ip), config.authMaxFailures);
    const accountLock = await bump(accountKey(account), config.authAccountMaxFailures);
    if (accountLock.newly) {
      const until = new Date(accountLock.lockedUntil!).toISOString();
      log.warn({ account, ip, lockedUntil: until }, 'account locked after failed sign-ins from many addresses');
      await writeLog(user ?? null, 'log.locked', { account, until }, ip);
      if (user) await noticeLock(user, accountLock.lockedUntil!);
    }
    if (pairLock.newly) {
      const until = new Date(pairLock.lockedUntil!).toISOString();
      log.warn({ account, ip, lockedUntil: until }, 'account locked at one address after repeated failed sign-ins');
      await writeLog(user ?? null, 'log.lockedAddress', { account, until }, ip);
    }
    if (pairLock.lockedUntil) return lockedFor(pairLock.lockedUntil, now);
    if (accountLock.lockedUntil && !(user && (await repo.signedInFrom(user.id, ip))))
      return lockedFor(accountLock.lockedUntil, now);
    if (ipLock.lockedUntil) {
      log.warn(
        { ip, lockedUntil: new Date(ipLock.lockedUntil).toISOString() },
        'address locked after repeated failed sign-ins',
      );
      return tooMany('errors.addressLocked', Math.ceil(config.authLockMs / 1000), {
        minutes: Math.ceil(config.authLockMs / 60_000),
      });
    }
    return new AppError(ResultCode.invalid, 'errors.badCredentials');
  }

  /** `startIn`: another company of the person's to start in (the one the sign-in page's host name is bound to). */
  /** Keeps the language the person uses the console in with their account (for the messages sent to them). */
  async function keepLanguage(user: UserRow, lang: Language): Promise<void> {
    if (user.language === lang) return;
    await deps.db.updateTable('users').set({ language: lang }).where('id', '=', user.id).execute();
    user.language = lang;
  }

  async function openSession(user: UserRow, client: ClientInfo, startIn?: number): Promise<LoginResponse> {
    const companyId = startIn ?? user.company_id;
    const now = Date.now();
    await keepLanguage(user, client.lang);
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
      const user = await repo.findUserByAccount(account);
      await checkLocks(account, client.ip, user);
      const good = await verifyPassword(user?.password_hash ?? null, input.password);
      const admitted = user && good && user.status !== 'deleted' ? await hostAdmits(user, input.hostname) : false;
      // the right password at an address bound to another company is no failed guess
      if (user && good && user.status !== 'deleted' && admitted === false)
        throw new AppError(ResultCode.forbidden, 'errors.hostRefused');
      if (!user || admitted === false) {
        throw await recordFailure(account, client.ip, user);
      }
      if (user.status !== 'active') throw new AppError(ResultCode.forbidden, 'errors.accountDisabled');
      await repo.clearThrottle(pairKey(account, client.ip));
      const session = await openSession(user, client, typeof admitted === 'number' ? admitted : undefined);
      await writeLog(user, 'log.signedIn', { method: 'password' }, client.ip);
      return session;
    },

    async codeLogin(input: { username: string; code: string; hostname?: string }, client: ClientInfo) {
      const account = normaliseAccount(input.username);
      const user = await repo.findUserByAccount(account);
      await checkLocks(account, client.ip, user);
      const good = await consumeCode(account, 'login', input.code);
      const admitted = user && good && user.status !== 'deleted' ? await hostAdmits(user, input.hostname) : false;
      if (user && good && user.status !== 'deleted' && admitted === false)
        throw new AppError(ResultCode.forbidden, 'errors.hostRefused');
      if (!user || admitted === false) {
        const failure = await recordFailure(account, client.ip, user);
        throw failure.code === ResultCode.invalid ? new AppError(ResultCode.invalid, 'errors.codeInvalid') : failure;
      }
      if (user.status !== 'active') throw new AppError(ResultCode.forbidden, 'errors.accountDisabled');
      await repo.clearThrottle(pairKey(account, client.ip));
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
      const whose = { language: client.lang, companyId: user?.company_id ?? null, userId: user?.id ?? null };
      try {
        if (input.purpose === 'register' && exists) {
          await sender.send({
            channel,
            to: target,
            purpose: input.purpose,
            text: translate(client.lang, 'sms.accountExists'),
            ...whose,
          });
        } else if (input.purpose === 'register' || exists) {
          await sender.send({
            channel,
            to: target,
            purpose: input.purpose,
            code,
            text: translate(client.lang, 'sms.code', { code, minutes }),
            ...whose,
          });
        }
      } catch (err) {
        // the code that did not go out is no code: the person may ask again at once
        await repo.deleteCodesSince(target, now);
        throw sendFailure(err);
      }
      return { retryAfter: Math.ceil(config.smsResendMs / 1000) };
    },

    /** A code for an embedded console of this person: valid `EMBED_CODE_TTL_MS`, exchanged once for a session. */
    async embedCode(ctx: SessionContext) {
      const code = newToken();
      const target = embedTarget(code);
      const purpose = `${EMBED_PURPOSE}${ctx.user.id}`;
      const now = Date.now();
      await repo.insertCode({
        target,
        purpose,
        code_hash: hashCode(config.signSecret, target, purpose, code),
        created_at: now,
        expires_at: now + EMBED_CODE_TTL_MS,
      });
      return { code, expiresIn: Math.round(EMBED_CODE_TTL_MS / 1000) };
    },

    /** Exchanges an embedding code for a session of its own; a used, expired or unknown code opens nothing. */
    async embedLogin(code: string, client: ClientInfo) {
      const target = embedTarget(code);
      const row = await repo.latestCode(target);
      const now = Date.now();
      const refused = () => new AppError(ResultCode.invalid, 'errors.embedCodeInvalid');
      if (!row || row.used_at || row.expires_at < now || !row.purpose.startsWith(EMBED_PURPOSE)) throw refused();
      if (row.code_hash !== hashCode(config.signSecret, target, row.purpose, code)) throw refused();
      if (!(await repo.claimCode(row.id, now))) throw refused();
      const user = await repo.findUserById(Number(row.purpose.slice(EMBED_PURPOSE.length)));
      if (!user || user.status !== 'active') throw refused();
      const session = await openSession(user, client);
      await writeLog(user, 'log.signedIn', { method: 'embed' }, client.ip);
      return session;
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

    /** The console's language of a signed-in request, kept with the account when it changed. */
    keepLanguage(ctx: SessionContext, lang: Language): Promise<void> {
      return keepLanguage(ctx.user, lang);
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
    clearSignInLocks,

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
      // An invitation code (a member's personal one) or a host name bound to a company only asks to join it: the
      // account starts on its own (the platform's personal accounts) and an application waits in the company's
      // members until an administrator approves it with a role.
      let joining: { companyId: number; code: string } | null = null;
      if (input.inviteCode) {
        const inviter = await repo.findUserByInviteCode(input.inviteCode.toUpperCase());
        if (!inviter) throw fieldError('inviteCode', 'errors.inviteInvalid');
        joining = { companyId: inviter.company_id, code: input.inviteCode.toUpperCase() };
      } else if (input.hostname) {
        const bound = await deps.db
          .selectFrom('company_host')
          .select('company_id')
          .where('host', '=', input.hostname.toLowerCase())
          .executeTakeFirst();
        if (bound) joining = { companyId: bound.company_id, code: input.hostname.toLowerCase() };
      }
      const role = await deps.db
        .selectFrom('role')
        .select('id')
        .where('company_id', '=', 1)
        .where('role_key', '=', 'personal')
        .executeTakeFirst();
      const id = await createUser(deps.db, {
        companyId: 1,
        roleId: role?.id ?? null,
        account,
        password: input.newPassword,
        nickname: input.nickname?.trim() || account.replace(/@.*/, ''),
        type: input.type,
      });
      const user = (await repo.findUserById(id))!;
      await writeLog(user, 'log.registered', {}, client.ip);
      let pending: { company: string } | null = null;
      if (joining && joining.companyId !== 1) {
        const company = await deps.db
          .selectFrom('company')
          .select('title')
          .where('id', '=', joining.companyId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (company) {
          await createMemberRepository(deps.db).insertApplication({
            companyId: joining.companyId,
            invitationId: null,
            code: joining.code,
            userId: id,
          });
          await writeLog(
            { ...user, company_id: joining.companyId },
            'log.memberApplied',
            { code: joining.code, company: company.title },
            client.ip,
          );
          pending = { company: company.title };
        }
      }
      return { session: await openSession(user, client), pending };
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
      await clearSignInLocks(account);
      await writeLog(user, 'log.passwordReset', {}, client.ip);
    },

    /** Erases the person's data for good; operation-log rows stay, without who did them. */
    async deleteAccount(ctx: SessionContext, password: string, client: ClientInfo) {
      if (!(await verifyPassword(ctx.user.password_hash, password))) {
        throw new AppError(ResultCode.invalid, 'errors.wrongPassword');
      }
      // a set left owned by an erased account would have nobody to answer for it
      const owned = await repo.ownedSets(ctx.user.id);
      if (owned > 0) throw new AppError(ResultCode.invalid, 'errors.ownedSetsFirst', { count: owned });
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
