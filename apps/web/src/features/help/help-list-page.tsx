// /help/list: the pages of the user manual.
import { Card, List, Skeleton } from 'antd';
import { FileTextOutlined, RightOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { useHelpList } from './api.ts';

export function HelpListPage() {
  const { t } = useTranslation();
  const { data, isPending, isError, error, refetch } = useHelpList();

  let body;
  if (isPending) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (isError) body = <ErrorState error={error} onRetry={() => void refetch()} />;
  else if (data.length === 0) body = <EmptyState description={t('help.empty')} />;
  else
    body = (
      <List
        dataSource={data}
        renderItem={(entry) => (
          <List.Item>
            <Link
              to={`/help/info?slug=${encodeURIComponent(entry.slug)}`}
              style={{ display: 'flex', alignItems: 'center', gap: 12, width: '100%' }}
            >
              <FileTextOutlined aria-hidden />
              <span style={{ flex: 1 }}>{entry.title}</span>
              <RightOutlined aria-hidden />
            </Link>
          </List.Item>
        )}
      />
    );

  return (
    <Card title={<h1 style={{ fontSize: 18, margin: 0 }}>{t('help.title')}</h1>} data-testid="help-list">
      {body}
    </Card>
  );
}
