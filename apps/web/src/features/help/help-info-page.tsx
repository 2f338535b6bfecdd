// /help/info?slug=: one page of the user manual.
import { Button, Card, Skeleton } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { useHelpPage } from './api.ts';
import { MarkdownView } from './markdown-view.tsx';

/** The page's own first heading repeats its title, which the card already shows. */
export function withoutLeadingTitle(markdown: string): string {
  return markdown.replace(/^\s*#[ \t]+[^\n]*\n?/, '');
}

export function HelpInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const slug = params.get('slug');
  const { data, isPending, isError, error, refetch } = useHelpPage(slug);

  let title = t('help.title');
  let body;
  if (!slug) body = <EmptyState description={t('help.noPage')} />;
  else if (isPending) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (isError) body = <ErrorState error={error} onRetry={() => void refetch()} />;
  else if (!data.markdown.trim()) body = <EmptyState description={t('help.emptyPage')} />;
  else {
    title = data.title;
    body = <MarkdownView markdown={withoutLeadingTitle(data.markdown)} />;
  }

  return (
    <Card
      title={<h1 style={{ fontSize: 18, margin: 0 }}>{title}</h1>}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/help/list')}>
          {t('help.back')}
        </Button>
      }
      data-testid="help-info"
    >
      {body}
    </Card>
  );
}
