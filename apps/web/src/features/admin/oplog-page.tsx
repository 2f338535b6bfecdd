// /system/log: the operation log (log:view): who did what, when and from where, newest first; searched by the
// operator's account or nickname, the matter and a time range, and exported as an XLSX file with the same filters.
import { useState } from 'react';
import { Button, Card, DatePicker, Flex, Grid, Input, Select, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '@genset/protocol';
import { PagedTable } from '../../components/paged-table.tsx';
import { formatDateTime } from '../../components/format.ts';
import { usePaging } from '../../components/use-paging.ts';
import { exportOperationLog, useOperationLog, type LogFilters } from './roles-api.ts';

/** What an entry recorded beyond its matter, as short text. */
function feedbackText(feedback: Record<string, unknown>): string {
  return Object.entries(feedback)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

export function OplogPage() {
  const { t } = useTranslation();
  const paging = usePaging();
  const [keyword, setKeyword] = useState('');
  const [matter, setMatter] = useState<string | undefined>();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [exporting, setExporting] = useState(false);
  const screens = Grid.useBreakpoint();
  const filters: LogFilters = {
    ...(keyword ? { keyword } : {}),
    ...(matter ? { matter } : {}),
    ...(range?.[0] ? { start: range[0].valueOf() } : {}),
    ...(range?.[1] ? { end: range[1].valueOf() } : {}),
  };
  const query = useOperationLog({ ...filters, page: paging.page, size: paging.size });

  const columns: TableColumnsType<LogEntry> = [
    { title: t('oplog.time'), dataIndex: 'time', width: 170, render: (v: number) => formatDateTime(v, true) },
    {
      title: t('oplog.operator'),
      key: 'operator',
      render: (_, e) => (
        <Flex vertical>
          <Typography.Text>{e.nickname || '—'}</Typography.Text>
          <Typography.Text type="secondary">{e.account}</Typography.Text>
        </Flex>
      ),
    },
    { title: t('oplog.matter'), dataIndex: 'matter' },
    {
      title: t('oplog.feedback'),
      key: 'feedback',
      responsive: ['lg'],
      render: (_, e) => (
        <Typography.Text type="secondary" ellipsis={{ tooltip: true }} style={{ maxWidth: 320 }}>
          {feedbackText(e.feedback) || '—'}
        </Typography.Text>
      ),
    },
    { title: t('oplog.target'), dataIndex: 'target', responsive: ['md'], render: (v: string) => v || '—' },
    { title: t('oplog.ip'), dataIndex: 'ip', responsive: ['md'], render: (v: string) => v || '—' },
  ];

  // A phone gets one column per entry: the matter, then who and when.
  const phoneColumns: TableColumnsType<LogEntry> = [
    {
      title: t('oplog.matter'),
      key: 'entry',
      render: (_, e) => (
        <Flex vertical>
          <Typography.Text>{e.matter}</Typography.Text>
          <Typography.Text type="secondary">
            {e.nickname || e.account} · {formatDateTime(e.time, true)}
          </Typography.Text>
        </Flex>
      ),
    },
  ];

  const reset = () => paging.setPage(1);

  return (
    <Card>
      <Flex gap={8} wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('oplog.operatorSearch')}
          style={{ width: 240, maxWidth: '100%' }}
          onSearch={(v) => {
            reset();
            setKeyword(v.trim());
          }}
          data-testid="oplog-operator"
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={t('oplog.matterAll')}
          style={{ width: 240, maxWidth: '100%' }}
          value={matter}
          options={(query.data?.matters ?? []).map((m) => ({ value: m.key, label: m.title }))}
          onChange={(v: string | undefined) => {
            reset();
            setMatter(v);
          }}
          data-testid="oplog-matter"
        />
        <DatePicker.RangePicker
          showTime
          value={range}
          onChange={(v) => {
            reset();
            setRange(v);
          }}
          style={{ maxWidth: '100%' }}
        />
        <Button
          icon={<DownloadOutlined />}
          loading={exporting}
          onClick={async () => {
            setExporting(true);
            try {
              await exportOperationLog(filters);
            } finally {
              setExporting(false);
            }
          }}
          data-testid="oplog-export"
        >
          {t('oplog.export')}
        </Button>
      </Flex>
      <PagedTable<LogEntry>
        query={query}
        paging={paging}
        columns={screens.sm === false ? phoneColumns : columns}
        testId="oplog-table"
      />
    </Card>
  );
}
