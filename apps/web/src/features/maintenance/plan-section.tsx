// The maintenance plan under the controller's countdown on a set's maintain tab: the items with their next
// due dates and hours and their state, the history of done tasks, and the set's maintenance links.
import { Card, Skeleton, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { usePaging } from '../../components/use-paging.ts';
import { useHistory, usePlan } from './api.ts';
import { LinksCard } from './links-card.tsx';
import { PlanCard } from './plan-card.tsx';
import { HistoryItems } from './plan-view.tsx';

/** `runHours`: the set's run hours as they arrive live, which the "mark done" dialog starts from. */
export function PlanSection({ token, runHours }: { token: string; runHours?: number | null }) {
  const { t } = useTranslation();
  const plan = usePlan(token);
  const { page, size, setPage } = usePaging();
  const history = useHistory(token, page, size);
  if (plan.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (plan.isError) return <ErrorState error={plan.error} onRetry={() => void plan.refetch()} />;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <PlanCard plan={{ ...plan.data, runHours: runHours ?? plan.data.runHours }} />
      <Card size="small" title={t('maintenance.history.title')} data-testid="maint-history-card">
        {history.isError ? (
          <ErrorState error={history.error} onRetry={() => void history.refetch()} />
        ) : (
          <HistoryItems list={history.data?.list ?? []} />
        )}
        {history.data && history.data.total > size ? (
          <Space style={{ marginTop: 8 }}>
            {page > 1 ? <a onClick={() => setPage(page - 1)}>{t('maintenance.history.newer')}</a> : null}
            {page * size < history.data.total ? (
              <a onClick={() => setPage(page + 1)}>{t('maintenance.history.older')}</a>
            ) : null}
          </Space>
        ) : null}
      </Card>
      {plan.data.canEdit ? <LinksCard token={token} links={plan.data.links} /> : null}
    </Space>
  );
}
