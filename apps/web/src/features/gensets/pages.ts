// Menu pages of set management (server menu `component` → page).
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'genset/mylist': lazyPage(() => import('./my-gensets-page.tsx'), 'MyGensetsPage'),
  'genset/list': lazyPage(() => import('./genset-manage-page.tsx'), 'GensetManagePage'),
  'genset/add': lazyPage(() => import('./genset-add-page.tsx'), 'GensetAddPage'),
  'crewmanage/detail': lazyPage(() => import('./genset-detail-page.tsx'), 'GensetDetailPage'),
  'crewmanage/update': lazyPage(() => import('./genset-update-page.tsx'), 'GensetUpdatePage'),
  'genset/subscribe': lazyPage(() => import('./subscribe-link-page.tsx'), 'SubscribeLinkPage'),
};
