// The user drop-down: personal centre, change password, the company to act for (a person who belongs to several),
// user manual, exit (spec 2).
import { useState } from 'react';
import { Avatar, Button, Dropdown } from 'antd';
import {
  BankOutlined,
  BookOutlined,
  CheckOutlined,
  DownOutlined,
  KeyOutlined,
  LogoutOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { logout } from '../../api/session.ts';
import { useSession } from '../../stores/session.ts';
import { loginPathFor } from '../../app/public-routes.ts';
import { ChangePasswordDialog } from '../../features/personal/change-password-dialog.tsx';
import { useMyCompanies } from '../../features/admin/company-api.ts';
import { switchCompany } from '../../features/admin/company-switcher.ts';

export function UserMenu({ nameWidth }: { nameWidth: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const user = useSession((s) => s.user);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const name = user?.nickname || user?.name || user?.account || '';
  const embedded = useSession((s) => s.embedded);
  const companies = useMyCompanies(!!user && !embedded).data ?? [];
  const companyItems =
    companies.length > 1
      ? [
          {
            key: 'company',
            icon: <BankOutlined />,
            label: t('admin.switcher.title'),
            children: companies.map((c) => ({
              key: `company:${c.id}`,
              icon: c.current ? <CheckOutlined /> : undefined,
              label: c.name,
              disabled: c.current,
            })),
          },
        ]
      : [];

  async function exit() {
    const here = location.pathname + location.search;
    await logout();
    queryClient.clear();
    navigate(loginPathFor(here), { replace: true });
  }

  return (
    <>
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items: [
            { key: 'personal', icon: <UserOutlined />, label: t('layout.user.personal') },
            { key: 'password', icon: <KeyOutlined />, label: t('layout.user.password') },
            ...companyItems,
            { key: 'manual', icon: <BookOutlined />, label: t('layout.user.manual') },
            { type: 'divider' },
            { key: 'exit', icon: <LogoutOutlined />, label: t('layout.user.exit'), danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'personal') navigate('/user/personal');
            else if (key === 'password') setPasswordOpen(true);
            else if (key === 'manual') navigate('/help/list');
            else if (key === 'exit') void exit();
            else if (key.startsWith('company:')) switchCompany(Number(key.slice('company:'.length)));
          },
        }}
      >
        <Button type="text" aria-label={t('layout.user.menu')} data-testid="user-menu" style={{ paddingInline: 6 }}>
          <Avatar size="small" icon={<UserOutlined />} style={{ background: '#0958d9' }} />
          <span
            data-testid="user-name"
            title={name}
            style={{ maxWidth: nameWidth, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {name}
          </span>
          <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </>
  );
}
