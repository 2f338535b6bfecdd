// The frame of the pages seen before sign-in: company logo and title, language switcher, legal links. Plain
// elements styled like Ant Design's card keep the sign-in page light.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCompanyLogo } from '../api/company.ts';
import { CompanyMark } from './company-mark.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import './public-frame.css';

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
