// Menu pages of set reports (server menu `component` → page).
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'crewmanage/report': lazyPage(() => import('./report-page.tsx'), 'ReportPage'),
};
