// /genset/history: the history of chosen items of one set over the last week, month, three months or a
// custom range, as zoomable trends (one panel per unit) and as a table, with XLSX/CSV export.
import { usePaging } from '../../components/use-paging.ts';
import { useMemo, useState } from 'react';
import { Card, Select, Space, Table, Tabs, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_HISTORY_ITEMS, type HistoryRow, type MonitorItem } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { SetStatusTag } from '../../components/set-status-tag.tsx';
import { formatDateTime, formatNumber, withUnit } from '../../components/format.ts';
import { exportRuntimeData, useHistoryChart, useHistoryTable, useSetItems } from './api.ts';
import { RangeSelect, rangeRequest } from './range-select.tsx';
import { SetPicker } from './set-picker.tsx';
import { TrendChart } from './trend-chart.tsx';
import { useHistoryParams } from './use-history-params.ts';
import './history.css';

const PREFERRED = ['gen_kw', 'gen_voltage_l1', 'gen_freq', 'fuel_level'];

function defaultItems(items: MonitorItem[]): string[] {
  const numeric = items.filter((i) => !i.label);
  const preferred = PREFERRED.filter((k) => numeric.some((i) => i.key === k));
  return preferred.length ? preferred : numeric.slice(0, 3).map((i) => i.key);
}

function HistoryTable({ request }: { request: Parameters<typeof useHistoryTable>[0] }) {
  const { t } = useTranslation();
  const { page, size, pagination } = usePaging();
  const table = useHistoryTable(request ? { ...request, page, size } : null);
  const columns = useMemo<TableColumnsType<HistoryRow>>(
    () => [
      {
        key: 'ts',
        title: t('history.table.time'),
        fixed: 'left',
        width: 200,
        render: (_, row) => (
          <span className="history-num">
            {formatDateTime(row.ts, true)}
            {row.partial ? (
              <Tooltip title={t('history.table.partialHint')}>
                <Tag className="history-partial" data-testid="history-partial">
                  {t('history.table.partial')}
                </Tag>
              </Tooltip>
            ) : null}
          </span>
        ),
      },
      {
        key: 'status',
        title: t('history.table.status'),
        width: 100,
        render: (_, row) => (row.status === null ? '—' : <SetStatusTag status={row.status} />),
      },
      ...(table.data?.columns ?? []).map((c) => ({
        key: c.key,
        title: withUnit(c.name, c.unit),
        align: 'right' as const,
        width: 120,
        render: (_: unknown, row: HistoryRow) => (
          <span className="history-num">{formatNumber(row.values[c.key], c.decimals)}</span>
        ),
      })),
    ],
    [t, table.data?.columns],
  );
  if (table.isError && !table.data) return <ErrorState error={table.error} onRetry={() => void table.refetch()} />;
  return (
    <Table<HistoryRow>
      size="small"
      rowKey="ts"
      columns={columns}
      dataSource={table.data?.list ?? []}
      loading={table.isFetching}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <EmptyState description={t('history.noData')} /> }}
      data-testid="history-table"
      pagination={pagination(table.data?.total ?? 0, {
        showTotal: (total) => t('history.table.total', { count: total }),
      })}
    />
  );
}

export function HistoryPage() {
  const { t } = useTranslation();
  const [params, update] = useHistoryParams();
  const [tab, setTab] = useState('chart');
  const itemsQuery = useSetItems(params.token);
  const setItems = useMemo(() => itemsQuery.data ?? [], [itemsQuery.data]);
  const items = params.items.length ? params.items : defaultItems(setItems);
  const range = rangeRequest(params);
  const request = params.token && items.length && range ? { token: params.token, items, ...range } : null;
  const chart = useHistoryChart(request);

  const itemOptions = useMemo(() => {
    const groups = new Map<string, { value: string; label: string }[]>();
    for (const item of setItems) {
      if (item.label) continue;
      const list = groups.get(item.group) ?? [];
      list.push({ value: item.key, label: withUnit(item.name, item.unit) });
      groups.set(item.group, list);
    }
    return [...groups].map(([group, options]) => ({ label: group || t('history.otherItems'), options }));
  }, [setItems, t]);

  const hasPoints = Boolean(chart.data?.series.some((s) => s.points.some((p) => p[1] !== null)));

  return (
    <Card
      className="history-card"
      title={<h1 className="history-title">{t('history.title')}</h1>}
      extra={<ExportButton disabled={!request} onExport={(format) => exportRuntimeData({ ...request!, format })} />}
    >
      <div className="history-controls">
        <SetPicker value={params.token || undefined} onChange={(token) => update({ token: token ?? '', items: [] })} />
        <Select<string[]>
          mode="multiple"
          value={items}
          onChange={(next) => update({ items: next })}
          options={itemOptions}
          maxCount={MAX_HISTORY_ITEMS}
          maxTagCount="responsive"
          placeholder={t('history.pickItems')}
          aria-label={t('history.items')}
          disabled={!params.token}
          loading={itemsQuery.isFetching}
          optionFilterProp="label"
          className="history-items"
          data-testid="item-picker"
        />
        <RangeSelect value={params} onChange={(r) => update(r)} />
      </div>
      {!params.token ? (
        <EmptyState description={t('history.chooseSet')} />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'chart',
              label: t('history.tabs.chart'),
              children:
                chart.isError && !chart.data ? (
                  <ErrorState error={chart.error} onRetry={() => void chart.refetch()} />
                ) : chart.data && hasPoints ? (
                  <>
                    <Space size={12} wrap className="history-meta">
                      <Typography.Text type="secondary">
                        {formatDateTime(chart.data.start)} – {formatDateTime(chart.data.end)}
                      </Typography.Text>
                      <Typography.Text type="secondary">
                        {t(`history.resolution.${chart.data.resolution}`)}
                      </Typography.Text>
                    </Space>
                    <TrendChart data={chart.data} loading={chart.isFetching} />
                  </>
                ) : chart.isFetching || itemsQuery.isPending ? (
                  <div className="history-placeholder">{t('common.states.loading')}</div>
                ) : (
                  <EmptyState description={t('history.noData')} />
                ),
            },
            {
              key: 'table',
              label: t('history.tabs.table'),
              children: tab === 'table' ? <HistoryTable key={JSON.stringify(request)} request={request} /> : null,
            },
          ]}
        />
      )}
    </Card>
  );
}
