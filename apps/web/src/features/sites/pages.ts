// Menu pages of stations: My stations, the station form and the price templates in the shell, and a station's
// pages in the /ems/ layout (their query carries the station token). The server's menu names them by these
// components.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'site/list': lazyPage(() => import('./site-list-page.tsx'), 'SiteListPage'),
  'site/info': lazyPage(() => import('./site-info-page.tsx'), 'SiteInfoPage'),
  'site/add': lazyPage(() => import('./site-form-page.tsx'), 'SiteAddPage'),
  'site/edit': lazyPage(() => import('./site-form-page.tsx'), 'SiteEditPage'),
  'site/template': lazyPage(() => import('./templates-page.tsx'), 'TemplatesPage'),
  'ems/index': lazyPage(() => import('./overview-page.tsx'), 'OverviewPage'),
  'ems/baojinginfo': lazyPage(() => import('./alarms-page.tsx'), 'AlarmsPage'),
  'ems/statistics': lazyPage(() => import('./statistics-page.tsx'), 'StatisticsPage'),
  'ems/devices': lazyPage(() => import('./devices-page.tsx'), 'DevicesPage'),
  'ems/strategy': lazyPage(() => import('./strategy-page.tsx'), 'StrategyPage'),
  'ems/records': lazyPage(() => import('./records-page.tsx'), 'RecordsPage'),
  'ems/log': lazyPage(() => import('./log-page.tsx'), 'LogPage'),
};
