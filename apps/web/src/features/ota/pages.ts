// The upgrades page (/site/upgrade): a menu page for those with ota:manage.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'site/upgrade': lazyPage(() => import('./upgrades-page.tsx'), 'UpgradesPage'),
};
