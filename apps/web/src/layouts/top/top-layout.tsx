// The top-bar layout of one set (/top/*): set name, status line, module restart, clock, and the tabs
// realtime, realdata, alarms (with the live alarm count) and maintenance; a 60 % drawer holds the tabs on
// small screens. The set is watched over the realtime channel; only the realtime, realdata and alarm tabs
// re-establish a lost connection (spec 4).
import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Drawer, Flex, Layout, Menu } from 'antd';
import { ArrowLeftOutlined, MenuOutlined } from '@ant-design/icons';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Permission } from '@genset/protocol';
import { useSession } from '../../stores/session.ts';
import { Authorized } from '../../components/authorized.tsx';
import { useSetRealtime } from '../../realtime/index.ts';
import { LiveDataBanner } from '../../components/live-data-banner.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { useDevice } from '../shell/use-device.ts';
import { Clock } from './clock.tsx';
import { RestartModuleButton } from './restart-module-button.tsx';
import { SetStatusLine } from './set-status-line.tsx';
import { useSetInfo } from './use-set-info.ts';
import { useTopQuery, type TopTab } from './top-query.ts';

// Loaded only for those who may see it (genset:report).
const WeatherLine = lazy(async () => ({
  default: (await import('../../features/reports/weather-line.tsx')).WeatherLine,
}));

const RECONNECTING_TABS: ReadonlySet<TopTab> = new Set(['realtime', 'realdata', 'baojing']);

export function TopLayout() {
  const { t } = useTranslation();
  const device = useDevice();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const embedded = useSession((s) => s.embedded);
  const { token, tabs, hrefFor } = useTopQuery();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const info = useSetInfo(token);
  const active = tabs.find((tab) => pathname === `/top/${tab}`);
  const mobile = device === 'mobile';
  const realtime = useSetRealtime(token, { reconnect: active !== undefined && RECONNECTING_TABS.has(active) });
  const alarmCount = realtime.live?.alarmnum ?? info.data?.alarmnum ?? 0;
  const live = {
    status: realtime.live?.status ?? null,
    alarmnum: realtime.live?.alarmnum ?? null,
    offline: realtime.connection === 'offline',
  };
  // the module reports (its set has a status beyond offline), or the server has it offline
  const moduleOffline = (live.status ?? 0) > 0 ? false : info.data?.online === false;

  const label = (tab: TopTab) =>
    tab === 'baojing' && alarmCount > 0 ? (
      <Badge count={alarmCount} size="small" offset={[8, -2]} data-testid="alarm-badge">
        {t(`top.tabs.${tab}`)}
      </Badge>
    ) : (
      t(`top.tabs.${tab}`)
    );

  const menu = (mode: 'horizontal' | 'inline') => (
    <Menu
      mode={mode}
      selectedKeys={active ? [active] : []}
      items={tabs.map((tab) => ({ key: tab, label: <Link to={hrefFor(tab)}>{label(tab)}</Link> }))}
      onClick={() => setDrawerOpen(false)}
      style={{ borderBottom: 0, flex: 1, minWidth: 0 }}
      data-testid="top-tabs"
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          background: '#fff',
          height: 'auto',
          lineHeight: 1.5,
          padding: '8px 16px',
          borderBottom: '1px solid #f0f0f0',
        }}
      >
        <Flex align="center" gap={12} wrap>
          {mobile ? (
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={t('layout.expandMenu')}
              onClick={() => setDrawerOpen(true)}
              data-testid="top-drawer-toggle"
            />
          ) : null}
          {embedded ? null : (
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              aria-label={t('top.back')}
              onClick={() => navigate('/index')}
            />
          )}
          <SetStatusLine token={token} info={info} live={live} />
          <Clock />
          {token ? (
            <Authorized require={[Permission.gensetReport]}>
              <Suspense fallback={null}>
                <WeatherLine token={token} />
              </Suspense>
            </Authorized>
          ) : null}
          <RestartModuleButton
            token={token}
            allowed={Boolean(info.data && info.data.rights !== 'view')}
            offline={moduleOffline}
          />
        </Flex>
        {mobile ? null : <div style={{ marginTop: 4 }}>{menu('horizontal')}</div>}
      </Layout.Header>
      {mobile ? (
        <Drawer
          placement="left"
          size="60%"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title={t('top.tabsTitle')}
          data-testid="top-drawer"
        >
          {menu('inline')}
        </Drawer>
      ) : null}
      <LiveDataBanner />
      <Layout.Content style={{ padding: mobile ? 12 : 16 }}>
        <Suspense fallback={<FullPageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
    </Layout>
  );
}

export type { TopTab };
