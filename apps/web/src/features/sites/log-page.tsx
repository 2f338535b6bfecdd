// /ems/log: the station's operation log, newest first (who did what, with what outcome); an entry opens with
// everything it recorded (address, names, versions, the module's reason).
import { useState } from 'react';
import { Button, Card, Descriptions, Drawer, Spin, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { PAGE_SIZES } from '@genset/protocol';
import { DEFAULT_PAGE_SIZE, type SiteLogEntry } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime, NONE } from '../../components/format.ts';
import { useSiteLog, useSiteLogInfo } from './api.ts';
import { StationPage } from './station-page.tsx';
import type { Station } from './use-station.ts';
import './sites.css';
import { tablePagination } from './paging.ts';

/** A recorded detail as text: numbers and words as they are, anything else as JSON. */
export function detailText(value: unknown): string {
  if (value === null || value === undefined || value === '') return NONE;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function EntryDrawer({ token, id, onClose }: { token: string; id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const info = useSiteLogInfo(token, id);
  const entry = info.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={t('ems.log.entry')}
      size={480}
      styles={{ wrapper: { maxWidth: '100vw' } }}
      destroyOnHidden
    >
      {info.isError ? (
        <ErrorState error={info.error} onRetry={() => void info.refetch()} />
      ) : !entry ? (
        <Spin />
      ) : (
        <Descriptions
          size="small"
          column={1}
          bordered
          data-testid="log-entry"
          items={[
            { key: 'time', label: t('ems.log.time'), children: formatDateTime(entry.time, true) },
            { key: 'account', label: t('ems.log.account'), children: entry.account },
            { key: 'nickname', label: t('ems.log.nickname'), children: entry.nickname },
            { key: 'matter', label: t('ems.log.matter'), children: entry.matter },
            { key: 'outcome', label: t('ems.log.outcome'), children: entry.outcome ?? NONE },
            { key: 'ip', label: t('ems.log.ip'), children: entry.ip },
            ...Object.entries(entry.detail).map(([key, value]) => ({
              key: `detail:${key}`,
              label: key,
              children: <span style={{ wordBreak: 'break-word' }}>{detailText(value)}</span>,
            })),
          ]}
        />
      )}
    </Drawer>
  );
}

function Log({ station }: { station: Station }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<(typeof PAGE_SIZES)[number]>(DEFAULT_PAGE_SIZE);
  const [open, setOpen] = useState<number | null>(null);
  const log = useSiteLog({ token: station.token, page, size });
  const columns: ColumnsType<SiteLogEntry> = [
    { key: 'time', title: t('ems.log.time'), width: 170, render: (_, e) => formatDateTime(e.time, true) },
    { key: 'account', title: t('ems.log.account'), dataIndex: 'account' },
    { key: 'nickname', title: t('ems.log.nickname'), dataIndex: 'nickname' },
    { key: 'matter', title: t('ems.log.matter'), dataIndex: 'matter' },
    { key: 'outcome', title: t('ems.log.outcome'), render: (_, e) => e.outcome ?? NONE },
    {
      key: 'open',
      title: t('ems.log.detail'),
      width: 90,
      render: (_, e) => (
        <Button size="small" type="link" onClick={() => setOpen(e.id)}>
          {t('ems.log.view')}
        </Button>
      ),
    },
  ];
  return (
    <Card size="small" title={<h2 className="ems-page-title">{t('ems.log.title')}</h2>} data-testid="ems-log">
      {log.isError && !log.data ? (
        <ErrorState error={log.error} onRetry={() => void log.refetch()} />
      ) : (
        <Table<SiteLogEntry>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={log.data?.list ?? []}
          loading={log.isPending || (log.isFetching && log.isPlaceholderData)}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <EmptyState description={t('ems.log.empty')} /> }}
          pagination={tablePagination(page, size, log.data?.total ?? 0, setPage, setSize)}
          data-testid="log-table"
        />
      )}
      <EntryDrawer token={station.token} id={open} onClose={() => setOpen(null)} />
    </Card>
  );
}

export function LogPage() {
  return <StationPage>{(station) => <Log station={station} />}</StationPage>;
}
