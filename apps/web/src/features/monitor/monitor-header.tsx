// The dark header bar of the wall-display pages: back to the console, a title, what the caller adds
// (status, connection), the clock and full screen.
import type { ReactNode } from 'react';
import { Button, Tooltip } from 'antd';
import { ArrowLeftOutlined, FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';
import { useFullscreen } from './use-fullscreen.ts';
import { WallClock } from './wall-clock.tsx';

export function MonitorHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const embedded = useSession((s) => s.embedded);
  const fullscreen = useFullscreen();
  const fullscreenLabel = fullscreen.active ? t('live.monitor.exitFullscreen') : t('live.monitor.fullscreen');
  return (
    <header className="monitor-header">
      {embedded ? null : (
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          aria-label={t('live.monitor.back')}
          onClick={() => navigate('/index')}
        />
      )}
      <h1 data-testid="monitor-title">{title}</h1>
      {children}
      <WallClock />
      {fullscreen.supported ? (
        <Tooltip title={fullscreenLabel}>
          <Button
            type="text"
            icon={fullscreen.active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            aria-label={fullscreenLabel}
            onClick={fullscreen.toggle}
          />
        </Tooltip>
      ) : null}
    </header>
  );
}
