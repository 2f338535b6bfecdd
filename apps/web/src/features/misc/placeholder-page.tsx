// A full page that says what it is for and that it has nothing to show yet.
import type { ReactNode } from 'react';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export function PlaceholderPage({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Result
        icon={icon}
        title={<h1 style={{ margin: 0, fontSize: 24 }}>{title}</h1>}
        subTitle={text}
        extra={<Button onClick={() => navigate('/index')}>{t('pages.backHome')}</Button>}
      />
    </main>
  );
}
