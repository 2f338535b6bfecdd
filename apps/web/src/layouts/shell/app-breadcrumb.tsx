// Where the user is: always starts with Home unless the page is Home (spec 2).
import { Breadcrumb } from 'antd';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../../stores/tabs.ts';
import type { Crumb } from '../../app/menu-routes.ts';
import { useRouteMeta } from './use-route-meta.ts';

export function AppBreadcrumb({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const meta = useRouteMeta();
  const label = (crumb: Crumb) => (crumb.titleKey ? t(crumb.titleKey) : (crumb.title ?? ''));
  const trail = meta?.trail ?? [];
  const onHome = pathname === HOME_PATH;
  const full: Crumb[] = onHome
    ? [{ path: HOME_PATH, titleKey: 'layout.routes.home' }]
    : [{ path: HOME_PATH, titleKey: 'layout.routes.home' }, ...trail.filter((c) => c.path !== HOME_PATH)];
  // a phone has room for Home and the page itself
  const crumbs = compact && full.length > 2 ? [full[0]!, full.at(-1)!] : full;

  return (
    <Breadcrumb
      className="app-breadcrumb"
      data-testid="breadcrumb"
      items={crumbs.map((crumb, index) => {
        const last = index === crumbs.length - 1;
        return {
          key: `${crumb.path}:${index}`,
          // a crumb cut short on a narrow bar ends in an ellipsis and is read whole in its title
          title: last ? (
            <span aria-current="page" title={label(crumb)}>
              {label(crumb)}
            </span>
          ) : (
            <Link to={crumb.path} title={label(crumb)}>
              {label(crumb)}
            </Link>
          ),
        };
      })}
    />
  );
}
