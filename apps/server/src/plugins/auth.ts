// Resolves X-Token into the signed-in user for routes that need one, and keeps each user inside the companies
// they belong to: X-Companyid chooses another company for a platform administrator (any company) or for a person
// who belongs to it (they then act with the role and department held there); for anyone else it is ignored.
// A person whose administrator set a temporary password may only change it, read who they are, or sign out.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ALL_PERMISSIONS, API_BASE, MAX_ROW_ID, ResultCode } from '@genset/protocol';
import type { AuthService, SessionContext } from '../modules/auth/service.ts';
import type { Grant } from '../modules/account/service.ts';
import type { MembershipService } from '../modules/users/memberships.ts';
import { AppError } from '../lib/errors.ts';

/** The calls a person with a temporary password may still make. */
const WHILE_PASSWORD_TEMPORARY = new Set(['/user/password', '/logout', '/user/info'].map((u) => `${API_BASE}${u}`));

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionContext | null;
    grant: Grant | null;
    /** The company the call acts for. */
    companyId: number;
  }
  interface FastifyInstance {
    requireUser: (req: FastifyRequest) => Promise<void>;
  }
}

export function clientInfo(req: FastifyRequest) {
  return { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? ''), lang: req.lang };
}

export default fp(
  async function auth(app: FastifyInstance, opts: { auth: AuthService; memberships?: MembershipService }) {
    app.decorateRequest('session', null);
    app.decorateRequest('grant', null);
    app.decorateRequest('companyId', 0);
    // The console names its language on every call: a change of language is kept with the account once a call
    // of the person's succeeds (a refused call changes nothing, this included).
    app.addHook('onSend', async (req, _reply, payload) => {
      if (req.session && req.answeredOk && req.headers['accept-language'])
        await opts.auth.keepLanguage(req.session, req.lang);
      return payload;
    });
    app.decorate('requireUser', async (req: FastifyRequest) => {
      const header = req.headers['x-token'];
      const ctx = await opts.auth.authenticate(typeof header === 'string' ? header : undefined);
      const grant = ctx.grant;
      req.session = ctx;
      req.grant = grant;
      req.companyId = ctx.user.company_id;
      if (ctx.user.must_change_password === 1 && !WHILE_PASSWORD_TEMPORARY.has(req.routeOptions.url ?? '')) {
        throw new AppError(ResultCode.passwordChangeRequired, 'errors.passwordChangeRequired');
      }
      const asked = Number(req.headers['x-companyid']);
      // A number past the 32-bit ids of the database names no company: it is ignored like any other bad value.
      if (!Number.isInteger(asked) || asked <= 0 || asked > MAX_ROW_ID || asked === ctx.user.company_id) return;
      if (grant.permissions.includes(ALL_PERMISSIONS)) {
        req.companyId = asked;
        return;
      }
      // Anyone else acts for another company only when they belong to it, with what they hold there; a company
      // they do not belong to is ignored (the embedded console sends company 1 for everybody), so the header can
      // never widen what a user sees.
      const switched = await opts.memberships?.switched(ctx, asked);
      if (switched) {
        req.session = switched;
        req.grant = switched.grant;
        req.companyId = asked;
      }
    });
  },
  { name: 'auth' },
);
