// The energy-station layout (/ems/*): company logo and name, the station's totals and status, and a left menu
// whose second item carries the station's alarm count, both live over the realtime channel.
import { Suspense } from 'react';
import { Badge, Button, Flex, Layout, Menu, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';
import { collectPages } from '../../app/menu-routes.ts';
import { useStation } from '../../features/sites/use-station.ts';
import { isUnreachable, StationUnreachable } from '../../features/sites/station-page.tsx';
import { FullPageLoading } from '../../components/full-page-loading.tsx';
import { useDevice } from '../shell/use-device.ts';
import { useEmsMenu } from './ems-menu.ts';
import { useEmsQuery } from './ems-query.ts';
import { StationTotals } from './station-totals.tsx';

export function EmsLayout() {
  const { t } = useTranslation();
  const device = useDevice();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const company = useSession((s) => s.company);
  const embedded = useSession((s) => s.embedded);
  const items = useEmsMenu();
  const { token, hrefFor } = useEmsQuery();
  const routes = useSession((s) => s.routes);
  const station = useStation(token);
  const mobile = device === 'mobile';
  const alarmCount = token ? (station.alarmNum ?? 0) : 0;
  // back to the list of stations when the menu has it, else home
  const back = collectPages(routes).some((p) => p.path === '/site/list') ? '/site/list' : '/index';

  const unreachable = Boolean(token) && station.isError && isUnreachable(station.error);

  const menu = (
    <Menu
      mode={mobile ? 'horizontal' : 'inline'}
      selectedKeys={[pathname]}
      items={items.map((item) => {
        const label = item.titleKey ? t(item.titleKey) : item.title;
        return {
          key: item.path,
          label: (
            <Link to={hrefFor(item.path)}>
              {item.path === '/ems/baojinginfo' ? (
                <Badge
                  count={alarmCount}
                  showZero
                  color={alarmCount > 0 ? undefined : '#8c8c8c'}
                  size="small"
                  offset={[10, -2]}
                  title={t('ems.alarmCount')}
                  data-testid="ems-alarm-badge"
                >
                  <span>{label}</span>
                </Badge>
              ) : (
                label
              )}
            </Link>
          ),
        };
      })}
      // a phone's menu bar lays out all its items once before it folds those beyond its width into its "…": that
      // first look stays within the bar instead of widening the page for a moment
      style={{ borderInlineEnd: 0, ...(mobile ? { overflow: 'hidden' } : {}) }}
      data-testid="ems-menu"
    />
  );

  const body = (
    <Layout>
      {mobile ? null : (
        <Layout.Sider width={200} style={{ background: '#fff' }}>
          {menu}
        </Layout.Sider>
      )}
      <Layout.Content style={{ padding: mobile ? 12 : 16 }}>
        <Suspense fallback={<FullPageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
    </Layout>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{ background: '#001529', height: 'auto', lineHeight: 1.5, padding: '10px 16px', color: '#fff' }}
      >
        <Flex align="center" gap={12}>
          {embedded ? null : (
            <Button
              type="text"
              icon={<ArrowLeftOutlined style={{ color: '#fff' }} />}
              aria-label={t('top.back')}
              onClick={() => navigate(back)}
            />
          )}
          <img src={company?.logo || '/favicon.svg'} alt="" width={28} height={28} style={{ objectFit: 'contain' }} />
          <Typography.Title level={1} style={{ color: '#fff', fontSize: 18, margin: 0 }} data-testid="ems-company">
            {company?.title || company?.name || t('common.appName')}
          </Typography.Title>
        </Flex>
      </Layout.Header>
      {unreachable ? (
        // a station one cannot reach: a whole page saying so, without its totals, menu or pages
        <Layout.Content style={{ padding: mobile ? 12 : 16, background: '#fff' }}>
          <StationUnreachable />
        </Layout.Content>
      ) : (
        <>
          <div style={{ background: '#fff', padding: '12px 16px', borderBottom: '1px solid #f0f0f0' }}>
            <StationTotals station={token ? station : null} />
          </div>
          {mobile ? menu : null}
          {body}
        </>
      )}
    </Layout>
  );
}
