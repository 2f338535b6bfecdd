// The server's menu names a page by `component` ('home/index', 'help/list', …); this maps each name to a
// page loaded on demand. Names without a page yet get a page that says so. A feature folder adds its pages
// with a `pages.ts` that exports `PAGES` (component name → `lazyPage(...)` of ./lazy-page.ts).
import { lazyPage, type LazyPage } from './lazy-page.ts';

const page = lazyPage;

const featurePages = import.meta.glob<Record<string, LazyPage>>('../features/*/pages.ts', {
  eager: true,
  import: 'PAGES',
});

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
  ...Object.assign({}, ...Object.values(featurePages)),
};

export function pageFor(component: string): LazyPage {
  return PAGE_MAP[component.replace(/^\/+|\.vue$|\.tsx$/g, '')] ?? UnavailablePage;
}
