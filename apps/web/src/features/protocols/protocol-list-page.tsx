// /com/module/list: the protocols (register maps) and their versions — search, status, create, copy, publish
// and delete after a confirmation, export as a JSON file, import one (the server's objections listed with
// their exact place), and the way into the eight screens of a version.
import { useState, type ReactNode } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Dropdown,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tooltip,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import {
  CloudUploadOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  DownOutlined,
  EditOutlined,
  ImportOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  PAGE_SIZES,
  PROTOCOL_STATUSES,
  type ProtocolListRequest,
  type ProtocolStatus,
  type ProtocolSummary,
} from '@genset/protocol';
import { Authorized } from '../../components/authorized.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { useAuthorized } from '../../components/use-authorized.ts';
import {
  exportProtocol,
  problemsOf,
  useDeleteProtocol,
  useImportProtocol,
  useProtocolList,
  usePublishProtocol,
  type DocumentProblem,
} from './api.ts';
import { CopyProtocolDialog } from './copy-protocol-dialog.tsx';
import { CreateProtocolDialog } from './create-protocol-dialog.tsx';
import { ProblemList } from './problem-list.tsx';
import { MANAGE } from './section-page.tsx';
import { SECTIONS, sectionPath } from './sections.ts';
import { StatusTag } from './status-tag.tsx';
import { formatDateTime } from '../../components/format.ts';

type PageSize = (typeof PAGE_SIZES)[number];

const formatTime = (ts: number | null) => formatDateTime(ts);

/** An icon button of a row with its action's name as tooltip; `label` names it with its row. */
function RowButton(props: { title: string; label: string; icon: ReactNode; onClick: () => void }) {
  return (
    <Tooltip title={props.title}>
      <Button type="text" icon={props.icon} aria-label={props.label} onClick={props.onClick} />
    </Tooltip>
  );
}

export function ProtocolListPage() {
  const { t } = useTranslation();
  const { message, modal } = AntApp.useApp();
  const navigate = useNavigate();
  const allowed = useAuthorized();
  const [params, setParams] = useState<ProtocolListRequest>({ page: 1, size: 20 });
  const list = useProtocolList(params);
  const publish = usePublishProtocol();
  const remove = useDeleteProtocol();
  const importer = useImportProtocol();
  const [creating, setCreating] = useState(false);
  const [copying, setCopying] = useState<ProtocolSummary | null>(null);
  const [importProblems, setImportProblems] = useState<DocumentProblem[]>([]);

  if (!allowed(MANAGE)) {
    return <ErrorState error={new Error(t('protocols.forbidden'))} />;
  }

  const confirmPublish = (row: ProtocolSummary) =>
    modal.confirm({
      title: t('protocols.publish.title', { key: row.key, version: row.version }),
      content: t('protocols.publish.content', { sets: row.sets }),
      okText: t('protocols.publish.ok'),
      cancelText: t('common.actions.cancel'),
      onOk: async () => {
        const result = await publish.mutateAsync(row.id);
        void message.success(t('protocols.publish.done', { sets: result.sets, modules: result.modules }));
      },
    });

  const importFile = async (file: File) => {
    setImportProblems([]);
    let document: unknown;
    try {
      document = JSON.parse(await file.text());
    } catch {
      void message.error(t('protocols.import.notJson', { name: file.name }));
      return;
    }
    try {
      const ref = await importer.mutateAsync(document);
      void message.success(t('protocols.import.done', { key: ref.key, version: ref.version }));
    } catch (error) {
      setImportProblems(problemsOf(error));
    }
  };

  const download = async (row: ProtocolSummary) => {
    const name = await exportProtocol(row.id, `${row.key}-v${row.version}.json`);
    void message.success(t('protocols.export.done', { name }));
  };

  const columns: TableColumnsType<ProtocolSummary> = [
    {
      key: 'key',
      title: t('protocols.fields.protocolKey'),
      render: (_v, row) => (
        <Link to={sectionPath('items', row.id)}>
          <Typography.Text code>{row.key}</Typography.Text>
        </Link>
      ),
    },
    { key: 'name', title: t('protocols.fields.name'), dataIndex: 'name' },
    {
      key: 'version',
      title: t('protocols.fields.version'),
      render: (_v, row) => t('protocols.versionN', { version: row.version }),
    },
    { key: 'layout', title: t('protocols.fields.layout'), dataIndex: 'layout' },
    {
      key: 'status',
      title: t('protocols.fields.status'),
      render: (_v, row) => <StatusTag status={row.status} current={row.current} />,
    },
    { key: 'sets', title: t('protocols.fields.sets'), dataIndex: 'sets' },
    { key: 'items', title: t('protocols.fields.itemCount'), dataIndex: 'items' },
    { key: 'createdAt', title: t('protocols.fields.createdAt'), render: (_v, row) => formatTime(row.createdAt) },
    { key: 'publishedAt', title: t('protocols.fields.publishedAt'), render: (_v, row) => formatTime(row.publishedAt) },
    {
      key: 'actions',
      title: t('protocols.table.actions'),
      fixed: 'right',
      render: (_v, row) => (
        <Space size={0} wrap>
          <Dropdown
            menu={{
              items: SECTIONS.map((s) => ({
                key: s.key,
                label: <Link to={sectionPath(s.key, row.id)}>{t(`protocols.sections.${s.key}`)}</Link>,
              })),
            }}
          >
            <Button
              type="link"
              icon={<EditOutlined />}
              aria-label={t('protocols.list.openRow', { key: row.key, version: row.version })}
            >
              {t('protocols.list.open')} <DownOutlined />
            </Button>
          </Dropdown>
          <RowButton
            title={t('protocols.list.copy')}
            label={t('protocols.list.copyRow', { key: row.key, version: row.version })}
            icon={<CopyOutlined />}
            onClick={() => setCopying(row)}
          />
          {row.status === 'draft' && (
            <RowButton
              title={t('protocols.publish.ok')}
              label={t('protocols.list.publishRow', { key: row.key, version: row.version })}
              icon={<CloudUploadOutlined />}
              onClick={() => confirmPublish(row)}
            />
          )}
          <RowButton
            title={t('protocols.export.button')}
            label={t('protocols.list.exportRow', { key: row.key, version: row.version })}
            icon={<DownloadOutlined />}
            onClick={() => void download(row).catch(() => undefined)}
          />
          <Popconfirm
            title={t('protocols.list.deleteTitle')}
            description={t('protocols.list.deleteConfirm', { key: row.key, version: row.version })}
            okText={t('protocols.table.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.actions.cancel')}
            onConfirm={async () => {
              await remove.mutateAsync(row.id);
              void message.success(t('protocols.list.deleted', { key: row.key, version: row.version }));
            }}
          >
            {/* A plain title: a tooltip would sit on top of the confirmation's buttons. */}
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              title={t('protocols.table.delete')}
              aria-label={t('protocols.list.deleteRow', { key: row.key, version: row.version })}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={
        <Typography.Title level={1} style={{ fontSize: 18, margin: 0 }}>
          {t('protocols.title')}
        </Typography.Title>
      }
      data-testid="protocol-list"
    >
      <Space wrap style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('protocols.list.search')}
            aria-label={t('protocols.list.search')}
            onSearch={(search) => setParams((p) => ({ ...p, page: 1, search: search.trim() || undefined }))}
            style={{ width: 260, maxWidth: '100%' }}
          />
          <Select<ProtocolStatus | 'all'>
            aria-label={t('protocols.fields.status')}
            value={params.status ?? 'all'}
            style={{ width: 160 }}
            onChange={(status) => setParams((p) => ({ ...p, page: 1, status: status === 'all' ? undefined : status }))}
            options={[
              { value: 'all', label: t('protocols.status.all') },
              ...PROTOCOL_STATUSES.map((s) => ({ value: s, label: t(`protocols.status.${s}`) })),
            ]}
          />
        </Space>
        <Authorized require={MANAGE}>
          <Space wrap>
            <Upload
              accept=".json,application/json"
              showUploadList={false}
              beforeUpload={(file) => {
                void importFile(file);
                return Upload.LIST_IGNORE;
              }}
            >
              <Button icon={<ImportOutlined />} loading={importer.isPending}>
                {t('protocols.import.button')}
              </Button>
            </Upload>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('protocols.create.button')}
            </Button>
          </Space>
        </Authorized>
      </Space>
      <ProblemList problems={importProblems} onClose={() => setImportProblems([])} />
      {list.isError && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<ProtocolSummary>
          size="small"
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data?.list ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <EmptyState /> }}
          pagination={{
            current: params.page,
            pageSize: params.size,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES.map(String),
            showTotal: (total) => t('protocols.table.total', { total }),
            onChange: (page, size) => setParams((p) => ({ ...p, page, size: size as PageSize })),
          }}
        />
      )}
      <CreateProtocolDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(ref) => {
          setCreating(false);
          void message.success(t('protocols.create.done', { key: ref.key }));
          navigate(sectionPath('items', ref.id));
        }}
      />
      <CopyProtocolDialog source={copying} onClose={() => setCopying(null)} />
    </Card>
  );
}
