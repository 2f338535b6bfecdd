// How each /yewu route says who may call it: one declaration per route, in its route options
// (`config.access`), read by the access plugin and by the authorisation matrix test.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ALL_PERMISSIONS, API_BASE, hasAnyPermission, Permission, type PermissionString } from '@genset/protocol';
import { forbidden } from '../lib/errors.ts';

/**
 * Which rows a call reaches, so the matrix knows what "another company's" means for it:
 * - `none`: nothing that belongs to a company (look-ups, documents, the platform-wide protocols);
 * - `own`: the caller's own account and what hangs on it (profile, notices, subscriptions);
 * - `company`: rows of the caller's company (users, roles, departments, templates, logs…), narrowed by data scope where
 *   the rows are sets or stations;
 * - `set`: a set named in the call, reached through the role's data scope or the caller's own subscription;
 * - `site`: a station named in the call, reached through the role's data scope;
 * - `platform`: every company (the platform administrator's calls: the companies themselves): only the platform
 *   administrator (`*:*`) may call it, whatever permissions a company's role holds (company:manage is also a
 *   company administrator's, for their own company).
 */
export type AccessScope = 'none' | 'own' | 'company' | 'set' | 'site' | 'platform';

export type Access =
  /** Anyone, signed in or not (sign-in, registration, branding). */
  | { public: true; scope?: 'none' | 'own' }
  /** Any signed-in user. */
  | { signedIn: true; scope: AccessScope }
  /**
   * A signed-in user whose role grants any of the permissions and, when `also` is given, every one of those too
   * (a station's alarms: site:view to reach the station and alarm:view for its alarms).
   */
  | {
      permission: PermissionString | readonly PermissionString[];
      also?: PermissionString | readonly PermissionString[];
      scope: AccessScope;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (every /yewu route declares it). */
    access?: Access;
  }
}

/** Routes under the API base that are not calls of the console: the OpenAPI document and its viewer. */
const isDocs = (url: string) => url === `${API_BASE}/docs` || url.startsWith(`${API_BASE}/docs/`);

/** Whether a route is a /yewu call that must declare who may call it. */
export function isDeclaredRoute(url: string): boolean {
  return (url === API_BASE || url.startsWith(`${API_BASE}/`)) && !isDocs(url);
}

/** The permissions a declaration asks for (any one of them suffices), or null when none is asked. */
export function permissionsOf(access: Access): readonly PermissionString[] | null {
  if (!('permission' in access)) return null;
  return typeof access.permission === 'string' ? [access.permission] : access.permission;
}

/** The set a call names (its `token`, in the body, the query or the address), if any. */
function namedSet(req: FastifyRequest): string | null {
  for (const part of [req.body, req.query, req.params]) {
    const token = part && typeof part === 'object' ? (part as Record<string, unknown>).token : undefined;
    if (typeof token === 'string' && token) return token;
  }
  return null;
}

/**
 * A call acting for another company (X-Companyid) on a set that company's role does not reach — a set the person
 * owns or subscribed to elsewhere — acts as the person at home: their rights there come from the subscription or
 * ownership and from their home role, never from the role held in the company they switched to.
 */
async function actAtHomeOnForeignSet(app: FastifyInstance, req: FastifyRequest) {
  const session = req.session;
  if (!session?.home) return;
  const token = namedSet(req);
  const fleet = app.hasDecorator('devices') ? app.devices.fleet : null;
  if (!token || !fleet) return;
  const set = await fleet.byToken(token);
  if (!set || (await fleet.reachedByRole(session.user, session.grant, set))) return;
  req.session = session.home;
  req.grant = session.home.grant;
  req.companyId = session.home.user.company_id;
}

/** The permissions a declaration asks for besides one of `permission`: every one of them, or null when none. */
export function alsoOf(access: Access): readonly PermissionString[] | null {
  if (!('permission' in access) || access.also === undefined) return null;
  return typeof access.also === 'string' ? [access.also] : access.also;
}

/** Whether a role's permissions satisfy a declaration's (public and signed-in routes ask for none). */
export function permitted(access: Access, granted: readonly string[]): boolean {
  const required = permissionsOf(access);
  if (required && !hasAnyPermission(granted, required)) return false;
  const also = alsoOf(access);
  return !also || also.every((p) => hasAnyPermission(granted, [p]));
}

const SCOPES: readonly AccessScope[] = ['none', 'own', 'company', 'set', 'site', 'platform'];
const KNOWN = new Set<string>(Object.values(Permission));

/** Why a declaration cannot be right, or null when it is well formed. */
function flawOf(access: Access): string | null {
  if ('public' in access) {
    if (access.public !== true) return 'public must be true';
    if (access.scope !== undefined && access.scope !== 'none' && access.scope !== 'own')
      return 'a public route reaches no rows of a company (scope none or own)';
    return null;
  }
  if (!SCOPES.includes(access.scope)) return `unknown scope ${String(access.scope)}`;
  if ('signedIn' in access) return access.signedIn === true ? null : 'signedIn must be true';
  const list = permissionsOf(access) ?? [];
  if (list.length === 0) return 'a permission requirement names at least one permission';
  const also = alsoOf(access);
  if (also && also.length === 0) return 'also names at least one permission';
  const unknown = [...list, ...(also ?? [])].find((p) => !KNOWN.has(p));
  return unknown ? `unknown permission ${unknown}` : null;
}

/**
 * Reads every route's declaration. A /yewu route without one, or with a malformed one, stops the server from
 * starting (the error names the method and URL). A route that is not public gets one gate before its schema is
 * checked: the caller is signed in (101, 50008, 50012, 50014 otherwise), is the platform administrator when the
 * route's scope is `platform`, and, when the route names permissions, their role grants one of them (403
 * otherwise). A call on a set that acts for another company but names a set that company's role does not reach
 * is judged as the person at home (actAtHomeOnForeignSet). Which sets, stations and rows the caller reaches stays
 * the services' decision (data scope, ownership, subscriptions).
 */
export default fp(
  async function access(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      if (!isDeclaredRoute(route.url)) return;
      const what = `${[route.method].flat().join(',')} ${route.url}`;
      const declared = route.config?.access;
      if (!declared) throw new Error(`${what} does not declare who may call it (config.access)`);
      const flaw = flawOf(declared);
      if (flaw) throw new Error(`${what} declares its access wrongly: ${flaw}`);
      if ('public' in declared) return;
      const platformOnly = declared.scope === 'platform';
      const onSet = declared.scope === 'set';
      const gate = async (req: FastifyRequest) => {
        await app.requireUser(req);
        if (onSet) await actAtHomeOnForeignSet(app, req);
        const granted = req.grant!.permissions;
        if (platformOnly && !granted.includes(ALL_PERMISSIONS)) throw forbidden();
        if (!permitted(declared, granted)) throw forbidden();
      };
      // After the route's own preValidation steps (a form may carry the token the gate reads).
      route.preValidation = [...[route.preValidation ?? []].flat(), gate];
    });
  },
  { name: 'access', dependencies: ['auth', 'api-conventions'] },
);
