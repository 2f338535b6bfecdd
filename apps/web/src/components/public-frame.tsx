// The frame of the pages seen before sign-in: company logo and title, language switcher, legal links.
import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';
import { ThunderboltFilled } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCompanyLogo } from '../api/company.ts';
import { LanguageSwitcher } from './language-switcher.tsx';

export function CompanyMark({ size = 40 }: { size?: number }) {
  const { data } = useCompanyLogo();
  if (data?.logo) return <img src={data.logo} alt="" width={size} height={size} style={{ objectFit: 'contain' }} />;
  return (
    <span
      aria-hidden
      style={{
        width: size,
        height: size,
        borderRadius: size / 4,
        background: '#1677ff',
        color: '#fff',
        display: 'inline-grid',
        placeItems: 'center',
        fontSize: size * 0.55,
      }}
    >
      <ThunderboltFilled />
    </span>
  );
}

export function PublicFrame({ children, width = 420 }: { children: ReactNode; width?: number }) {
  const { t } = useTranslation();
  const { data } = useCompanyLogo();
  const title = data?.title || data?.name || t('common.appName');
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        background: 'linear-gradient(160deg, #e6f4ff 0%, #f5f5f5 45%, #f5f5f5 100%)',
      }}
    >
      <Flex component="header" justify="space-between" align="center" style={{ padding: '12px 16px' }}>
        <Link to="/login" style={{ display: 'flex', alignItems: 'center', gap: 10, color: 'inherit' }}>
          <CompanyMark size={32} />
          <Typography.Text strong style={{ fontSize: 16 }}>
            {title}
          </Typography.Text>
        </Link>
        <LanguageSwitcher />
      </Flex>
      <main style={{ flex: 1, display: 'flex', justifyContent: 'center', padding: '16px 16px 32px' }}>
        <div style={{ width: '100%', maxWidth: width }}>{children}</div>
      </main>
      <Flex component="footer" justify="center" gap={16} wrap style={{ padding: '0 16px 24px' }}>
        <Link to="/xieyis">{t('common.links.agreement')}</Link>
        <Link to="/yinsi">{t('common.links.privacy')}</Link>
      </Flex>
    </div>
  );
}
