// The message centre (/message): every notice of the person, newest first, all or only unread, marking them
// read one by one or all at once; the message settings decide what arrives here and by e-mail or SMS.
import { useState } from 'react';
import { Button, Card, Flex, Pagination, Segmented } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorState } from '../../components/error-state.tsx';
import { useMarkAllNotices, useNotices, useUnreadNotices } from './api.ts';
import { NoticeList } from './notice-list.tsx';

const SIZE = 20;

export function NoticesPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<'all' | 'unread'>('all');
  const [page, setPage] = useState(1);
  const notices = useNotices(page, SIZE, filter === 'unread');
  const unread = useUnreadNotices();
  const markAll = useMarkAllNotices();

  return (
    <Card
      data-testid="notices-page"
      title={t('notices.title')}
      extra={
        <Link to="/user/personal?tab=messages">
          <SettingOutlined /> {t('notices.settingsLink')}
        </Link>
      }
    >
      <Flex justify="space-between" wrap="wrap" gap={8} style={{ marginBottom: 8 }}>
        <Segmented<'all' | 'unread'>
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('notices.all') },
            { value: 'unread', label: t('notices.unreadCount', { count: unread }) },
          ]}
        />
        <Button onClick={() => markAll.mutate()} disabled={unread === 0} loading={markAll.isPending}>
          {t('notices.markAllRead')}
        </Button>
      </Flex>
      {notices.isError ? (
        <ErrorState error={notices.error} onRetry={() => void notices.refetch()} />
      ) : (
        <>
          <NoticeList items={notices.data?.list ?? []} loading={notices.isPending} />
          {(notices.data?.total ?? 0) > SIZE && (
            <Pagination
              style={{ marginTop: 12, textAlign: 'right' }}
              current={page}
              pageSize={SIZE}
              total={notices.data?.total ?? 0}
              onChange={setPage}
              showSizeChanger={false}
              size="small"
            />
          )}
        </>
      )}
    </Card>
  );
}
