// The top bar: menu toggle, breadcrumb, user name, language switcher and the user drop-down.
import { Button, Flex } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../stores/settings.ts';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { AppBreadcrumb } from './app-breadcrumb.tsx';
import { UserMenu } from './user-menu.tsx';
import { NoticeBell } from '../../features/notices/notice-bell.tsx';

export function Navbar() {
  const { t } = useTranslation();
  const device = useSettings((s) => s.device);
  const opened = useSettings((s) => (s.device === 'mobile' ? s.mobileMenuOpen : s.sidebarOpened));
  const toggle = useSettings((s) => s.toggleSidebar);
  const mobile = device === 'mobile';

  return (
    <Flex align="center" gap={8} style={{ height: 50, padding: '0 8px', background: '#fff' }} data-testid="navbar">
      <Button
        type="text"
        onClick={toggle}
        icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        aria-label={opened ? t('layout.collapseMenu') : t('layout.expandMenu')}
        aria-expanded={opened}
        data-testid="menu-toggle"
      />
      <div style={{ flex: 1, minWidth: 0, overflow: 'hidden', whiteSpace: 'nowrap' }}>
        <AppBreadcrumb compact={mobile} />
      </div>
      <NoticeBell />
      <LanguageSwitcher compact={mobile} />
      <UserMenu nameWidth={mobile ? 80 : 160} />
    </Flex>
  );
}
