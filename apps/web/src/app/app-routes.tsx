// Every route: public pages, the console's fixed pages, and the pages of the server's menu placed in their
// layout (M shell, T top bar, E energy station, C none).
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { useSession } from '../stores/session.ts';
import { FullPageLoading } from '../components/full-page-loading.tsx';
import { collectPages, type LayoutKind, type MenuPage } from './menu-routes.ts';
import { FIXED_ROUTES } from './fixed-routes.ts';
import { pageFor } from './page-map.ts';
import { isMaintenanceLink } from './public-routes.ts';

function named<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const LoginPage = named(() => import('../features/auth/login-page.tsx'), 'LoginPage');
const RegisterPage = named(() => import('../features/auth/register-page.tsx'), 'RegisterPage');
const ForgetPage = named(() => import('../features/auth/forget-page.tsx'), 'ForgetPage');
const AgreementPage = named(() => import('../features/legal/agreement-page.tsx'), 'AgreementPage');
const PrivacyPage = named(() => import('../features/legal/privacy-page.tsx'), 'PrivacyPage');
const NotFoundPage = named(() => import('../features/misc/not-found-page.tsx'), 'NotFoundPage');
const TestPage = named(() => import('../features/misc/test-page.tsx'), 'TestPage');
const ShowVideoPage = named(() => import('../features/video/show-video-page.tsx'), 'ShowVideoPage');
const MaintenanceLinkPage = named(() => import('../features/maintenance/link-page.tsx'), 'MaintenanceLinkPage');
const InvitePage = named(() => import('../features/admin/invite-page.tsx'), 'InvitePage');
const RedirectPage = named(() => import('../features/misc/redirect-page.tsx'), 'RedirectPage');
const ShellLayout = named(() => import('../layouts/shell/shell-layout.tsx'), 'ShellLayout');
const TopLayout = named(() => import('../layouts/top/top-layout.tsx'), 'TopLayout');
const TopTabPage = named(() => import('../layouts/top/top-tab-page.tsx'), 'TopTabPage');
const EmsLayout = named(() => import('../layouts/ems/ems-layout.tsx'), 'EmsLayout');
const EmsPlaceholderPage = named(() => import('../layouts/ems/ems-placeholder-page.tsx'), 'EmsPlaceholderPage');

const FIXED_PATHS = new Set(FIXED_ROUTES.map((r) => r.path));

function menuRoutes(pages: MenuPage[], layout: LayoutKind) {
  return pages
    .filter((p) => p.layout === layout && !FIXED_PATHS.has(p.path))
    .map((p) => {
      const Page = pageFor(p.component);
      return <Route key={`${p.name}:${p.path}`} path={p.path} element={<Page />} />;
    });
}

export function AppRoutes() {
  const routes = useSession((s) => s.routes);
  const signedIn = useSession((s) => s.user !== null);
  const pages = useMemo(() => collectPages(routes), [routes]);
  const location = useLocation();

  // a maintenance link: the set's plan read-only, without the top layout's other tabs, signed in or not
  if (isMaintenanceLink(location.pathname, location.search))
    return (
      <Suspense fallback={<FullPageLoading />}>
        <MaintenanceLinkPage />
      </Suspense>
    );

  return (
    <Suspense fallback={<FullPageLoading />}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forget" element={<ForgetPage />} />
        <Route path="/xieyis" element={<AgreementPage />} />
        <Route path="/yinsi" element={<PrivacyPage />} />
        <Route path="/404" element={<NotFoundPage />} />
        <Route path="/test" element={<TestPage />} />
        <Route path="/showvideo" element={<ShowVideoPage />} />
        <Route path="/invite/:code" element={<InvitePage />} />
        {signedIn && (
          <>
            <Route element={<ShellLayout />}>
              {FIXED_ROUTES.map((r) => {
                const Page = pageFor(r.component);
                return <Route key={r.path} path={r.path} element={<Page />} />;
              })}
              <Route path="/redirect/*" element={<RedirectPage />} />
              {menuRoutes(pages, 'shell')}
            </Route>
            <Route element={<TopLayout />}>
              <Route path="/top" element={<Navigate to="/top/realtime" replace />} />
              <Route path="/top/:tab" element={<TopTabPage />} />
              {menuRoutes(pages, 'top')}
            </Route>
            <Route element={<EmsLayout />}>
              <Route path="/ems" element={<Navigate to="/ems/index" replace />} />
              <Route path="/ems/:page" element={<EmsPlaceholderPage />} />
              {menuRoutes(pages, 'ems')}
            </Route>
            {menuRoutes(pages, 'none')}
          </>
        )}
        <Route path="*" element={<Navigate to="/404" replace />} />
      </Routes>
    </Suspense>
  );
}
