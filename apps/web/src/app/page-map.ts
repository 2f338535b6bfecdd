// The server's menu names a page by `component` ('home/index', 'help/list', …); this maps each name to a
// page loaded on demand. Names without a page yet get a page that says so.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type LazyPage = LazyExoticComponent<ComponentType>;

function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyPage {
  return lazy(async () => ({ default: (await load())[name] }));
}

export const HomePage = page(() => import('../features/home/home-page.tsx'), 'HomePage');
export const PersonalPage = page(() => import('../features/personal/personal-page.tsx'), 'PersonalPage');
export const HelpListPage = page(() => import('../features/help/help-list-page.tsx'), 'HelpListPage');
export const HelpInfoPage = page(() => import('../features/help/help-info-page.tsx'), 'HelpInfoPage');
export const UnavailablePage = page(() => import('../features/misc/unavailable-page.tsx'), 'UnavailablePage');

export const PAGE_MAP: Record<string, LazyPage> = {
  'home/index': HomePage,
  'index/index': HomePage,
  'user/personal': PersonalPage,
  'help/list': HelpListPage,
  'help/info': HelpInfoPage,
};

export function pageFor(component: string): LazyPage {
  return PAGE_MAP[component.replace(/^\/+|\.vue$|\.tsx$/g, '')] ?? UnavailablePage;
}
