// Said above every page while the server cannot reach its database, MQTT broker or Redis (it tells the open
// realtime connection): the values on the page are the last ones received, not live ones, until it is back.
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRealtimeStore } from '../realtime/store.ts';

const PARTS = ['database', 'broker', 'redis'] as const;

export function LiveDataBanner() {
  return <InterruptionNotice down={useRealtimeStore((s) => s.serverDown)} />;
}

/** The notice for the parts the server said it cannot reach (nothing when there are none). */
export function InterruptionNotice({ down }: { down: readonly string[] }) {
  const { t } = useTranslation();
  const parts = PARTS.filter((p) => down.includes(p));
  if (parts.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      role="alert"
      data-testid="live-data-banner"
      message={t('live.interrupted.title')}
      description={parts.map((p) => t(`live.interrupted.${p}`)).join(' ')}
    />
  );
}
