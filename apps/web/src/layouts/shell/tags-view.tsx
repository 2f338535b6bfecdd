// The tag strip of visited pages with its context menu (spec 2): refresh, close, close others, close left,
// close right, close all. Home is pinned and never closes.
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTabs } from '../../stores/tabs.ts';
import { TagItem } from './tag-item.tsx';
import './tags-view.css';

export function TagsView() {
  const { t } = useTranslation();
  const views = useTabs((s) => s.views);
  const { pathname } = useLocation();
  return (
    <nav className="tags-view" aria-label={t('layout.tabs.label')} data-testid="tags-view">
      {views.map((view, index) => (
        <TagItem key={view.path} view={view} active={view.path === pathname} index={index} count={views.length} />
      ))}
    </nav>
  );
}
