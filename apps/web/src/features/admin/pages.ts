// Menu pages of administration: companies (the platform administrator), the department tree and the company's
// people, with the company's roles, members joining by invitation and the operation log.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'system/company': lazyPage(() => import('./company-page.tsx'), 'CompanyPage'),
  'system/dept': lazyPage(() => import('./department-page.tsx'), 'DepartmentPage'),
  'system/user': lazyPage(() => import('./user-page.tsx'), 'UserPage'),
  'system/role': lazyPage(() => import('./roles-page.tsx'), 'RolesPage'),
  'system/member': lazyPage(() => import('./members-page.tsx'), 'MembersPage'),
  'system/log': lazyPage(() => import('./oplog-page.tsx'), 'OplogPage'),
};
