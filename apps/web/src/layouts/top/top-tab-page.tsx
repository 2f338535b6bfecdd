// The content of a top-layout tab. Without a set token there is nothing to watch, so it says so.
import { Button, Card, Result } from 'antd';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state.tsx';
import { useTopQuery, type TopTab } from './top-query.ts';

export function TopTabPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab } = useParams();
  const { token, tabs } = useTopQuery();
  if (!tabs.includes(tab as TopTab)) return <Navigate to="/404" replace />;
  if (!token) {
    return (
      <Result
        status="info"
        title={t('top.noSet')}
        subTitle={t('top.selectSet')}
        extra={
          <Button type="primary" onClick={() => navigate('/index')}>
            {t('pages.backHome')}
          </Button>
        }
        data-testid="no-set"
      />
    );
  }
  return (
    <Card title={t(`top.tabs.${tab}`)}>
      <EmptyState description={t('top.nothingYet')} />
    </Card>
  );
}
