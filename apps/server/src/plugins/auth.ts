// Resolves X-Token into the signed-in user for routes that need one, and keeps each user inside their
// own company: X-Companyid may choose another company only for a platform administrator.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ALL_PERMISSIONS, MAX_ROW_ID } from '@genset/protocol';
import type { AuthService, SessionContext } from '../modules/auth/service.ts';
import type { Grant } from '../modules/account/service.ts';

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
  async function auth(app: FastifyInstance, opts: { auth: AuthService }) {
    app.decorateRequest('session', null);
    app.decorateRequest('grant', null);
    app.decorateRequest('companyId', 0);
    app.decorate('requireUser', async (req: FastifyRequest) => {
      const header = req.headers['x-token'];
      const ctx = await opts.auth.authenticate(typeof header === 'string' ? header : undefined);
      const grant = ctx.grant;
      req.session = ctx;
      req.grant = grant;
      req.companyId = ctx.user.company_id;
      const asked = Number(req.headers['x-companyid']);
      // Anyone else always acts for their own company, whatever the header says (the embedded console
      // sends company 1 for everybody), so the header can never widen what a user sees.
      // A number past the 32-bit ids of the database names no company: it is ignored like any other bad value.
      if (Number.isInteger(asked) && asked > 0 && asked <= MAX_ROW_ID && grant.permissions.includes(ALL_PERMISSIONS))
        req.companyId = asked;
    });
  },
  { name: 'auth' },
);
