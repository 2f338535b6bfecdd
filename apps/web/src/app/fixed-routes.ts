// Pages every signed-in user has, whatever the server's menu says (spec 2), with their title keys.
import { matchPath } from 'react-router';
import type { Crumb, MenuPage } from './menu-routes.ts';

export interface FixedRoute {
  path: string;
  titleKey: string;
  component: string;
  /** Breadcrumb above this page, without Home. */
  parents?: Crumb[];
}

export const FIXED_ROUTES: FixedRoute[] = [
  { path: '/index', titleKey: 'layout.routes.home', component: 'home/index' },
  { path: '/user/personal', titleKey: 'layout.routes.personal', component: 'user/personal' },
  // where a set's QR code leads (signed out: through sign-in and back)
  { path: '/genset/subscribe', titleKey: 'layout.routes.subscribe', component: 'genset/subscribe' },
  // the message centre: every notice of the person (the bell shows the latest)
  { path: '/message', titleKey: 'layout.routes.message', component: 'message/index' },
  { path: '/help/list', titleKey: 'layout.routes.helpList', component: 'help/list' },
  {
    path: '/help/info',
    titleKey: 'layout.routes.helpInfo',
    component: 'help/info',
    parents: [{ path: '/help/list', titleKey: 'layout.routes.helpList' }],
  },
];

export interface RouteMeta {
  title?: string;
  titleKey?: string;
  /** Breadcrumb without Home, ending with this page. */
  trail: Crumb[];
}

/** Title and breadcrumb of a path: the menu's words when the menu has the page, else the console's own. */
export function routeMeta(pathname: string, pages: MenuPage[]): RouteMeta | null {
  const fromMenu = pages.find((p) => matchPath({ path: p.path, end: true }, pathname));
  const fixed = FIXED_ROUTES.find((r) => r.path === pathname);
  if (fromMenu) {
    // a hidden top-level entry (the manual page) still sits below its list in the breadcrumb
    const parents = fromMenu.trail.length === 1 ? (fixed?.parents ?? []) : [];
    return { title: fromMenu.title, trail: [...parents, ...fromMenu.trail] };
  }
  if (fixed) {
    return {
      titleKey: fixed.titleKey,
      trail: [...(fixed.parents ?? []), { path: fixed.path, titleKey: fixed.titleKey }],
    };
  }
  return null;
}
