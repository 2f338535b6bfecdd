// The realtime tab of a set (/top/realtime): the live dashboard with the control buttons.
import { Skeleton } from 'antd';
import { ErrorState } from '../../components/error-state.tsx';
import { useRatedValues, useSetStatus } from './api.ts';
import { CommandPanel } from './command-panel.tsx';
import { Dashboard } from './dashboard.tsx';
import { ratedValues } from './gauge-grid.tsx';
import { useLiveItems } from './live-items.ts';
import './monitor.css';

export function RealtimeTab({ token }: { token: string }) {
  const items = useLiveItems(token);
  const status = useSetStatus(token);
  const info = useRatedValues(token);
  if (items.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (items.error) return <ErrorState error={items.error} onRetry={items.refetch} />;
  const allowed = Boolean(status.data && status.data.rights !== 'view');
  return (
    <Dashboard
      items={items}
      rated={ratedValues(info.data)}
      timeZone={info.data?.timeZone}
      controls={
        <CommandPanel
          token={token}
          setName={status.data?.gsname ?? ''}
          allowed={allowed}
          offline={items.status === 0}
        />
      }
    />
  );
}
