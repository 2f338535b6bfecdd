// The company's threshold rules: a menu page for its administrators.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'system/alarmRules': lazyPage(() => import('./alarm-rules-page.tsx'), 'AlarmRulesPage'),
};
