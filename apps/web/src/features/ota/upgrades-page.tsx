// /site/upgrade: the company's firmware files for cloud modules and controllers (upload with model and version;
// size, MD5, SHA-256 and how many sets each reached), each file's upgrades with live progress, assigning a file
// to sets (chosen, or every set of its model) with a concurrency limit and an optional window of hours, and
// cancelling an upgrade before its download ends.
import { useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { CloudUploadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OTA_FILE_BYTES_MAX, OTA_TARGETS, type OtaFile } from '@genset/protocol';
import { ErrorState } from '../../components/error-state.tsx';
import { formatBytes, formatDateTime } from '../../components/format.ts';
import { applyServerErrors } from '../../components/server-errors.ts';
import { useGensetList } from '../gensets/api.ts';
import {
  useAssignFirmware,
  useDeleteFirmware,
  useFileUpgrades,
  useFirmwareFiles,
  useUploadFirmware,
  useUpgradePushes,
  type FirmwareFormValues,
} from './api.ts';
import { UpgradeJobs } from './upgrade-jobs.tsx';
import { EmptyState } from '../../components/empty-state.tsx';

export function UpgradesPage() {
  const { t } = useTranslation();
  const files = useFirmwareFiles();
  const remove = useDeleteFirmware();
  const [uploading, setUploading] = useState(false);
  const [assigning, setAssigning] = useState<OtaFile | null>(null);
  useUpgradePushes();

  if (files.isError) return <ErrorState error={files.error} onRetry={() => void files.refetch()} />;

  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('ota.title')}</h2>}
      data-testid="upgrades-page"
      extra={
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          onClick={() => setUploading(true)}
          data-testid="firmware-upload"
        >
          {t('ota.files.upload')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('ota.intro')}</Typography.Paragraph>
      <Table<OtaFile>
        rowKey="id"
        loading={files.isPending}
        dataSource={files.data?.list ?? []}
        pagination={false}
        scroll={{ x: 960 }}
        data-testid="firmware-files"
        locale={{ emptyText: <EmptyState description={t('ota.files.none')} /> }}
        columns={[
          { title: t('ota.files.name'), dataIndex: 'name' },
          { title: t('ota.files.version'), dataIndex: 'version' },
          {
            title: t('ota.files.target'),
            key: 'target',
            render: (_, file) => `${t(`ota.target.${file.target}`)} · ${file.model}`,
          },
          { title: t('ota.files.size'), dataIndex: 'size', render: (size: number) => formatBytes(size) },
          {
            title: t('ota.files.hashes'),
            key: 'hashes',
            width: 220,
            render: (_, file) => (
              <Space direction="vertical" size={0}>
                <Typography.Text copyable={{ text: file.md5 }} style={{ fontSize: 12 }}>
                  {t('ota.files.md5', { hash: `${file.md5.slice(0, 12)}…` })}
                </Typography.Text>
                <Typography.Text copyable={{ text: file.sha256 }} style={{ fontSize: 12 }}>
                  {t('ota.files.sha256', { hash: `${file.sha256.slice(0, 12)}…` })}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('ota.files.status'),
            key: 'status',
            render: (_, file) => (
              <Space size={4} wrap data-testid="firmware-counts">
                <Tag>{t('ota.count.notDownloaded', { count: file.counts.notDownloaded })}</Tag>
                <Tag color="blue">{t('ota.count.downloaded', { count: file.counts.downloaded })}</Tag>
                <Tag color="green">{t('ota.count.updated', { count: file.counts.updated })}</Tag>
                {file.counts.failed > 0 ? (
                  <Tag color="red">{t('ota.count.failed', { count: file.counts.failed })}</Tag>
                ) : null}
              </Space>
            ),
          },
          { title: t('ota.files.uploaded'), dataIndex: 'createdAt', render: (ts: number) => formatDateTime(ts) },
          {
            title: t('ota.files.actions'),
            key: 'actions',
            render: (_, file) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => setAssigning(file)} data-testid="firmware-assign">
                  {t('ota.files.assign')}
                </Button>
                <Popconfirm
                  title={t('ota.files.confirmDelete')}
                  onConfirm={() => remove.mutate(file.id)}
                  disabled={file.inUse}
                >
                  <Button
                    type="link"
                    size="small"
                    danger
                    disabled={file.inUse}
                    title={file.inUse ? t('ota.files.inUse') : ''}
                  >
                    {t('ota.files.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
        expandable={{
          expandedRowRender: (file) => <FileUpgrades fileId={file.id} />,
          rowExpandable: (file) =>
            file.counts.notDownloaded + file.counts.downloaded + file.counts.updated + file.counts.failed > 0,
        }}
      />
      <UploadDialog open={uploading} onClose={() => setUploading(false)} />
      <AssignDialog file={assigning} onClose={() => setAssigning(null)} />
    </Card>
  );
}

function FileUpgrades({ fileId }: { fileId: number }) {
  const jobs = useFileUpgrades(fileId);
  return (
    <UpgradeJobs
      jobs={jobs.data?.list ?? []}
      loading={jobs.isPending}
      show="set"
      canCancel
      testId="firmware-upgrades"
    />
  );
}

interface UploadValues extends Omit<FirmwareFormValues, 'file'> {
  file: { originFileObj?: File }[];
}

function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [share, setShare] = useState(0);
  const upload = useUploadFirmware(setShare);
  const [form] = Form.useForm<UploadValues>();

  async function submit(values: UploadValues) {
    const file = values.file[0]?.originFileObj;
    if (!file) return;
    setShare(0);
    try {
      await upload.mutateAsync({
        name: values.name,
        version: values.version,
        target: values.target,
        model: values.model,
        ...(values.sha256 ? { sha256: values.sha256.trim() } : {}),
        file,
      });
      void message.success(t('ota.files.uploadedOk'));
      form.resetFields();
      onClose();
    } catch (error) {
      applyServerErrors(form, error);
    }
  }

  return (
    <Modal
      open={open}
      title={t('ota.files.upload')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('ota.files.send')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={upload.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ target: 'module', file: [] }}
        onFinish={(v) => void submit(v)}
        data-testid="firmware-form"
      >
        <Form.Item
          name="name"
          label={t('ota.files.name')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="version"
          label={t('ota.files.version')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Input maxLength={64} placeholder="2.0.0" />
        </Form.Item>
        <Form.Item name="target" label={t('ota.files.target')}>
          <Select options={OTA_TARGETS.map((value) => ({ value, label: t(`ota.target.${value}`) }))} />
        </Form.Item>
        <Form.Item
          name="model"
          label={t('ota.files.model')}
          extra={t('ota.files.modelHint')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="sha256" label={t('ota.files.expectedSha')} extra={t('ota.files.expectedShaHint')}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="file"
          label={t('ota.files.file')}
          valuePropName="fileList"
          getValueFromEvent={(e: { fileList: unknown[] }) => e.fileList.slice(-1)}
          rules={[{ required: true, type: 'array', min: 1, message: t('validation.required') }]}
          extra={t('ota.files.fileHint', { mb: Math.round(OTA_FILE_BYTES_MAX / (1024 * 1024)) })}
        >
          <Upload beforeUpload={() => false} maxCount={1} data-testid="firmware-file">
            <Button icon={<UploadOutlined />}>{t('ota.files.choose')}</Button>
          </Upload>
        </Form.Item>
        {upload.isPending ? (
          <Progress percent={Math.round(share * 100)} size="small" aria-label={t('ota.jobs.progress')} />
        ) : null}
      </Form>
    </Modal>
  );
}

interface AssignValues {
  tokens: string[];
  allOfModel: boolean;
  concurrency: number;
  windowed: boolean;
  startHour: number;
  endHour: number;
}

function AssignDialog({ file, onClose }: { file: OtaFile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const assign = useAssignFirmware();
  const [search, setSearch] = useState('');
  const sets = useGensetList('list', { page: 1, size: 50, ...(search ? { search } : {}) });
  const [form] = Form.useForm<AssignValues>();
  const allOfModel = Form.useWatch('allOfModel', form);
  const windowed = Form.useWatch('windowed', form);

  async function submit(values: AssignValues) {
    if (!file) return;
    try {
      const result = await assign.mutateAsync({
        fileId: file.id,
        ...(values.allOfModel ? { allOfModel: true } : { tokens: values.tokens }),
        concurrency: values.concurrency,
        ...(values.windowed ? { window: { startHour: values.startHour, endHour: values.endHour } } : {}),
      });
      void message.success(t('ota.assign.started', { count: result.jobs }));
      onClose();
    } catch (error) {
      applyServerErrors(form, error);
    }
  }

  const hours = Array.from({ length: 24 }, (_, h) => ({ value: h, label: `${String(h).padStart(2, '0')}:00` }));
  return (
    <Modal
      open={file !== null}
      title={t('ota.assign.title', { name: file?.name ?? '', version: file?.version ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('ota.assign.start')}
      cancelText={t('common.actions.cancel')}
      confirmLoading={assign.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ tokens: [], allOfModel: false, concurrency: 5, windowed: false, startHour: 1, endHour: 5 }}
        onFinish={(v) => void submit(v)}
        data-testid="assign-form"
      >
        <Form.Item name="allOfModel" valuePropName="checked">
          <Checkbox data-testid="assign-all">{t('ota.assign.allOfModel', { model: file?.model ?? '' })}</Checkbox>
        </Form.Item>
        {allOfModel ? null : (
          <Form.Item
            name="tokens"
            label={t('ota.assign.sets')}
            rules={[{ required: true, type: 'array', min: 1, message: t('validation.required') }]}
          >
            <Select
              mode="multiple"
              showSearch={{ filterOption: false, onSearch: setSearch }}
              options={(sets.data?.list ?? []).map((s) => ({ value: s.token, label: s.name }))}
              loading={sets.isFetching}
              placeholder={t('ota.assign.setsHint')}
              data-testid="assign-sets"
            />
          </Form.Item>
        )}
        <Form.Item name="concurrency" label={t('ota.assign.concurrency')} extra={t('ota.assign.concurrencyHint')}>
          <InputNumber min={1} max={100} />
        </Form.Item>
        <Form.Item name="windowed" valuePropName="checked">
          <Checkbox>{t('ota.assign.window')}</Checkbox>
        </Form.Item>
        {windowed ? (
          <Space>
            <Form.Item name="startHour" label={t('ota.assign.from')}>
              <Select options={hours} style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name="endHour" label={t('ota.assign.to')}>
              <Select options={hours} style={{ width: 110 }} />
            </Form.Item>
          </Space>
        ) : null}
      </Form>
    </Modal>
  );
}
