// /genset/transfers: the handovers the user sends or receives, pending (untreated) and done (accepted, rejected,
// revoked), with sender, receiver, set, status, handover time and processing time. The receiver accepts or
// rejects a pending one, the sender revokes it. A table on wide screens, a list of cards on phones.
import { useState } from 'react';
import {
  App as AntApp,
  Button,
  Card,
  Descriptions,
  Grid,
  List,
  Popconfirm,
  Space,
  Table,
  Tabs,
  Typography,
  type TableColumnsType,
} from 'antd';
import { CheckOutlined, CloseOutlined, RollbackOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TransferBox, TransferItem, TransferStatus } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { ToneTag, type Tone } from '../../components/tone-tag.tsx';
import { usePaging } from '../../components/use-paging.ts';
import { setLinks } from '../gensets/links.ts';
import { useTransferAction, useTransfers, type TransferAction } from './api.ts';
import './transfers.css';

const STATUS_TONES: Record<TransferStatus, Tone> = {
  untreated: 'orange',
  accepted: 'green',
  rejected: 'red',
  revoked: 'grey',
};

/** Whether the caller can still open the set's page: it is theirs now, or was never given away. */
function stillSees(item: TransferItem): boolean {
  if (item.direction === 'incoming') return item.status === 'accepted';
  return item.status !== 'accepted' || item.keepSubscription !== 'none';
}

function Party({ party }: { party: TransferItem['sender'] }) {
  return (
    <span className="transfer-party">
      <span>{party.nickname || party.account}</span>
      {party.nickname ? (
        <Typography.Text type="secondary" className="transfer-account">
          {party.account}
        </Typography.Text>
      ) : null}
    </span>
  );
}

function SetName({ item }: { item: TransferItem }) {
  return stillSees(item) ? <Link to={setLinks.detail(item.token)}>{item.gensetName}</Link> : <>{item.gensetName}</>;
}

function StatusTag({ status }: { status: TransferStatus }) {
  const { t } = useTranslation();
  return <ToneTag tone={STATUS_TONES[status]}>{t(`transfers.status.${status}`)}</ToneTag>;
}

function DirectionTag({ item }: { item: TransferItem }) {
  const { t } = useTranslation();
  return (
    <ToneTag tone={item.direction === 'incoming' ? 'blue' : 'purple'}>
      {t(`transfers.direction.${item.direction}`)}
    </ToneTag>
  );
}

/** Accept and reject for the receiver, revoke for the sender, while the record is untreated. */
function Actions({ item }: { item: TransferItem }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const action = useTransferAction();
  if (item.status !== 'untreated') return null;

  const run = async (what: TransferAction) => {
    await action.mutateAsync({ action: what, id: item.id });
    void message.success(t(`transfers.done.${what}`, { name: item.gensetName }));
  };
  const busy = action.isPending;

  if (item.direction === 'outgoing')
    return (
      <Popconfirm
        title={t('transfers.confirm.revoke', { name: item.gensetName })}
        okText={t('transfers.actions.revoke')}
        cancelText={t('common.actions.cancel')}
        onConfirm={() => run('revoke')}
      >
        <Button size="small" icon={<RollbackOutlined />} loading={busy}>
          {t('transfers.actions.revoke')}
        </Button>
      </Popconfirm>
    );
  return (
    <Space size={8} wrap>
      <Button size="small" type="primary" icon={<CheckOutlined />} loading={busy} onClick={() => void run('accept')}>
        {t('transfers.actions.accept')}
      </Button>
      <Popconfirm
        title={t('transfers.confirm.reject', { name: item.gensetName })}
        okText={t('transfers.actions.reject')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.actions.cancel')}
        onConfirm={() => run('reject')}
      >
        <Button size="small" danger className="danger-readable" icon={<CloseOutlined />} disabled={busy}>
          {t('transfers.actions.reject')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

function TransferList({ box }: { box: TransferBox }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;
  const { page, size, pagination, listPagination } = usePaging();
  const list = useTransfers(box, page, size);
  const data = list.data;

  if (list.isError && !data) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  const empty = <EmptyState description={t(`transfers.empty.${box}`)} />;
  if (narrow)
    return (
      <List<TransferItem>
        className="transfer-cards"
        loading={list.isPending}
        dataSource={data?.list ?? []}
        locale={{ emptyText: empty }}
        pagination={listPagination(data?.total)}
        renderItem={(item) => (
          <List.Item key={item.id} data-testid="transfer-card">
            <Card size="small" className="transfer-card">
              <Space size={8} wrap className="transfer-card-head">
                <strong>
                  <SetName item={item} />
                </strong>
                <DirectionTag item={item} />
                <StatusTag status={item.status} />
              </Space>
              <Descriptions size="small" column={1} className="transfer-card-fields">
                <Descriptions.Item label={t('transfers.columns.sender')}>
                  <Party party={item.sender} />
                </Descriptions.Item>
                <Descriptions.Item label={t('transfers.columns.receiver')}>
                  <Party party={item.receiver} />
                </Descriptions.Item>
                <Descriptions.Item label={t('transfers.columns.keep')}>
                  {t(`transfers.keep.${item.keepSubscription}`)}
                </Descriptions.Item>
                <Descriptions.Item label={t('transfers.columns.createdAt')}>
                  {formatDateTime(item.createdAt)}
                </Descriptions.Item>
                {item.processedAt ? (
                  <Descriptions.Item label={t('transfers.columns.processedAt')}>
                    {formatDateTime(item.processedAt)}
                  </Descriptions.Item>
                ) : null}
                {item.remark ? (
                  <Descriptions.Item label={t('transfers.columns.remark')}>{item.remark}</Descriptions.Item>
                ) : null}
              </Descriptions>
              <Actions item={item} />
            </Card>
          </List.Item>
        )}
      />
    );

  const columns: TableColumnsType<TransferItem> = [
    { key: 'set', title: t('transfers.columns.set'), render: (_, item) => <SetName item={item} /> },
    { key: 'direction', title: t('transfers.columns.direction'), render: (_, item) => <DirectionTag item={item} /> },
    { key: 'sender', title: t('transfers.columns.sender'), render: (_, item) => <Party party={item.sender} /> },
    { key: 'receiver', title: t('transfers.columns.receiver'), render: (_, item) => <Party party={item.receiver} /> },
    {
      key: 'keep',
      title: t('transfers.columns.keep'),
      responsive: ['lg'],
      render: (_, item) => t(`transfers.keep.${item.keepSubscription}`),
    },
    { key: 'status', title: t('transfers.columns.status'), render: (_, item) => <StatusTag status={item.status} /> },
    {
      key: 'createdAt',
      title: t('transfers.columns.createdAt'),
      render: (_, item) => formatDateTime(item.createdAt),
    },
    {
      key: 'processedAt',
      title: t('transfers.columns.processedAt'),
      render: (_, item) => formatDateTime(item.processedAt),
    },
    {
      key: 'remark',
      title: t('transfers.columns.remark'),
      responsive: ['xl'],
      ellipsis: true,
      render: (_, item) => item.remark,
    },
    ...(box === 'pending'
      ? [
          {
            key: 'actions',
            title: t('transfers.columns.actions'),
            render: (_: unknown, item: TransferItem) => <Actions item={item} />,
          },
        ]
      : []),
  ];

  return (
    <Table<TransferItem>
      size="small"
      rowKey="id"
      columns={columns}
      dataSource={data?.list ?? []}
      loading={list.isPending || (list.isFetching && list.isPlaceholderData)}
      tableLayout="auto"
      locale={{ emptyText: empty }}
      pagination={pagination(data?.total ?? 0, { hideOnSinglePage: true })}
    />
  );
}

export function TransfersPage() {
  const { t } = useTranslation();
  const [box, setBox] = useState<TransferBox>('pending');
  return (
    <Card title={<h1 className="transfers-title">{t('transfers.title')}</h1>} className="transfers-card">
      <Typography.Paragraph type="secondary">{t('transfers.intro')}</Typography.Paragraph>
      <Tabs
        activeKey={box}
        onChange={(key) => setBox(key as TransferBox)}
        destroyOnHidden
        items={[
          { key: 'pending', label: t('transfers.tabs.pending'), children: <TransferList box="pending" /> },
          { key: 'done', label: t('transfers.tabs.done'), children: <TransferList box="done" /> },
        ]}
      />
    </Card>
  );
}
