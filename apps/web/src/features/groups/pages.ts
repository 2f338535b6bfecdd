// Menu pages of parallel and multi-machine groups: the list with its editor, and one group live.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'genset/groups': lazyPage(() => import('./groups-page.tsx'), 'GroupsPage'),
  'genset/group': lazyPage(() => import('./group-page.tsx'), 'GroupPage'),
};
