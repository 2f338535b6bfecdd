// Title and breadcrumb of the current page, from the menu or the console's fixed routes.
import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../stores/session.ts';
import { collectPages } from '../../app/menu-routes.ts';
import { routeMeta, type RouteMeta } from '../../app/fixed-routes.ts';

export function useMenuPages() {
  const routes = useSession((s) => s.routes);
  return useMemo(() => collectPages(routes), [routes]);
}

export function useRouteMeta(): RouteMeta | null {
  const { pathname } = useLocation();
  const pages = useMenuPages();
  return useMemo(() => routeMeta(pathname, pages), [pathname, pages]);
}
