// A station page before its content exists: without a station token it asks to choose a station.
import { Button, Card, Result } from 'antd';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state.tsx';
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
