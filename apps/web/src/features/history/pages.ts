// Menu pages of history and alarms (server menu `component` → page).
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'genset/history': lazyPage(() => import('./history-page.tsx'), 'HistoryPage'),
  'genset/alarms': lazyPage(() => import('./alarms-page.tsx'), 'AlarmsPage'),
};
