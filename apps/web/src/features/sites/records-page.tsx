// /ems/records: what the station did, newest first — tactics sent, accepted, refused or unanswered,
// strategy changes, safe stops and their end, demand-response events and state changes — by kind and range.
import { useMemo, useState } from 'react';
import { Card, DatePicker, Select, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PAGE_SIZES } from '@genset/protocol';
import { DEFAULT_PAGE_SIZE, SITE_RUN_KINDS, type SiteRunKind, type SiteRunRecord } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime, NONE } from '../../components/format.ts';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';
import { useRunRecords, type RunRecordParams } from './api.ts';
import { StationPage } from './station-page.tsx';
import type { Station } from './use-station.ts';
import './sites.css';
import { tablePagination } from './paging.ts';

const KIND_TONE: Record<SiteRunKind, Tone> = {
  tacticSent: 'blue',
  tacticAccepted: 'green',
  tacticRefused: 'red',
  tacticTimeout: 'orange',
  strategyChanged: 'cyan',
  safeStop: 'red',
  safeCleared: 'green',
  demandResponse: 'purple',
  stateChanged: 'grey',
};

function Records({ station }: { station: Station }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<SiteRunKind | 'all'>('all');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<(typeof PAGE_SIZES)[number]>(DEFAULT_PAGE_SIZE);
  const request = useMemo<RunRecordParams>(
    () => ({
      token: station.token,
      page,
      size,
      ...(kind === 'all' ? {} : { kind }),
      ...(range ? { start: range[0].startOf('day').valueOf(), end: range[1].endOf('day').valueOf() } : {}),
    }),
    [station.token, page, size, kind, range],
  );
  const records = useRunRecords(request);
  const columns: ColumnsType<SiteRunRecord> = [
    { key: 'ts', title: t('ems.records.time'), width: 170, render: (_, r) => formatDateTime(r.ts, true) },
    {
      key: 'kind',
      title: t('ems.records.kind'),
      width: 160,
      render: (_, r) => <ToneTag tone={KIND_TONE[r.kind] ?? 'grey'}>{t(`ems.records.kinds.${r.kind}`)}</ToneTag>,
    },
    { key: 'text', title: t('ems.records.text'), dataIndex: 'text' },
    {
      key: 'version',
      title: t('ems.records.version'),
      width: 110,
      render: (_, r) => (r.version === null ? NONE : t('ems.tactic.version', { version: r.version })),
    },
  ];
  return (
    <Card size="small" title={<h2 className="ems-page-title">{t('ems.records.title')}</h2>} data-testid="ems-records">
      <Space size={8} wrap style={{ marginBottom: 12 }}>
        <Select<SiteRunKind | 'all'>
          value={kind}
          style={{ minWidth: 200 }}
          aria-label={t('ems.records.kind')}
          options={[
            { value: 'all', label: t('ems.records.allKinds') },
            ...SITE_RUN_KINDS.map((k) => ({ value: k, label: t(`ems.records.kinds.${k}`) })),
          ]}
          onChange={(value) => {
            setKind(value);
            setPage(1);
          }}
        />
        <DatePicker.RangePicker
          value={range}
          onChange={(value) => {
            setRange(value?.[0] && value[1] ? [value[0], value[1]] : null);
            setPage(1);
          }}
          aria-label={t('ems.records.range')}
        />
      </Space>
      {records.isError && !records.data ? (
        <ErrorState error={records.error} onRetry={() => void records.refetch()} />
      ) : (
        <Table<SiteRunRecord>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={records.data?.list ?? []}
          loading={records.isPending || (records.isFetching && records.isPlaceholderData)}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <EmptyState description={t('ems.records.empty')} /> }}
          pagination={tablePagination(page, size, records.data?.total ?? 0, setPage, setSize)}
          data-testid="records-table"
        />
      )}
    </Card>
  );
}

export function RecordsPage() {
  return <StationPage>{(station) => <Records station={station} />}</StationPage>;
}
