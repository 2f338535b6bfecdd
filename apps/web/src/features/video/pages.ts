// Menu pages of a set's video (server menu `component` → page).
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'crewmanage/monitorVideo': lazyPage(() => import('./video-page.tsx'), 'VideoPage'),
};
