// /top/maintain?mtoken=…: what a maintenance link shows a service technician without an account: the set's
// plan (items, next due dates and hours, state) and its latest done tasks, read-only, until the link expires
// or is revoked; then it says so. Nothing else of the set or the console is reachable from here.
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Result, Skeleton, Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { PublicFrame } from '../../components/public-frame.tsx';
import { formatDateTime, NONE } from '../../components/format.ts';
import { loadLocaleResources } from '../../i18n/index.ts';
import type { Language } from '../../i18n/languages.ts';
import { ApiError } from '../../api/request.ts';
import { usePublicPlan } from './api.ts';
import { HistoryItems, hoursText, PlanItems } from './plan-view.tsx';

/** This page's texts, loaded with it (the console loads them only after sign-in otherwise). */
function useMaintenanceTexts(): boolean {
  const { i18n } = useTranslation();
  const lang = i18n.language as Language;
  const loaded = i18n.exists('maintenance.title');
  const texts = useQuery({
    queryKey: ['maintenance', 'texts', lang],
    queryFn: async () => {
      const resources = await loadLocaleResources(lang, (domain) => domain === 'maintenance');
      i18next.addResourceBundle(lang, 'translation', resources, true, true);
      return true;
    },
    enabled: !loaded,
    staleTime: Infinity,
  });
  return loaded || texts.isSuccess;
}

export function MaintenanceLinkPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const mtoken = params.get('mtoken') ?? '';
  const ready = useMaintenanceTexts();
  const view = usePublicPlan(mtoken);
  let body;
  if (!ready || view.isPending) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (view.isError)
    body = (
      <Result
        status="warning"
        title={t('maintenance.link.unavailable')}
        subTitle={view.error instanceof ApiError ? view.error.message : t('common.states.errorHint')}
        data-testid="maint-link-refused"
      />
    );
  else {
    const data = view.data;
    body = (
      <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="maint-public">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {data.name}
        </Typography.Title>
        <Alert
          type="info"
          showIcon
          message={t('maintenance.link.readOnly', { time: formatDateTime(data.expiresAt) })}
        />
        <Typography.Text>
          {t('maintenance.fields.runHours')}: {data.runHours === null ? NONE : hoursText(data.runHours)}
        </Typography.Text>
        <Card size="small" title={t('maintenance.plan.title')}>
          <PlanItems token="" items={data.items} access={{ canEdit: false, canMarkDone: false }} />
        </Card>
        <Card size="small" title={t('maintenance.history.title')}>
          <HistoryItems list={data.history} />
        </Card>
      </Space>
    );
  }
  return <PublicFrame width={960}>{body}</PublicFrame>;
}
