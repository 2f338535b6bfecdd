// The left menu (230 px): collapsible on desktop, a drawer on mobile that closes on navigation and on a
// click outside (spec 2).
import { useEffect } from 'react';
import { Drawer, Layout } from 'antd';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../stores/settings.ts';
import { SidebarLogo } from './sidebar-logo.tsx';
import { SidebarMenu } from './sidebar-menu.tsx';

export const SIDEBAR_WIDTH = 230;
const COLLAPSED_WIDTH = 64;
const SIDEBAR_BG = '#001529';

export function Sidebar() {
  const { t } = useTranslation();
  const device = useSettings((s) => s.device);
  const opened = useSettings((s) => s.sidebarOpened);
  const mobileOpen = useSettings((s) => s.mobileMenuOpen);
  const setMobileOpen = useSettings((s) => s.setMobileMenuOpen);
  const { pathname } = useLocation();

  useEffect(() => {
    useSettings.getState().setMobileMenuOpen(false);
  }, [pathname]);

  if (device === 'mobile') {
    return (
      <Drawer
        placement="left"
        open={mobileOpen}
        onClose={() => setMobileOpen(false)}
        closable={false}
        size={SIDEBAR_WIDTH}
        styles={{ body: { padding: 0, background: SIDEBAR_BG } }}
        title={null}
        aria-label={t('layout.menu')}
        rootClassName="mobile-menu"
        data-testid="mobile-menu"
      >
        <nav aria-label={t('layout.menu')}>
          <SidebarLogo collapsed={false} />
          <SidebarMenu collapsed={false} />
        </nav>
      </Drawer>
    );
  }

  return (
    <Layout.Sider
      width={SIDEBAR_WIDTH}
      collapsedWidth={COLLAPSED_WIDTH}
      collapsed={!opened}
      trigger={null}
      collapsible
      style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto', background: SIDEBAR_BG }}
      data-testid="sidebar"
    >
      <nav aria-label={t('layout.menu')}>
        <SidebarLogo collapsed={!opened} />
        <SidebarMenu collapsed={!opened} />
      </nav>
    </Layout.Sider>
  );
}
