// Administration of companies, departments and people: the calls, the logo folder, and what every instance does
// when a person changes (their cached sessions and memberships are read again; a person signed out has their
// open realtime connections closed, see modules/devices/realtime.ts). `app.admin` for tests and tools.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@genset/protocol';
import type { AuthService } from '../modules/auth/service.ts';
import type { MembershipService } from '../modules/users/memberships.ts';
import { createUserAdmin, type UserAdmin } from '../modules/users/service.ts';
import { userAdminRoutes } from '../modules/users/routes.ts';
import { createDepartmentService, type DepartmentService } from '../modules/departments/service.ts';
import { departmentRoutes } from '../modules/departments/routes.ts';
import { createCompanyAdmin, type CompanyAdmin } from '../modules/company/admin.ts';
import { companyAdminRoutes } from '../modules/company/admin-routes.ts';
import { createLogoStore } from '../modules/company/logos.ts';

declare module 'fastify' {
  interface FastifyInstance {
    admin: { users: UserAdmin; departments: DepartmentService; companies: CompanyAdmin };
  }
}

export default fp(
  async function admin(app: FastifyInstance, opts: { auth: AuthService; memberships: MembershipService }) {
    const { auth, memberships } = opts;
    const db = app.database.db;
    const bus = app.devices.bus;
    // Every instance (this one too) forgets what it read of the person; the realtime channel closes their
    // connections when they were signed out.
    const stop = bus.subscribe('user', (m) => {
      auth.forgetUser(m.userId);
      memberships.forgetUser(m.userId);
    });
    app.addHook('onClose', async () => stop());
    const changed = (userId: number, signOut: boolean) => {
      auth.forgetUser(userId);
      memberships.forgetUser(userId);
      bus.publish('user', { userId, signOut });
      // their department or role may have changed: what data scopes reach (theirs, and that of the sets they
      // own, which belong to their department) is resolved again on every instance
      app.devices.fleet.scope.invalidate(null);
    };

    const users = createUserAdmin({ db, auth, events: { onUserChanged: changed } });
    // a department moved or deleted: what department-tree scopes reach is resolved again on every instance
    const departments = createDepartmentService({
      db,
      events: { onTreeChanged: (companyId) => app.devices.fleet.scope.invalidate(companyId) },
    });
    const logos = createLogoStore(app.config.uploadsDir);
    await logos.prepare();
    const companies = createCompanyAdmin({
      db,
      events: {
        async onUserDisabled(userId) {
          await auth.updateAccount(userId, { status: 'disabled', updated_at: Date.now() });
          await auth.endSessions(userId, 'disabled');
          changed(userId, true);
        },
        onMembershipsChanged(userIds) {
          for (const id of userIds) changed(id, false);
        },
      },
    });
    app.decorate('admin', { users, departments, companies });

    await app.register(
      async (api) => {
        await api.register(userAdminRoutes, { users });
        await api.register(departmentRoutes, { departments });
        await api.register(companyAdminRoutes, { admin: companies, logos });
      },
      { prefix: API_BASE },
    );
  },
  { name: 'admin', dependencies: ['devices'] },
);
