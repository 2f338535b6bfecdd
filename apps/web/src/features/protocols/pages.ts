// Pages of protocol management, by the menu's component names.
import { lazyPage, type LazyPage } from '../../app/lazy-page.ts';

export const PAGES: Record<string, LazyPage> = {
  'com/module/list': lazyPage(() => import('./protocol-list-page.tsx'), 'ProtocolListPage'),
  'com/module/xieyi': lazyPage(() => import('./items-page.tsx'), 'ProtocolItemsPage'),
  'com/module/zhiling': lazyPage(() => import('./commands-page.tsx'), 'ProtocolCommandsPage'),
  'com/module/mukuai': lazyPage(() => import('./module-status-page.tsx'), 'ModuleStatusPage'),
  'com/module/configNav': lazyPage(() => import('./config-menus-page.tsx'), 'ConfigMenusPage'),
  'com/module/configProtocol': lazyPage(() => import('./config-params-page.tsx'), 'ConfigParamsPage'),
  'com/module/configRead': lazyPage(() => import('./config-read-page.tsx'), 'ConfigReadPage'),
  'com/configSelect/configSelectData': lazyPage(() => import('./option-lists-page.tsx'), 'OptionListsPage'),
  'com/configSelect/configCoord': lazyPage(() => import('./dropdown-coords-page.tsx'), 'DropdownCoordsPage'),
};
