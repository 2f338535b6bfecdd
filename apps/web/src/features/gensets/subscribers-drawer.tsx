// The subscribers of one set, for its managers: the set's codes, each subscriber's rights (changeable) and
// removal (at most 20 at once).
import { usePaging } from '../../components/use-paging.ts';
import { useState } from 'react';
import { App as AntApp, Button, Drawer, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MAX_SELECTED_ITEMS, type GensetRights, type SubscriptionItem } from '@genset/protocol';
import { formatDateTime } from '../../components/format.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { useDeleteSubscriptions, useGensetInfo, useSubscribers, useUpdateSubscription } from './api.ts';
import { SetCodes } from './set-codes.tsx';

const RIGHTS: GensetRights[] = ['view', 'control', 'manage'];

export function SubscribersDrawer({
  set,
  onClose,
}: {
  set: { token: string; name: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const { page, size, setPage, pagination } = usePaging();
  const [selected, setSelected] = useState<number[]>([]);
  const token = set?.token ?? '';
  const info = useGensetInfo(token);
  const subscribers = useSubscribers({ token: token || undefined, page, size }, Boolean(token));
  const update = useUpdateSubscription();
  const remove = useDeleteSubscriptions();

  const removeIds = async (ids: number[]) => {
    if (ids.length > MAX_SELECTED_ITEMS) {
      void message.error(t('validation.maxSelected', { max: MAX_SELECTED_ITEMS }));
      return;
    }
    const result = await remove.mutateAsync({ ids });
    setSelected([]);
    void message.success(t('gensets.subscribers.removed', { count: result.deleted }));
  };

  return (
    <Drawer
      open={Boolean(set)}
      onClose={() => {
        setSelected([]);
        setPage(1);
        onClose();
      }}
      title={t('gensets.subscribers.title', { name: set?.name ?? '' })}
      size="large"
      destroyOnHidden
      styles={{ wrapper: { maxWidth: '100vw' } }}
    >
      {info.data ? (
        <div style={{ marginBottom: 16 }}>
          <SetCodes
            token={token}
            setName={set?.name ?? ''}
            subscriptionCode={info.data.subscriptionCode}
            controlCode={info.data.controlCode}
          />
        </div>
      ) : null}
      {subscribers.isError ? (
        <ErrorState error={subscribers.error} onRetry={() => void subscribers.refetch()} />
      ) : (
        <>
          <Space style={{ marginBottom: 8 }} wrap>
            <Popconfirm
              title={t('gensets.subscribers.removeConfirm', { count: selected.length })}
              okText={t('gensets.subscribers.remove')}
              cancelText={t('common.actions.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => removeIds(selected)}
              disabled={selected.length === 0}
            >
              <Button danger className="danger-readable" icon={<DeleteOutlined />} disabled={selected.length === 0}>
                {t('gensets.subscribers.removeSelected', { count: selected.length })}
              </Button>
            </Popconfirm>
          </Space>
          <Table<SubscriptionItem>
            className="genset-subscribers"
            size="small"
            rowKey="id"
            loading={subscribers.isFetching}
            dataSource={subscribers.data?.list ?? []}
            rowSelection={{
              selectedRowKeys: selected,
              onChange: (keys) => setSelected(keys as number[]),
              preserveSelectedRowKeys: true,
            }}
            locale={{ emptyText: t('gensets.subscribers.empty') }}
            pagination={pagination(subscribers.data?.total ?? 0, { hideOnSinglePage: false, size: 'small' })}
            columns={[
              {
                key: 'user',
                title: t('gensets.subscribers.user'),
                render: (_, s) => (
                  <div className="genset-name-cell">
                    <span>{s.nickname}</span>
                    <Typography.Text type="secondary" className="genset-sub">
                      {s.account}
                    </Typography.Text>
                  </div>
                ),
              },
              {
                key: 'rights',
                title: t('gensets.subscribers.rights'),
                width: 150,
                render: (_, s) => (
                  <Select<GensetRights>
                    size="small"
                    value={s.rights}
                    style={{ width: 130 }}
                    aria-label={t('gensets.subscribers.rightsOf', { name: s.nickname || s.account })}
                    options={RIGHTS.map((r) => ({ value: r, label: t(`gensets.rights.${r}`) }))}
                    onChange={(rights) =>
                      update.mutate(
                        { id: s.id, rights },
                        { onSuccess: () => void message.success(t('gensets.subscribers.updated')) },
                      )
                    }
                  />
                ),
              },
              {
                key: 'since',
                title: t('gensets.subscribers.since'),
                width: 140,
                render: (_, s) => formatDateTime(s.createdAt),
              },
              {
                key: 'remove',
                width: 48,
                render: (_, s) => (
                  <Popconfirm
                    title={t('gensets.subscribers.removeConfirm', { count: 1 })}
                    okText={t('gensets.subscribers.remove')}
                    cancelText={t('common.actions.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => removeIds([s.id])}
                  >
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('gensets.subscribers.removeOf', { name: s.nickname || s.account })}
                    />
                  </Popconfirm>
                ),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
