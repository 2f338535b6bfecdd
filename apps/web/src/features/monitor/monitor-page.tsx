// /monitor: one set full screen for a wall display, the live dashboard without control buttons; without a
// set token, a choice of the user's sets. A wall display is unattended, so a lost connection is retried.
import { Button, Skeleton } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { useRatedValues, useSetStatus } from './api.ts';
import { Dashboard } from './dashboard.tsx';
import { ratedValues } from './gauge-grid.tsx';
import { useLiveItems } from './live-items.ts';
import { MonitorHeader } from './monitor-header.tsx';
import { SetPicker } from './set-picker.tsx';
import { SetStatusTag } from './set-status-tag.tsx';
import './monitor.css';

function SetMonitor({ token }: { token: string }) {
  const { t } = useTranslation();
  const items = useLiveItems(token);
  const status = useSetStatus(token);
  const info = useRatedValues(token);
  const name = status.data?.gsname ?? (status.isError ? t('top.setName', { token }) : t('common.states.loading'));
  return (
    <>
      <MonitorHeader title={name}>
        <SetStatusTag status={items.connection === 'offline' ? 0 : (items.status ?? status.data?.status)} />
        <Link to="/monitor" aria-label={t('live.monitor.changeSet')}>
          <Button type="text" icon={<SwapOutlined />} style={{ color: '#fff' }}>
            <span className="monitor-header-label">{t('live.monitor.changeSet')}</span>
          </Button>
        </Link>
      </MonitorHeader>
      <main className="monitor-body">
        {items.isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : items.error ? (
          <ErrorState error={items.error} onRetry={items.refetch} />
        ) : (
          <Dashboard items={items} rated={ratedValues(info.data)} timeZone={info.data?.timeZone} compact />
        )}
      </main>
    </>
  );
}

export function MonitorPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <div className="monitor-page" data-testid="monitor-page">
      {token ? (
        <SetMonitor key={token} token={token} />
      ) : (
        <>
          <MonitorHeader title={<MonitorTitle />} />
          <main className="monitor-body">
            <SetPicker />
          </main>
        </>
      )}
    </div>
  );
}

function MonitorTitle() {
  const { t } = useTranslation();
  return <>{t('live.monitor.title')}</>;
}
