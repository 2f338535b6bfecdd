// Pages of notifications: the message centre (a fixed route every signed-in person has) and the company's
// webhooks (a menu page for company administrators).
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'message/index': lazyPage(() => import('./notices-page.tsx'), 'NoticesPage'),
  'system/webhooks': lazyPage(() => import('./webhooks-page.tsx'), 'WebhooksPage'),
};
