// The set lists: "My gensets" (owned and subscribed) and company-wide genset management. Status filter with
// counts, search by name or number, sortable columns, pages of 10/20/30/50, row selection with batch delete
// (at most 20), export of the current filter, subscribing by code. Rows follow the realtime channel.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { App as AntApp, Button, Card, Grid, Input, Space, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, ReloadOutlined, TagsOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MAX_SELECTED_ITEMS, PAGE_SIZES, Permission, type GensetListItem, type GensetSort } from '@genset/protocol';
import { Authorized } from '../../components/authorized.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { exportGensets, useDeleteSubscriptions, useGensetList, type ListScope } from './api.ts';
import { useGensetColumns } from './genset-columns.tsx';
import { StatusFilter } from './status-filter.tsx';
import { SubscribeDialog } from './subscribe-dialog.tsx';
import { SubscribersDrawer } from './subscribers-drawer.tsx';
import { HandOverDialog } from '../transfers/hand-over-dialog.tsx';
import { useConfirmDelete } from './use-delete-sets.ts';
import { toRequest, useListParams } from './use-list-params.ts';
import { pushedSince, useFleetRealtime, useRealtimeConnection, useRefreshWhenStale } from '../../realtime/index.ts';
import './gensets.css';

/**
 * Lists also refresh on their own: slowly while the realtime channel is open (pushes keep the rows current;
 * this brings sets added or removed elsewhere), more often while it is not.
 */
const REFRESH_MS = { live: 120_000, polled: 30_000 };

export function GensetList({ scope }: { scope: ListScope }) {
  const { t } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const navigate = useNavigate();
  const screens = Grid.useBreakpoint();
  const [params, update] = useListParams();
  const request = useMemo(() => toRequest(params), [params]);
  const connection = useRealtimeConnection();
  const list = useGensetList(scope, request, {
    refetchMs: connection === 'open' ? REFRESH_MS.live : REFRESH_MS.polled,
  });
  // Rows follow the realtime channel: a push newer than its row, or with another status or alarm count,
  // fetches the page again, and the counts by status with it.
  const tokens = useMemo(() => (list.data?.list ?? []).map((set) => set.token), [list.data]);
  const { sets: live } = useFleetRealtime(tokens);
  const stale = list.data?.list.some((set) => pushedSince(live[set.token], set)) ?? false;
  useRefreshWhenStale(stale, list.refetch);
  const [selected, setSelected] = useState<GensetListItem[]>([]);
  const [subscribing, setSubscribing] = useState(false);
  const [subscribersOf, setSubscribersOf] = useState<GensetListItem | null>(null);
  const [handingOver, setHandingOver] = useState<GensetListItem | null>(null);
  const confirmDelete = useConfirmDelete();
  const leave = useDeleteSubscriptions();

  const onLeave = useCallback(
    (set: GensetListItem) =>
      modal.confirm({
        title: t('gensets.leave.title'),
        content: t('gensets.leave.content', { name: set.name }),
        okText: t('gensets.leave.ok'),
        okButtonProps: { danger: true },
        cancelText: t('common.actions.cancel'),
        onOk: async () => {
          await leave.mutateAsync({ token: set.token });
          void message.success(t('gensets.leave.done', { name: set.name }));
        },
      }),
    [leave, message, modal, t],
  );

  const handlers = useMemo(
    () => ({
      onDelete: (set: GensetListItem) =>
        confirmDelete([set], () => setSelected((s) => s.filter((x) => x.token !== set.token))),
      onLeave: scope === 'mylist' ? onLeave : undefined,
      onSubscribers: setSubscribersOf,
      onHandOver: setHandingOver,
    }),
    [confirmDelete, onLeave, scope],
  );
  const columns = useGensetColumns(scope, params, handlers);

  const deleteSelected = () => {
    if (selected.length > MAX_SELECTED_ITEMS) {
      void message.error(t('validation.maxSelected', { max: MAX_SELECTED_ITEMS }));
      return;
    }
    confirmDelete(selected, () => setSelected([]));
  };

  // After deletions the page asked for may lie past the end: go to the last page there is.
  const lastPage = list.data ? Math.max(1, Math.ceil(list.data.total / params.size)) : 1;
  useEffect(() => {
    if (list.data && list.data.list.length === 0 && params.page > lastPage) update({ page: lastPage });
  }, [list.data, params.page, lastPage, update]);

  const title = scope === 'mylist' ? t('gensets.titles.mylist') : t('gensets.titles.list');
  const data = list.data;
  const filtered = params.status !== 'all' || params.search !== '';

  return (
    <Card
      className="genset-list-card"
      title={
        <h1 className="genset-page-title">
          {title}
          {data ? <span className="genset-total">{t('gensets.list.total', { count: data.total })}</span> : null}
        </h1>
      }
      extra={
        <Space wrap size={8} className="genset-card-extra">
          {scope === 'mylist' ? (
            <Button type="primary" icon={<TagsOutlined />} onClick={() => setSubscribing(true)}>
              {t('gensets.subscribe.button')}
            </Button>
          ) : null}
          <Authorized require={[Permission.gensetManage]}>
            <Button
              type={scope === 'list' ? 'primary' : 'default'}
              icon={<PlusOutlined />}
              onClick={() => void navigate('/genset/add')}
            >
              {t('gensets.actions.add')}
            </Button>
          </Authorized>
        </Space>
      }
    >
      <div className="genset-toolbar">
        <StatusFilter value={params.status} counts={data?.counts} onChange={(status) => update({ status })} />
        <div className="genset-toolbar-right">
          <Input.Search
            // A search changed from outside (a link, the address) starts the box afresh.
            key={params.search}
            allowClear
            defaultValue={params.search}
            onChange={(e) => {
              if (e.target.value === '' && params.search !== '') update({ search: '' });
            }}
            onSearch={(value) => update({ search: value.trim() })}
            placeholder={t('gensets.list.searchPlaceholder')}
            aria-label={t('gensets.list.search')}
            maxLength={100}
            className="genset-search"
          />
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('gensets.list.refresh')}
            onClick={() => void list.refetch()}
            loading={list.isFetching && !list.isPending}
          />
          <ExportButton
            disabled={!data || data.total === 0}
            onExport={(format) =>
              exportGensets({
                scope,
                format,
                status: params.status,
                sort: params.sort,
                order: params.order,
                ...(params.search ? { search: params.search } : {}),
              })
            }
          />
        </div>
      </div>

      {selected.length > 0 ? (
        <div className="genset-selection-bar" role="status" data-testid="selection-bar">
          <Typography.Text>{t('gensets.list.selected', { count: selected.length })}</Typography.Text>
          <Space size={8}>
            <Button size="small" onClick={() => setSelected([])}>
              {t('gensets.list.clearSelection')}
            </Button>
            <Button size="small" danger className="danger-readable" icon={<DeleteOutlined />} onClick={deleteSelected}>
              {t('gensets.list.deleteSelected')}
            </Button>
          </Space>
        </div>
      ) : null}

      {list.isError && !data ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<GensetListItem>
          size="small"
          rowKey="token"
          className="genset-table"
          columns={columns}
          dataSource={data?.list ?? []}
          loading={list.isPending || (list.isFetching && list.isPlaceholderData)}
          tableLayout="auto"
          rowSelection={{
            selectedRowKeys: selected.map((s) => s.token),
            preserveSelectedRowKeys: true,
            onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
            getCheckboxProps: (set) => ({
              disabled: set.rights !== 'manage',
              'aria-label': t('gensets.list.selectRow', { name: set.name }),
            }),
            columnWidth: 36,
          }}
          onChange={(_pagination, _filters, sorter) => {
            const one = Array.isArray(sorter) ? sorter[0] : sorter;
            const key = (one?.columnKey as GensetSort | undefined) ?? 'name';
            if (!one?.order) {
              if (params.sort !== 'name' || params.order !== 'asc') update({ sort: 'name', order: 'asc' });
              return;
            }
            const order = one.order === 'descend' ? 'desc' : 'asc';
            if (key !== params.sort || order !== params.order) update({ sort: key, order });
          }}
          locale={{
            // (no words while the first answer is awaited: "you have no gensets" would not be true yet)
            emptyText: list.isPending ? null : (
              <EmptyState description={filtered ? t('gensets.list.noMatch') : t(`gensets.list.empty.${scope}`)}>
                {scope === 'mylist' && !filtered ? (
                  <Button type="primary" icon={<TagsOutlined />} onClick={() => setSubscribing(true)}>
                    {t('gensets.subscribe.button')}
                  </Button>
                ) : null}
              </EmptyState>
            ),
          }}
          pagination={{
            current: params.page,
            pageSize: params.size,
            total: data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES.map(String),
            showLessItems: !screens.md,
            showTotal: screens.sm ? (total) => t('gensets.list.total', { count: total }) : undefined,
            onChange: (page, size) => {
              if (size !== params.size) update({ size: size as typeof params.size });
              else update({ page });
            },
          }}
        />
      )}

      <SubscribeDialog open={subscribing} onClose={() => setSubscribing(false)} />
      <SubscribersDrawer set={subscribersOf} onClose={() => setSubscribersOf(null)} />
      <HandOverDialog set={handingOver} onClose={() => setHandingOver(null)} />
    </Card>
  );
}
