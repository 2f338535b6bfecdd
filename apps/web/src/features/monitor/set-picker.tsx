// /monitor without a set: the user's sets to choose from, searchable, with their status.
import { useState } from 'react';
import { Button, Card, Input, List, Space, Typography } from 'antd';
import { AppstoreOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE } from '@genset/protocol';
import { ErrorState } from '../../components/error-state.tsx';
import { useMySets } from './api.ts';
import { SetStatusTag } from './set-status-tag.tsx';

export function SetPicker() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const sets = useMySets({ page, size: DEFAULT_PAGE_SIZE, ...(search ? { search } : {}) });
  return (
    <Card
      title={t('live.monitor.chooseSet')}
      extra={
        <Link to="/manymonitor">
          <Button icon={<AppstoreOutlined />}>{t('live.monitor.allSets')}</Button>
        </Link>
      }
      style={{ maxWidth: 720, margin: '24px auto' }}
      data-testid="set-picker"
    >
      <Input.Search
        allowClear
        placeholder={t('live.monitor.search')}
        aria-label={t('live.monitor.search')}
        onSearch={(value) => {
          setSearch(value.trim());
          setPage(1);
        }}
        style={{ marginBottom: 12 }}
      />
      {sets.isError ? (
        <ErrorState error={sets.error} onRetry={() => void sets.refetch()} />
      ) : (
        <List
          loading={sets.isPending}
          dataSource={sets.data?.list ?? []}
          rowKey="token"
          locale={{ emptyText: t('live.monitor.noSets') }}
          pagination={
            (sets.data?.total ?? 0) > DEFAULT_PAGE_SIZE
              ? { current: page, pageSize: DEFAULT_PAGE_SIZE, total: sets.data?.total, onChange: setPage }
              : false
          }
          renderItem={(set) => (
            <List.Item
              actions={[
                <Link key="open" to={`/monitor?token=${encodeURIComponent(set.token)}`} data-testid="pick-set">
                  {t('live.monitor.open')}
                </Link>,
              ]}
            >
              <Space size={8} wrap>
                <Typography.Text strong>{set.name}</Typography.Text>
                <SetStatusTag status={set.status} />
                {set.alarmCount > 0 ? (
                  <Typography.Text type="danger">{t('top.alarmCount', { count: set.alarmCount })}</Typography.Text>
                ) : null}
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
