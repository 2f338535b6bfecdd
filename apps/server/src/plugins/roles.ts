// A company's administration of roles, member invitations and applications, and the operation-log page. A role
// that changes or goes, and a person who joins, are read again at once on every instance: the signed-in sessions
// and memberships holding them, and what the company's roles reach (the data scope).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { AuthService } from '../modules/auth/service.ts';
import { createRoleService } from '../modules/roles/service.ts';
import { roleRoutes } from '../modules/roles/routes.ts';
import { createMemberService } from '../modules/members/service.ts';
import { memberRoutes } from '../modules/members/routes.ts';
import { createLogService } from '../modules/oplog/service.ts';
import { logRoutes } from '../modules/oplog/routes.ts';

/** What is kept in memory of the companies people belong to. */
interface MembershipCache {
  forgetUser(userId: number): void;
  forgetAll(): void;
}

export default fp(
  async function roles(app: FastifyInstance, opts: { auth: AuthService; memberships?: MembershipCache }) {
    const db = app.database.db;
    const { bus, fleet } = app.devices;

    /** Everyone holding the role, by their user row or a membership. */
    async function holders(roleId: number): Promise<number[]> {
      const direct = await db.selectFrom('users').select('id').where('role_id', '=', roleId).execute();
      const members = await db
        .selectFrom('user_company')
        .select('user_id as id')
        .where('role_id', '=', roleId)
        .execute();
      return [...new Set([...direct, ...members].map((r) => r.id))];
    }

    const roles = createRoleService({
      db,
      async roleChanged(role) {
        opts.auth.forgetRole(role.id);
        opts.memberships?.forgetAll();
        fleet.scope.invalidate(role.companyId);
        // other instances read the holders again (their sessions and memberships)
        for (const userId of await holders(role.id)) bus.publish('user', { userId, signOut: false });
      },
    });
    const members = createMemberService({
      db,
      roles,
      memberChanged(userId, companyId) {
        opts.auth.forgetUser(userId);
        opts.memberships?.forgetUser(userId);
        fleet.scope.invalidate(companyId);
        bus.publish('user', { userId, signOut: false });
      },
    });
    const logs = createLogService({ db, scope: fleet.scope, protocols: app.devices.protocols });
    await app.register(
      async (api) => {
        await api.register(roleRoutes, { roles });
        await api.register(memberRoutes, { members });
        await api.register(logRoutes, { logs });
      },
      { prefix: API_BASE },
    );
  },
  { name: 'roles', dependencies: ['devices'] },
);
