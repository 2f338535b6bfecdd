// /baoxiu/list: repair requests. "My requests" are the caller's own; "Service queue" (repair:manage) holds the
// requests on the sets of the caller's company, to be accepted, worked on and finished. Both are lists of
// cards, latest change first, that read as well on a technician's phone as on a desk; a state filter narrows
// them. A new request starts here or from a set.
import { Button, Card, Flex, List, Select, Space, Tabs, Typography } from 'antd';
import { PictureOutlined, PlusOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Permission, REPAIR_STATES, type RepairListItem, type RepairState } from '@genset/protocol';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { formatDateTime } from '../../components/format.ts';
import { useAuthorized } from '../../components/use-authorized.ts';
import { usePaging } from '../../components/use-paging.ts';
import { useRepairList, type RepairScope } from './api.ts';
import { repairLinks } from './links.ts';
import { RepairStateTag } from './repair-state-tag.tsx';
import './repairs.css';

function RepairCard({ item, queue }: { item: RepairListItem; queue: boolean }) {
  const { t } = useTranslation();
  return (
    <List.Item className="repair-item" data-testid="repair-item" data-token={item.token}>
      <Flex vertical gap={4} className="repair-item-body">
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Link to={repairLinks.detail(item.token)} className="repair-item-title" data-testid="repair-link">
            {item.setName}
          </Link>
          <RepairStateTag state={item.state} />
        </Flex>
        <Typography.Paragraph ellipsis={{ rows: 2 }} className="repair-item-text">
          {item.description}
        </Typography.Paragraph>
        <Space size={[12, 0]} wrap className="repair-item-meta">
          <span>{t('repairs.list.created', { time: formatDateTime(item.createdAt) })}</span>
          {queue ? <span>{t('repairs.list.requester', { name: item.requester || item.contact })}</span> : null}
          {queue ? <a href={`tel:${item.phone.replace(/[^\d+]/g, '')}`}>{item.phone}</a> : null}
          {item.pictures > 0 ? (
            <span>
              <PictureOutlined /> {t('repairs.list.pictures', { count: item.pictures })}
            </span>
          ) : null}
        </Space>
      </Flex>
    </List.Item>
  );
}

function RepairList({ scope }: { scope: RepairScope }) {
  const { t } = useTranslation();
  const paging = usePaging();
  const [search, setSearch] = useSearchParams();
  const state = (REPAIR_STATES as readonly string[]).includes(search.get('state') ?? '')
    ? (search.get('state') as RepairState)
    : undefined;
  const list = useRepairList(scope, { page: paging.page, size: paging.size, ...(state ? { state } : {}) });
  const queue = scope === 'list';

  const chooseState = (value: RepairState | 'all') => {
    const next = new URLSearchParams(search);
    if (value === 'all') next.delete('state');
    else next.set('state', value);
    paging.setPage(1);
    setSearch(next, { replace: true });
  };

  return (
    <Flex vertical gap={12}>
      <Select
        value={state ?? 'all'}
        onChange={chooseState}
        className="repair-state-filter"
        aria-label={t('repairs.list.stateFilter')}
        options={[
          { value: 'all', label: t('repairs.list.allStates') },
          ...REPAIR_STATES.map((s) => ({ value: s, label: t(`repairs.state.${s}`) })),
        ]}
        data-testid="repair-state-filter"
      />
      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <List
          loading={list.isPending}
          dataSource={list.data?.list ?? []}
          locale={{
            emptyText: <EmptyState description={t(queue ? 'repairs.list.emptyQueue' : 'repairs.list.empty')} />,
          }}
          renderItem={(item) => <RepairCard item={item} queue={queue} />}
          pagination={
            (list.data?.total ?? 0) > paging.size
              ? {
                  current: paging.page,
                  pageSize: paging.size,
                  total: list.data?.total ?? 0,
                  onChange: (p) => paging.setPage(p),
                  size: 'small',
                  align: 'center',
                }
              : false
          }
          data-testid={queue ? 'repair-queue' : 'repair-mine'}
        />
      )}
    </Flex>
  );
}

export function RepairsPage() {
  const { t } = useTranslation();
  const authorized = useAuthorized();
  const service = authorized([Permission.repairManage]);
  const [search, setSearch] = useSearchParams();
  const tab = service && search.get('tab') === 'queue' ? 'queue' : 'mine';

  return (
    <Card
      title={<h2 className="repair-title">{t('repairs.title')}</h2>}
      extra={
        <Link to={repairLinks.add()}>
          <Button type="primary" icon={<PlusOutlined />} data-testid="repair-new">
            {t('repairs.new')}
          </Button>
        </Link>
      }
      className="repair-page"
      data-testid="repairs-page"
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setSearch(key === 'queue' ? { tab: 'queue' } : {}, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'mine', label: t('repairs.tabs.mine'), children: <RepairList scope="my" /> },
          ...(service ? [{ key: 'queue', label: t('repairs.tabs.queue'), children: <RepairList scope="list" /> }] : []),
        ]}
      />
    </Card>
  );
}
