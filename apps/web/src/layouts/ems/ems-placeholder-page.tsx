// A station page reached through /ems/:page (the server's menu has no entry of its own for it): the
// console's page of that name when it has one, else a card that says there is nothing yet. Without a
// station token it asks to choose a station.
import { Button, Card, Result } from 'antd';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state.tsx';
import { PAGE_MAP } from '../../app/page-map.ts';
import { useEmsMenu } from './ems-menu.ts';
import { useEmsQuery } from './ems-query.ts';

export function EmsPlaceholderPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const items = useEmsMenu();
  const { token } = useEmsQuery();
  const item = items.find((i) => i.path === pathname);
  if (!item) return <Navigate to="/404" replace />;
  const Page = PAGE_MAP[pathname.replace(/^\/+/, '')];
  if (Page) return <Page />;
  if (!token) {
    return (
      <Result
        status="info"
        title={t('ems.noStation')}
        subTitle={t('ems.selectStation')}
        extra={
          <Button type="primary" onClick={() => navigate('/index')}>
            {t('pages.backHome')}
          </Button>
        }
        data-testid="no-station"
      />
    );
  }
  return (
    <Card title={item.titleKey ? t(item.titleKey) : item.title}>
      <EmptyState description={t('ems.nothingYet')} />
    </Card>
  );
}
