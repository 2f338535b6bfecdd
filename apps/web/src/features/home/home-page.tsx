// /index: the fleet console's home: a greeting, sets by status, active alarms by level, output now, the
// fleet on a map (a list when the map cannot load), the 30-day output ranking and the latest alarms. Kept
// live over the realtime channel: a set's pushed status or alarms refresh the summary, its output updates
// the total at once.
import { useMemo } from 'react';
import { Card, Col, Row, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../components/error-state.tsx';
import { FleetMap, type MapArea, type MapPoint } from '../../components/map/fleet-map.tsx';
import { statusKey } from '../../components/set-status.ts';
import { formatValue } from '../../components/format.ts';
import { useSession } from '../../stores/session.ts';
import { pushedSince, useFleetRealtime, useRefreshWhenStale } from '../../realtime/index.ts';
import { HOME_SUMMARY_KEY, useHomeSummary } from './api.ts';
import { LatestAlarms } from './latest-alarms.tsx';
import { OutputRanking } from './output-ranking.tsx';
import { StatusTiles } from './status-tiles.tsx';
import './home.css';

function Greeting() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const company = useSession((s) => s.company);
  const name = user?.nickname || user?.name || user?.account || '';
  const parts = [company?.name ? t('home.company', { company: company.name }) : t('home.noCompany')];
  if (user?.roleName) parts.push(t('home.role', { role: user.roleName }));
  return (
    <div className="home-greeting">
      <Typography.Title level={1} className="home-welcome" data-testid="welcome">
        {t('home.welcome', { name })}
      </Typography.Title>
      <Typography.Text type="secondary" data-testid="home-company">
        {parts.join(' · ')}
      </Typography.Text>
    </div>
  );
}

function CardTitle({ children }: { children: React.ReactNode }) {
  return <h2 className="home-card-title">{children}</h2>;
}

export function HomePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const summary = useHomeSummary();
  const data = summary.data;
  const tokens = useMemo(() => (data?.positions ?? []).map((p) => p.token).slice(0, 100), [data]);
  const { sets: live } = useFleetRealtime(tokens);

  // A pushed status or alarm count that differs from the summary means the counts are stale.
  const stale =
    data?.positions.some((p) => pushedSince(live[p.token], { status: p.status, alarmCount: p.alarmnum })) ?? false;
  useRefreshWhenStale(stale, () => client.invalidateQueries({ queryKey: HOME_SUMMARY_KEY }));

  // The summary's total, with each set that has pushed since swapped for its pushed output.
  const totalKw = useMemo(() => {
    if (!data) return 0;
    let total = data.totalKw;
    for (const p of data.positions) {
      const l = live[p.token];
      if (!l || l.status === null) continue;
      const before = p.status !== 0 ? (p.kw ?? 0) : 0;
      const now = l.status !== 0 ? (l.values.gen_kw ?? 0) : 0;
      total += now - before;
    }
    return Math.max(0, total);
  }, [data, live]);

  const points = useMemo<MapPoint[]>(
    () =>
      (data?.positions ?? []).map((p) => {
        const l = live[p.token];
        const status = l?.status ?? p.status;
        const kw = typeof l?.values.gen_kw === 'number' ? l.values.gen_kw : p.kw;
        return {
          key: p.token,
          name: p.name,
          status: statusKey(status),
          alarms: l?.alarmnum ?? p.alarmnum,
          lat: p.lat,
          lon: p.lng,
          detail: kw !== null && status !== 0 ? formatValue(kw, 'kW', 1) : undefined,
          href: `/top/realtime?token=${encodeURIComponent(p.token)}`,
        };
      }),
    [data, live],
  );

  // a large fleet's sets by area (the summary gives areas instead of positions past a few thousand sets)
  const areas = useMemo<MapArea[]>(
    () =>
      (data?.areas ?? []).map((a) => ({
        key: `${a.lat},${a.lng}`,
        lat: a.lat,
        lon: a.lng,
        bounds: [
          [a.bounds.south, a.bounds.west],
          [a.bounds.north, a.bounds.east],
        ],
        sets: a.sets,
        states: a.states,
        alarm: a.alarm,
        detail: a.kw > 0 ? formatValue(a.kw, 'kW', 1) : undefined,
      })),
    [data],
  );

  return (
    <div className="home">
      <Greeting />
      {summary.isError && !data ? (
        <Card>
          <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
        </Card>
      ) : !data ? (
        <Card loading className="home-loading" />
      ) : (
        <>
          <StatusTiles summary={data} totalKw={totalKw} />
          <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
            <Col xs={24} xl={15}>
              <Card size="small" title={<CardTitle>{t('home.map.title')}</CardTitle>} className="home-card">
                <FleetMap points={points} areas={areas} height={360} />
              </Card>
            </Col>
            <Col xs={24} xl={9}>
              <Card
                size="small"
                title={<CardTitle>{t('home.latest.title')}</CardTitle>}
                className="home-card home-card-scroll"
              >
                <LatestAlarms alarms={data.latestAlarms} />
              </Card>
            </Col>
            <Col xs={24}>
              <Card size="small" title={<CardTitle>{t('home.ranking.title')}</CardTitle>} className="home-card">
                <OutputRanking ranking={data.ranking} />
              </Card>
            </Col>
          </Row>
        </>
      )}
    </div>
  );
}
