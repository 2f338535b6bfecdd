// Menu pages of repair requests (server menu `component` → page).
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'baoxiu/list': lazyPage(() => import('./repairs-page.tsx'), 'RepairsPage'),
  'baoxiu/add': lazyPage(() => import('./repair-add-page.tsx'), 'RepairAddPage'),
  'baoxiu/detail': lazyPage(() => import('./repair-detail-page.tsx'), 'RepairDetailPage'),
};
