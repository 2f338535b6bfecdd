// The station layout's left menu: the server's E entries when it sends them (the layout's own entry is hidden
// from the main menu, its pages are this menu), else the station pages the console has; the second is the
// alarms page, whose item carries the alarm count.
import { useMemo } from 'react';
import { useSession } from '../../stores/session.ts';
import { buildMenu, type MenuNode } from '../../app/menu-routes.ts';

export interface EmsMenuItem {
  path: string;
  title?: string;
  titleKey?: string;
}

const FIXED: EmsMenuItem[] = [
  { path: '/ems/index', titleKey: 'ems.menu.overview' },
  { path: '/ems/baojinginfo', titleKey: 'ems.menu.alarms' },
  { path: '/ems/statistics', titleKey: 'ems.menu.statistics' },
  { path: '/ems/devices', titleKey: 'ems.menu.devices' },
  { path: '/ems/strategy', titleKey: 'ems.menu.strategy' },
  { path: '/ems/records', titleKey: 'ems.menu.records' },
  { path: '/ems/log', titleKey: 'ems.menu.log' },
];

function leaves(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((n) => (n.children ? leaves(n.children) : [n]));
}

export function useEmsMenu(): EmsMenuItem[] {
  const routes = useSession((s) => s.routes);
  return useMemo(() => {
    const stationRoutes = routes.filter((r) => r.type === 'E').map((r) => ({ ...r, visible: true }));
    const fromServer = leaves(buildMenu(stationRoutes)).filter((n) => !n.external);
    return fromServer.length ? fromServer.map((n) => ({ path: n.path, title: n.title })) : FIXED;
  }, [routes]);
}
