// The company's logo and title at the top of the sidebar; only the logo when collapsed.
import { Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';

export function SidebarLogo({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const company = useSession((s) => s.company);
  const title = company?.title || company?.name || t('common.appName');
  return (
    <Link
      to="/index"
      aria-label={title}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        height: 50,
        padding: collapsed ? '0 20px' : '0 16px',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
      }}
    >
      {company?.logo ? (
        <img src={company.logo} alt="" width={26} height={26} style={{ objectFit: 'contain', flex: 'none' }} />
      ) : (
        <img src="/favicon.svg" alt="" width={26} height={26} style={{ flex: 'none' }} />
      )}
      {collapsed ? null : (
        <Typography.Text strong ellipsis style={{ color: '#fff', fontSize: 15 }} data-testid="sidebar-title">
          {title}
        </Typography.Text>
      )}
    </Link>
  );
}
