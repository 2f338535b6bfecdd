// Pages of the monitor menu entries: one set full screen (/monitor) and the grid of sets (/manymonitor).
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'monitor/index': lazyPage(() => import('./monitor-page.tsx'), 'MonitorPage'),
  'monitor/many': lazyPage(() => import('./many-monitor-page.tsx'), 'ManyMonitorPage'),
};
