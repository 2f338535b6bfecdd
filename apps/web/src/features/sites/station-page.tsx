// The frame of every station page: without a station token it asks to open one from the list; while the
// station loads, a spinner; when it cannot be loaded, why and a way to try again.
import type { ReactNode } from 'react';
import { Button, Result, Spin } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ResultCode } from '@genset/protocol';
import { ApiError } from '../../api/request.ts';
import { collectPages } from '../../app/menu-routes.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { useSession } from '../../stores/session.ts';
import { useStation, type Station } from './use-station.ts';
import { SITE_LIST_PATH } from './links.ts';

export function useStationToken(): string {
  const [params] = useSearchParams();
  return params.get('token') ?? '';
}

export function NoStation() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="info"
      title={t('ems.noStation')}
      subTitle={t('ems.selectStation')}
      extra={
        <Button type="primary" onClick={() => navigate(SITE_LIST_PATH)}>
          {t('ems.toList')}
        </Button>
      }
      data-testid="no-station"
    />
  );
}

/** A station that does not exist, or that the reader may not see (the server answers both alike). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && (error.code === ResultCode.notFound || error.code === ResultCode.forbidden);
}

/** The whole page of a station one cannot reach: what happened and the way back, nothing of a station. */
export function StationUnreachable() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const routes = useSession((s) => s.routes);
  const hasList = collectPages(routes).some((p) => p.path === SITE_LIST_PATH);
  return (
    <Result
      status="404"
      title={t('ems.unreachable.title')}
      subTitle={t('ems.unreachable.text')}
      extra={
        <Button type="primary" onClick={() => navigate(hasList ? SITE_LIST_PATH : '/index')}>
          {hasList ? t('ems.toList') : t('pages.notFound.home')}
        </Button>
      }
      data-testid="station-unreachable"
    />
  );
}

function Loaded({ token, children }: { token: string; children: (station: Station) => ReactNode }) {
  const station = useStation(token);
  if (station.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (station.isError && isUnreachable(station.error)) return <StationUnreachable />;
  if (station.isError || !station.info) {
    return <ErrorState error={station.error} onRetry={() => void station.refetch()} />;
  }
  return <>{children(station)}</>;
}

/** A page of one station, given the station once loaded. */
export function StationPage({ children }: { children: (station: Station) => ReactNode }) {
  const token = useStationToken();
  if (!token) return <NoStation />;
  return <Loaded token={token}>{children}</Loaded>;
}
