// The frame of the pages seen before sign-in: company logo and title, language switcher, legal links. Plain
// elements styled like Ant Design's card keep the sign-in page light.
import type { CSSProperties, ReactNode } from 'react';
import { ThunderboltFilled } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCompanyLogo } from '../api/company.ts';
import { LanguageSwitcher } from './language-switcher.tsx';
import './public-frame.css';

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
        background: '#0958d9',
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

/** A white card like antd's, for the forms of the public pages. */
export function PublicCard({ children, style }: { children: ReactNode; style?: CSSProperties }) {
  return (
    <section className="public-card" style={style}>
      {children}
    </section>
  );
}

export function PublicFrame({ children, width = 420 }: { children: ReactNode; width?: number }) {
  const { t } = useTranslation();
  const { data } = useCompanyLogo();
  const title = data?.title || data?.name || t('common.appName');
  return (
    <div className="public-frame">
      <header className="public-frame-header">
        <Link to="/login" className="public-frame-brand">
          <CompanyMark size={32} />
          <span>{title}</span>
        </Link>
        <LanguageSwitcher />
      </header>
      <main className="public-frame-main">
        <div style={{ width: '100%', maxWidth: width }}>{children}</div>
      </main>
      <footer className="public-frame-footer">
        <Link to="/xieyis">{t('common.links.agreement')}</Link>
        <Link to="/yinsi">{t('common.links.privacy')}</Link>
      </footer>
    </div>
  );
}
