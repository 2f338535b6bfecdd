// Menu pages of handing sets over: the pending and done handovers the user sends or receives.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'genset/transfers': lazyPage(() => import('./transfers-page.tsx'), 'TransfersPage'),
};
