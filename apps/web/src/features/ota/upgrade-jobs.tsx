// The upgrades of a file or of a set as a table: the set, the version, where it is in the spec's words and in
// detail, the download's progress, the reason of a failure, and cancelling while its download has not ended.
import { Button, Popconfirm, Progress, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { OTA_CANCELLABLE_STATES, type OtaJob, type OtaJobState, type OtaSpecState } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { setLinks } from '../gensets/links.ts';
import { useCancelUpgrade } from './api.ts';
import { EmptyState } from '../../components/empty-state.tsx';

const SPEC_COLORS: Record<OtaSpecState, string> = { notDownloaded: 'default', downloaded: 'blue', updated: 'green' };
const STATE_COLORS: Partial<Record<OtaJobState, string>> = { failed: 'red', cancelled: 'default', updated: 'green' };

export function UpgradeJobs(props: {
  jobs: OtaJob[];
  loading: boolean;
  /** The file's table shows the set; the set's history shows the file. */
  show: 'set' | 'file';
  /** Whether the reader may cancel (ota:manage). */
  canCancel: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const cancel = useCancelUpgrade();
  return (
    <Table<OtaJob>
      rowKey="id"
      size="small"
      loading={props.loading}
      dataSource={props.jobs}
      pagination={props.jobs.length > 20 ? { pageSize: 20 } : false}
      scroll={{ x: 760 }}
      data-testid={props.testId}
      locale={{ emptyText: <EmptyState description={t('ota.jobs.none')} /> }}
      rowClassName={(job) => `ota-job ota-job-${job.state}`}
      columns={[
        props.show === 'set'
          ? {
              title: t('ota.jobs.set'),
              dataIndex: 'setName',
              render: (name: string, job) => <Link to={setLinks.detail(job.setToken)}>{name}</Link>,
            }
          : { title: t('ota.jobs.file'), dataIndex: 'fileName' },
        {
          title: t('ota.jobs.version'),
          key: 'version',
          render: (_, job) => (job.fromVersion ? `${job.fromVersion} → ${job.version}` : job.version),
        },
        {
          title: t('ota.jobs.status'),
          dataIndex: 'specState',
          render: (spec: OtaSpecState) => <Tag color={SPEC_COLORS[spec]}>{t(`ota.spec.${spec}`)}</Tag>,
        },
        {
          title: t('ota.jobs.step'),
          dataIndex: 'state',
          render: (state: OtaJobState) => (
            <Tag color={STATE_COLORS[state] ?? 'processing'} data-testid="ota-job-state">
              {t(`ota.state.${state}`)}
            </Tag>
          ),
        },
        {
          title: t('ota.jobs.progress'),
          dataIndex: 'progress',
          width: 140,
          render: (progress: number, job) => (
            <Progress
              percent={Math.round(progress)}
              aria-label={t('ota.jobs.progress')}
              size="small"
              status={job.state === 'failed' ? 'exception' : job.state === 'updated' ? 'success' : 'active'}
            />
          ),
        },
        {
          title: t('ota.jobs.reason'),
          dataIndex: 'reason',
          render: (reason: string) =>
            reason ? (
              <Typography.Text type="danger" data-testid="ota-job-reason">
                {reason}
              </Typography.Text>
            ) : null,
        },
        { title: t('ota.jobs.updated'), dataIndex: 'updatedAt', render: (ts: number) => formatDateTime(ts) },
        ...(props.canCancel
          ? [
              {
                title: t('ota.jobs.actions'),
                key: 'actions',
                render: (_: unknown, job: OtaJob) =>
                  OTA_CANCELLABLE_STATES.includes(job.state) ? (
                    <Space size={0}>
                      <Popconfirm title={t('ota.jobs.confirmCancel')} onConfirm={() => cancel.mutate(job.id)}>
                        <Button type="link" size="small" danger data-testid="ota-job-cancel">
                          {t('ota.jobs.cancel')}
                        </Button>
                      </Popconfirm>
                    </Space>
                  ) : null,
              },
            ]
          : []),
      ]}
    />
  );
}
