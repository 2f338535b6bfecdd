// Pages of remote configuration, by the menu's component names.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'crewmanage/gconfig': lazyPage(() => import('./remote-config-page.tsx'), 'RemoteConfigPage'),
};
