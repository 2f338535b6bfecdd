// How each /yewu route says who may call it: one declaration per route, in its route options
// (`config.access`), read by the access plugin and by the authorisation matrix test.
import type { PermissionString } from '@genset/protocol';

/**
 * Which rows a call reaches, so the matrix knows what "another company's" means for it:
 * - `none`: nothing that belongs to a company (look-ups, documents);
 * - `own`: the caller's own account and what hangs on it (profile, notices, subscriptions);
 * - `company`: rows of the caller's company (users, roles, departments, templates, logs…), narrowed by data scope where
 *   the rows are sets or stations;
 * - `set`: a set named in the call, reached through the role's data scope or the caller's own subscription;
 * - `site`: a station named in the call, reached through the role's data scope;
 * - `platform`: every company (the platform administrator's calls).
 */
export type AccessScope = 'none' | 'own' | 'company' | 'set' | 'site' | 'platform';

export type Access =
  /** Anyone, signed in or not (sign-in, registration, branding). */
  | { public: true; scope?: 'none' | 'own' }
  /** Any signed-in user. */
  | { signedIn: true; scope: AccessScope }
  /** A signed-in user whose role grants any of the permissions. */
  | { permission: PermissionString | readonly PermissionString[]; scope: AccessScope };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (every /yewu route declares it). */
    access?: Access;
  }
}
