// /site/list, "My stations": the stations the user sees with their state in colour and word, SOC, battery
// power, today's charge, discharge and income, total income and alarms; search by name; a station opens in
// the station layout (/ems/index?token=…). Those with site:manage add, edit and delete stations. On a phone
// each station is a card.
import { useState } from 'react';
import { App as AntApp, Button, Card, Grid, Input, List, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, LoginOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, Permission, SITE_NAME_MAX, type SiteListItem } from '@genset/protocol';
import { Authorized } from '../../components/authorized.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { ToneTag } from '../../components/tone-tag.tsx';
import { useAuthorized } from '../../components/use-authorized.ts';
import { useDeleteSite, useSiteList } from './api.ts';
import { EMS_PATHS, stationHref } from './links.ts';
import { formatKw, formatKwh, formatMoney, formatSoc } from './site-format.ts';
import { SiteFormDialog } from './site-form-dialog.tsx';
import { SiteStatusTag } from './site-status-tag.tsx';
import './sites.css';

function powerWord(kw: number | null): string | null {
  if (kw === null || Math.abs(kw) < 0.1) return null;
  return kw > 0 ? 'discharging' : 'charging';
}

function Power({ kw }: { kw: number | null }) {
  const { t } = useTranslation();
  const word = powerWord(kw);
  return (
    <span data-testid="site-power">
      {formatKw(kw === null ? null : Math.abs(kw))}
      {word ? <span className="ems-muted"> {t(`ems.status.${word}`)}</span> : null}
    </span>
  );
}

function Alarms({ count }: { count: number }) {
  const { t } = useTranslation();
  return count > 0 ? (
    <ToneTag tone="red" data-testid="site-alarms">
      {t('sites.list.alarms', { count })}
    </ToneTag>
  ) : (
    <span data-testid="site-alarms">{t('sites.list.noAlarms')}</span>
  );
}

export function SiteListPage() {
  const { t } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const screens = Grid.useBreakpoint();
  const allowed = useAuthorized();
  const canManage = allowed([Permission.siteManage]);
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<(typeof PAGE_SIZES)[number]>(DEFAULT_PAGE_SIZE);
  const list = useSiteList({ page, size, ...(name ? { name } : {}) });
  const remove = useDeleteSite();
  // undefined: closed; null: a new station; a token: that station
  const [editing, setEditing] = useState<string | null | undefined>(undefined);
  const data = list.data;
  const mobile = !screens.md;

  const confirmDelete = (site: SiteListItem) =>
    modal.confirm({
      title: t('sites.delete.title'),
      content: t('sites.delete.content', { name: site.name }),
      okText: t('sites.delete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        await remove.mutateAsync(site.token);
        void message.success(t('sites.delete.done', { name: site.name }));
      },
    });

  const actions = (site: SiteListItem) => (
    <Space size={4} wrap>
      <Link to={stationHref(EMS_PATHS.overview, site.token)} data-testid="site-open">
        <LoginOutlined /> {t('sites.list.open')}
      </Link>
      {canManage ? (
        <>
          <Button
            size="small"
            type="text"
            icon={<EditOutlined />}
            aria-label={t('sites.list.editOf', { name: site.name })}
            onClick={() => setEditing(site.token)}
          />
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('sites.list.deleteOf', { name: site.name })}
            onClick={() => confirmDelete(site)}
          />
        </>
      ) : null}
    </Space>
  );

  const columns: ColumnsType<SiteListItem> = [
    {
      key: 'name',
      title: t('sites.list.name'),
      fixed: 'left',
      render: (_, site) => (
        <div>
          <Link to={stationHref(EMS_PATHS.overview, site.token)}>{site.name}</Link>
          {site.address ? <div className="ems-muted">{site.address}</div> : null}
        </div>
      ),
    },
    { key: 'status', title: t('sites.list.status'), render: (_, site) => <SiteStatusTag status={site.status} /> },
    { key: 'soc', title: t('sites.list.soc'), align: 'right', render: (_, site) => formatSoc(site.soc) },
    { key: 'power', title: t('sites.list.power'), align: 'right', render: (_, site) => <Power kw={site.powerKw} /> },
    {
      key: 'todayCharge',
      title: t('sites.list.todayCharge'),
      align: 'right',
      render: (_, site) => formatKwh(site.todayChargeKwh),
    },
    {
      key: 'todayDischarge',
      title: t('sites.list.todayDischarge'),
      align: 'right',
      render: (_, site) => formatKwh(site.todayDischargeKwh),
    },
    {
      key: 'todayIncome',
      title: t('sites.list.todayIncome'),
      align: 'right',
      render: (_, site) => formatMoney(site.todayIncome, site.currency),
    },
    {
      key: 'totalIncome',
      title: t('sites.list.totalIncome'),
      align: 'right',
      render: (_, site) => formatMoney(site.totalIncome, site.currency),
    },
    { key: 'alarms', title: t('sites.list.alarmsTitle'), render: (_, site) => <Alarms count={site.alarmNum} /> },
    { key: 'actions', title: t('sites.list.actions'), render: (_, site) => actions(site) },
  ];

  const pagination = {
    current: page,
    pageSize: size,
    total: data?.total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showLessItems: mobile,
    onChange: (p: number, s: number) => {
      if (s !== size) {
        setSize(s as (typeof PAGE_SIZES)[number]);
        setPage(1);
      } else setPage(p);
    },
  };
  const empty = <EmptyState description={name ? t('sites.list.noMatch') : t('sites.list.empty')} />;

  return (
    <Card
      title={
        <h1 className="ems-page-title">
          {t('sites.list.title')}
          {data ? (
            <Typography.Text type="secondary" style={{ fontWeight: 'normal', marginInlineStart: 8, fontSize: 13 }}>
              {t('sites.list.total', { count: data.total })}
            </Typography.Text>
          ) : null}
        </h1>
      }
      extra={
        <Authorized require={[Permission.siteManage]}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="site-add">
            {t('sites.list.add')}
          </Button>
        </Authorized>
      }
      data-testid="site-list"
    >
      <Space wrap size={8} style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('sites.list.search')}
          aria-label={t('sites.list.search')}
          maxLength={SITE_NAME_MAX}
          onSearch={(value) => {
            setName(value.trim());
            setPage(1);
          }}
          style={{ width: mobile ? '100%' : 280 }}
          data-testid="site-search"
        />
        <Button
          icon={<ReloadOutlined />}
          aria-label={t('sites.list.refresh')}
          onClick={() => void list.refetch()}
          loading={list.isFetching && !list.isPending}
        />
      </Space>

      {list.isError && !data ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : mobile ? (
        <List<SiteListItem>
          className="ems-site-cards"
          loading={list.isPending}
          dataSource={data?.list ?? []}
          locale={{ emptyText: empty }}
          pagination={data && data.total > size ? { ...pagination, size: 'small' } : false}
          renderItem={(site) => (
            <Card
              size="small"
              key={site.token}
              data-testid="site-card"
              title={
                <Space size={8} wrap>
                  <Link to={stationHref(EMS_PATHS.overview, site.token)}>{site.name}</Link>
                  <SiteStatusTag status={site.status} />
                </Space>
              }
            >
              <dl className="ems-site-card-figures">
                <dt>{t('sites.list.soc')}</dt>
                <dd>{formatSoc(site.soc)}</dd>
                <dt>{t('sites.list.power')}</dt>
                <dd>
                  <Power kw={site.powerKw} />
                </dd>
                <dt>{t('sites.list.todayCharge')}</dt>
                <dd>{formatKwh(site.todayChargeKwh)}</dd>
                <dt>{t('sites.list.todayDischarge')}</dt>
                <dd>{formatKwh(site.todayDischargeKwh)}</dd>
                <dt>{t('sites.list.todayIncome')}</dt>
                <dd>{formatMoney(site.todayIncome, site.currency)}</dd>
                <dt>{t('sites.list.totalIncome')}</dt>
                <dd>{formatMoney(site.totalIncome, site.currency)}</dd>
                <dt>{t('sites.list.alarmsTitle')}</dt>
                <dd>
                  <Alarms count={site.alarmNum} />
                </dd>
              </dl>
              {actions(site)}
            </Card>
          )}
        />
      ) : (
        <Table<SiteListItem>
          size="small"
          rowKey="token"
          columns={columns}
          dataSource={data?.list ?? []}
          loading={list.isPending || (list.isFetching && list.isPlaceholderData)}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: empty }}
          pagination={{ ...pagination, showTotal: (total) => t('sites.list.total', { count: total }) }}
          data-testid="site-table"
        />
      )}
      <SiteFormDialog open={editing !== undefined} token={editing ?? null} onClose={() => setEditing(undefined)} />
    </Card>
  );
}
