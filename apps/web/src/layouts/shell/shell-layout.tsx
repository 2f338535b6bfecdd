// The main layout: sidebar, top bar with breadcrumb, tag strip and the page; with iframe=1 only the page.
import { Suspense } from 'react';
import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { LiveDataBanner } from '../../components/live-data-banner.tsx';
import { Navbar } from './navbar.tsx';
import { Sidebar } from './sidebar.tsx';
import { TagsView } from './tags-view.tsx';
import { useDevice } from './use-device.ts';
import { useVisitTab } from './use-visit-tab.ts';

export function ShellLayout() {
  const { t } = useTranslation();
  const embedded = useSession((s) => s.embedded);
  const device = useDevice();
  useVisitTab();

  if (embedded) {
    return (
      <main id="main" style={{ padding: 12 }} data-testid="main">
        <LiveDataBanner />
        <Suspense fallback={<FullPageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    );
  }

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <Sidebar />
      <Layout style={{ minWidth: 0 }}>
        {/* the header scrolls with the page: spec 9 has the fixed header off */}
        <header style={{ position: 'relative', zIndex: 20 }}>
          <Navbar />
          <TagsView />
        </header>
        <LiveDataBanner />
        <Layout.Content
          id="main"
          tabIndex={-1}
          style={{ padding: device === 'mobile' ? 12 : 16, minWidth: 0 }}
          data-testid="main"
        >
          <Suspense fallback={<FullPageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
