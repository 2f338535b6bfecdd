// Menu pages of maintenance: the due and overdue tasks over the sets one sees, and the company's templates.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'genset/maintenance': lazyPage(() => import('./maintenance-page.tsx'), 'MaintenancePage'),
};
