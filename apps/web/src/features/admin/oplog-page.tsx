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
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';
import { usePaging } from '../../components/use-paging.ts';
import { exportOperationLog, useOperationLog, type LogFilters } from './roles-api.ts';

const OUTCOME_TONES: Record<string, Tone> = {
  ok: 'green',
  timeout: 'orange',
  offline: 'grey',
  refused: 'red',
  failed: 'red',
  error: 'red',
  notTaken: 'orange',
};

/** How a command or setting write ended, as a tag in the reader's language. */
function OutcomeTag({ entry }: { entry: LogEntry }) {
  if (!entry.outcome) return null;
  return <ToneTag tone={OUTCOME_TONES[entry.outcome] ?? 'grey'}>{entry.outcomeText}</ToneTag>;
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
      render: (_, e) => (e.outcome ? <OutcomeTag entry={e} /> : '—'),
    },
    {
      title: t('oplog.target'),
      dataIndex: 'targetName',
      responsive: ['md'],
      render: (v: string) =>
        v ? (
          <Typography.Text ellipsis title={v} style={{ maxWidth: 200 }}>
            {v}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
    { title: t('oplog.ip'), dataIndex: 'ip', responsive: ['md'], render: (v: string) => v || '—' },
  ];

  // A phone gets one column per entry: the matter, then who and when.
  const phoneColumns: TableColumnsType<LogEntry> = [
    {
      title: t('oplog.matter'),
      key: 'entry',
      render: (_, e) => (
        <Flex vertical>
          <Typography.Text>
            {e.matter} <OutcomeTag entry={e} />
          </Typography.Text>
          <Typography.Text type="secondary">
            {e.targetName ? `${e.targetName} · ` : ''}
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
          aria-label={t('oplog.matterAll')}
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
        label={t('ems.log.title')}
      />
    </Card>
  );
}
