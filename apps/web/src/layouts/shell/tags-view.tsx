// The tag strip of visited pages with its context menu (spec 2): refresh, close, close others, close left,
// close right, close all. Home is pinned and never closes.
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTabs } from '../../stores/tabs.ts';
import { routeMeta } from '../../app/fixed-routes.ts';
import { TagItem } from './tag-item.tsx';
import { useMenuPages } from './use-route-meta.ts';
import './tags-view.css';

export function TagsView() {
  const { t } = useTranslation();
  const views = useTabs((s) => s.views);
  const { pathname } = useLocation();
  const pages = useMenuPages();
  return (
    <nav className="tags-view" aria-label={t('layout.tabs.label')} data-testid="tags-view" data-scroll-hint="fade">
      {views.map((view, index) => {
        // a tab kept from before a reload or a change of language is named in the menu's current words
        const title = view.title === undefined ? undefined : (routeMeta(view.path, pages)?.title ?? view.title);
        return (
          <TagItem
            key={view.path}
            view={title === undefined ? view : { ...view, title }}
            active={view.path === pathname}
            index={index}
            count={views.length}
          />
        );
      })}
    </nav>
  );
}
