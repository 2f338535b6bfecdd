// The content of a top-layout tab: the set's live dashboard, its data items, its alarms, its maintenance
// countdown or its location (fence and track). Without a set token there is nothing to watch, so it says so.
import { lazy } from 'react';
import { Button, Result } from 'antd';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTopQuery, type TopTab } from './top-query.ts';

const RealtimeTab = lazy(async () => ({
  default: (await import('../../features/monitor/realtime-tab.tsx')).RealtimeTab,
}));
const RealdataTab = lazy(async () => ({
  default: (await import('../../features/monitor/realdata-tab.tsx')).RealdataTab,
}));
const AlarmsTab = lazy(async () => ({ default: (await import('../../features/monitor/alarms-tab.tsx')).AlarmsTab }));
const MaintainTab = lazy(async () => ({
  default: (await import('../../features/monitor/maintain-tab.tsx')).MaintainTab,
}));

const LocationTab = lazy(async () => ({
  default: (await import('../../features/tracks/location-tab.tsx')).LocationTab,
}));

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
  switch (tab as TopTab) {
    case 'realtime':
      return <RealtimeTab key={token} token={token} />;
    case 'realdata':
      return <RealdataTab key={token} token={token} />;
    case 'baojing':
      return <AlarmsTab key={token} token={token} />;
    case 'maintain':
      return <MaintainTab key={token} token={token} />;
    case 'guiji':
      return <LocationTab key={token} token={token} />;
  }
}
